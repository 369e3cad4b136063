"""The writes of the push notifications, each in a transaction and logged (torneo.push, info): a
phone following a player, a phone switching them off, a phone its push service says is gone or refuses. A
phone's subscription is not tournament data: no audit entry.

`round_published`, called by the round's publication (tables.rounds.services), queues the sending of
the round's notifications once the publication commits (`send_round`, a job of Django's tasks
framework run by the push worker: queued in the database, a restart loses none); `seats_moved`, called
by a swap or a move in a published round, those of the players moved."""
import logging
from functools import partial

from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _
from django_tasks import task

from tables.models import PushSubscription, Round
from tables.push import sender
from tables.push.address import push_address
from tables.push.keys import b64url_decode
from tables.push.selectors import enabled, round_notifications
from tournaments.models import Registration

logger = logging.getLogger("torneo.push")

ENDPOINT_MAX = PushSubscription._meta.get_field("endpoint").max_length
PHONES_PER_PLAYER = 5  # a player's phone, tablet, a friend's...: past it a new phone takes the place of another
RATE_LIMIT, RATE_WINDOW_SECONDS = 20, 600  # subscriptions and switch-offs from one address


def _check_endpoint(endpoint):
    """The address as the sending reads it (address.push_address: one parser for both)."""
    if not isinstance(endpoint, str) or not endpoint or len(endpoint) > ENDPOINT_MAX or not push_address(endpoint):
        raise ValidationError(_("This browser's push address is not one of the browsers' push services."))


def _check_key(value, size):
    """A key of `size` bytes; the phone's public key (65 bytes) a point of the curve messages are
    encrypted on, as every browser's is: made-up bytes would never carry a message."""
    try:
        raw = b64url_decode(value) if isinstance(value, str) and len(value) < 100 else b""
    except ValueError:
        raw = b""
    if len(raw) != size or (size == 65 and not _on_the_curve(raw)):
        raise ValidationError(_("This browser's push keys are not valid."))


def _on_the_curve(raw):
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), raw)
    except ValueError:
        return False
    return True


def _language(code):
    codes = [code for code, _name in settings.LANGUAGES]
    return code if code in codes else settings.LANGUAGE_CODE


def rate_take(address):
    """Count one subscription or switch-off from client `address`: False past RATE_LIMIT in the window
    (a counter in the shared cache, which every worker sees)."""
    key = f"push-rate:{address}"
    cache.add(key, 0, RATE_WINDOW_SECONDS)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between the two calls
        cache.set(key, 1, RATE_WINDOW_SECONDS)
        count = 1
    return count <= RATE_LIMIT


@transaction.atomic
def subscription_save(*, registration, endpoint, p256dh, auth, language):
    """This phone (its `endpoint`) follows `registration` from now on, in `language`; a phone that
    followed someone else follows this player instead. ValidationError for what a browser never sends.
    A new phone is never refused for want of a place (the player's own phone is never shut out by
    strangers' subscriptions): when PHONES_PER_PLAYER already follow the player, it takes the place of
    the oldest one no notification ever reached, else of the one reached longest ago. A subscription
    its push service says is gone or refuses is forgotten at the first sending (notify_round)."""
    _check_endpoint(endpoint)
    _check_key(p256dh, 65)
    _check_key(auth, 16)
    if not enabled():
        raise ValidationError(_("Notifications are not available on this site."))
    registration = Registration.objects.select_related("tournament").get(pk=registration.pk)
    if not registration.tournament.published:
        raise ValidationError(_("Notifications are not available on this site."))
    if registration.status == Registration.Status.WITHDRAWN:
        raise ValidationError(_("This player has withdrawn from the tournament."))
    # One player's phones are counted under a lock on the player's registration: two posts at once
    # cannot both take the last place.
    Registration.objects.select_for_update().filter(pk=registration.pk).first()
    following = PushSubscription.objects.filter(registration=registration).exclude(endpoint=endpoint)
    if following.count() >= PHONES_PER_PLAYER:
        given_up = following.order_by(F("delivered_at").asc(nulls_first=True), "created_at", "pk").first()
        given_up.delete()
        logger.info("push: subscription %s of registration %s gave its place to a new phone", given_up.pk,
                    registration.pk)
    sub, created = PushSubscription.objects.update_or_create(endpoint=endpoint, defaults={
        "registration": registration, "p256dh": p256dh, "auth": auth, "language": _language(language)})
    logger.info("push: subscription %s %s registration %s (tournament %s)", sub.pk,
                "follows" if created else "now follows", registration.pk, registration.tournament_id)
    return sub


@transaction.atomic
def subscription_delete(*, endpoint):
    """The phone of `endpoint` is told nothing more; False when it was not subscribed."""
    if not isinstance(endpoint, str) or len(endpoint) > ENDPOINT_MAX:
        raise ValidationError(_("This browser's push address is not one of the browsers' push services."))
    gone = PushSubscription.objects.filter(endpoint=endpoint).select_for_update().first()
    if gone is None:
        return False
    gone.delete()
    logger.info("push: subscription of registration %s switched off", gone.registration_id)
    return True


@transaction.atomic
def subscription_expired(*, subscription, why="expired"):
    """The push service answered 404 or 410 (the phone unsubscribed or its subscription expired), or
    refused the subscription (`why` "refused": its keys, its address): the phone is told nothing more."""
    PushSubscription.objects.filter(pk=subscription.pk).delete()
    logger.info("push: subscription %s of registration %s %s: removed", subscription.pk,
                subscription.registration_id, why)


def subscription_delivered(*, subscription):
    """A notification reached the phone's push service: the subscription is one that works (a new
    phone takes the place of those that never worked first)."""
    PushSubscription.objects.filter(pk=subscription.pk).update(delivered_at=timezone.now())


def notify_round(round_pk, registration_ids=None):
    """Send the notifications of round `round_pk`, to the phones of `registration_ids` only when given
    (selectors.round_notifications: none unless its seating and its tournament are public). Returns
    {outcome: count}."""
    counts = {}
    if not enabled():
        return counts
    for note in round_notifications(round_pk, registration_ids):
        outcome = sender.deliver(note.subscription, note.payload)
        if outcome in (sender.EXPIRED, sender.REFUSED):
            subscription_expired(subscription=note.subscription, why=outcome)
        elif outcome == sender.SENT:
            subscription_delivered(subscription=note.subscription)
        counts[outcome] = counts.get(outcome, 0) + 1
    logger.info("push: round %s notified %s", round_pk, counts or "nobody")
    return counts


@task(queue_name="push")
def send_round(round_pk, registration_ids=None):
    """The job sending the notifications of round `round_pk` (see notify_round)."""
    return notify_round(round_pk, registration_ids)


def round_published(rnd):
    """Called in the transaction publishing `rnd`: once it commits, its players' phones are told."""
    if enabled():
        transaction.on_commit(partial(send_round.enqueue, rnd.pk))


def seats_moved(rnd, registration_ids):
    """Called in the transaction moving players of `rnd` to other tables: once it commits, when the
    round's seating is public, the moved players' phones are told their new table."""
    if enabled() and rnd.status == Round.Status.PUBLISHED:
        transaction.on_commit(partial(send_round.enqueue, rnd.pk, sorted(registration_ids)))
