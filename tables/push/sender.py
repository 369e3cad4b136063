"""The network side of the push notifications: one message handed to the phone's push service
through pywebpush (the sending job is tables.push.services.send_round).

Each push service is given PUSH_TIMEOUT_SECONDS to answer; a message not delivered within
TTL_SECONDS (the phone off) is dropped by the service: a table is no news an hour later."""
import json
import logging
import threading
from functools import lru_cache

from django.conf import settings
from pywebpush import WebPushException, webpush

from tables.push.address import public_session, push_address
from tables.push.keys import signer

logger = logging.getLogger("torneo.push")

SENT, EXPIRED, REFUSED, FAILED = "sent", "expired", "refused", "failed"
TTL_SECONDS = 30 * 60
GONE = (404, 410)  # the push service no longer knows the subscription: the phone unsubscribed or expired
# The push service refuses this subscription itself (its keys, its address, the message it would carry):
# sending again would fail again.
REFUSED_BY_SERVICE = (400, 401, 403, 413)

_local = threading.local()


@lru_cache(maxsize=2)
def _signer(private_key):
    return signer(private_key)


def _session():
    """One HTTP session per thread: a round's messages to one push service share the connection, made
    only to a public network address (address.public_session)."""
    session = getattr(_local, "session", None)
    if session is None:
        session = _local.session = public_session()
    return session


def deliver(subscription, payload):
    """Hand `payload` to the push service of `subscription`: SENT, EXPIRED (404/410: forget the
    phone), REFUSED (keys no message can be encrypted to, or the push service refusing the subscription:
    400, 401, 403, 413; forget it too, logged) or FAILED (anything else: the network, a timeout, the
    service busy; logged, the subscription is kept). An address that is not a push service's as the
    sending reads it (stored before the check was what it is) is never posted to."""
    endpoint = push_address(subscription.endpoint)
    if endpoint is None:
        logger.warning("push to subscription %s refused: not a push service's address", subscription.pk)
        return FAILED
    info = {"endpoint": endpoint, "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth}}
    try:
        webpush(info, data=json.dumps(payload), vapid_private_key=_signer(settings.VAPID_PRIVATE_KEY),
                vapid_claims={"sub": settings.VAPID_SUBJECT}, timeout=settings.PUSH_TIMEOUT_SECONDS,
                ttl=TTL_SECONDS, headers={"Urgency": "high"}, requests_session=_session())
    except WebPushException as error:
        if error.status_code in GONE:
            return EXPIRED
        if error.status_code in REFUSED_BY_SERVICE:
            logger.warning("push to subscription %s refused: %s", subscription.pk, error.status_code or error.message)
            return REFUSED
        logger.warning("push to subscription %s failed: %s", subscription.pk, error.status_code or error.message)
        return FAILED
    except ValueError:  # keys that are no point of the curve: no message can ever be encrypted to them
        logger.warning("push to subscription %s refused: its keys cannot be encrypted to", subscription.pk)
        return REFUSED
    except Exception:  # the network, a timeout, a key the service refuses: this phone waits for the next round
        logger.warning("push to subscription %s failed", subscription.pk, exc_info=True)
        return FAILED
    return SENT
