"""Login throttling: too many failures for one account or one address lock them out for a while."""
from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from tournaments.models import LoginFailure


def _window_start():
    return timezone.now() - timedelta(seconds=settings.LOGIN_FAILURE_WINDOW_S)


def is_locked(*, username, address):
    since = _window_start()
    limit = settings.LOGIN_FAILURE_LIMIT
    recent = LoginFailure.objects.filter(created_at__gte=since)
    return (recent.filter(username=username.lower()).count() >= limit
            or recent.filter(address=address).count() >= limit)


def record_failure(*, username, address):
    LoginFailure.objects.create(username=username.lower()[:150], address=address[:64])
    # Old entries are of no use once out of the window.
    LoginFailure.objects.filter(created_at__lt=_window_start() - timedelta(days=1)).delete()


def clear(*, username):
    LoginFailure.objects.filter(username=username.lower()).delete()
