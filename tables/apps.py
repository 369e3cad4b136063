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
        # A committed change of a tournament renders its watched public pages anew (render on write).
        from tables.standings import refresh
        from tournaments import versions
        versions.on_committed(refresh.schedule)
        # ... and announces it on the tournament's live channel (tables.live.channel): once its
        # watched pages are rendered, or at once when nobody watches them.
        from tables.live import channel

        def announce_unless_rendered(pk):
            if not refresh.renders_on_write(pk):
                channel.announce(pk)
        versions.on_committed(announce_unless_rendered)
        refresh.on_rendered(channel.announce)
        # The push notifications' keys are checked with the rest of the site (tables.push).
        from django.core import checks
        from tables.push.checks import vapid_keys
        checks.register(vapid_keys)
