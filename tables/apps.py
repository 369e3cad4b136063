from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = _("Rounds and tables")

    def ready(self):
        # The tournament settings page (tournaments app, below this one) asks for a confirmation of a
        # scoring change once standings are published, showing the old and the new top 10.
        from tables.standings.settings_check import scoring_change
        from tournaments import settings_checks
        settings_checks.register(scoring_change)
        # A committed change of a tournament queues its snapshot: its public pages rendered anew and
        # the change announced on its live channel (tables/live/snapshot.py). The one receiver of
        # tournaments.versions.changes_committed.
        from tables.live import snapshot
        from tournaments import versions
        versions.changes_committed.connect(snapshot.changes_committed, dispatch_uid="tables.live.snapshot")
        # The push notifications' keys are checked with the rest of the site (tables.push).
        from django.core import checks
        from tables.push.checks import vapid_keys
        checks.register(vapid_keys)
