"""`manage.py check` (and every start): VAPID keys that are set must be a pair the browsers and
pywebpush take, else no notification would ever arrive and nobody would know why."""
from django.conf import settings
from django.core.checks import Error

from tables.push.keys import problem
from tables.push.selectors import enabled


def vapid_keys(app_configs=None, **kwargs):
    if not enabled():
        return []
    found = problem(settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY)
    if found is None:
        return []
    return [Error(found, hint="Make a new pair with `manage.py vapid_keys` (docs/admin/notifications.md).",
                  id="tables.E001")]
