import base64
import os

import pytest

from tables.push.keys import b64url, generate

PUBLIC_KEY, PRIVATE_KEY = generate()


def phone(n=1, host="fcm.googleapis.com"):
    """What a browser posts for one phone: a PushSubscription's JSON (real key sizes)."""
    return {"endpoint": f"https://{host}/fcm/send/phone-{n}", "expirationTime": None,
            "keys": {"p256dh": generate()[0], "auth": b64url(os.urandom(16))}}


@pytest.fixture
def vapid(settings):
    """The site has its VAPID keys; notifications are sent in the test's own thread (tests/conftest.py)."""
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = PUBLIC_KEY, PRIVATE_KEY
    settings.VAPID_SUBJECT = "mailto:club@example.org"
    return settings


class FakePush:
    """Stands for pywebpush's `webpush`: records each message, answers as told (an exception to raise)."""

    def __init__(self):
        self.sent = []
        self.answers = {}  # endpoint -> exception

    def __call__(self, subscription_info, data=None, **kwargs):
        self.sent.append({"endpoint": subscription_info["endpoint"], "data": data, **kwargs})
        error = self.answers.get(subscription_info["endpoint"])
        if error is not None:
            raise error


@pytest.fixture
def pushed(monkeypatch):
    fake = FakePush()
    monkeypatch.setattr("tables.push.sender.webpush", fake)
    return fake


def raw(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
