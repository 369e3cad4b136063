"""What the push notifications read: whether they are on, the registration a phone may follow, and
the notification of each phone following a player of a published round. Reads only."""
from collections import Counter, defaultdict
from dataclasses import dataclass

from django.conf import settings
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from tables.models import PushSubscription, Round, Seat
from tournaments.models import Registration


def enabled():
    """Whether the site has its VAPID keys: without them the option is not offered, nothing is sent."""
    return bool(settings.VAPID_PUBLIC_KEY and settings.VAPID_PRIVATE_KEY)


def registration_to_follow(pk, reg_pk):
    """The registration `reg_pk` of published tournament `pk`, else 404 (as its public page)."""
    return get_object_or_404(Registration.objects.select_related("tournament", "player"), pk=reg_pk,
                             tournament_id=pk, tournament__published=True)


def surnames(players):
    """The players by surname, in seat order; two of one surname at the table get their initial."""
    same = Counter(p.last_name.casefold() for p in players)
    return [f"{p.last_name} {p.first_name[:1]}." if same[p.last_name.casefold()] > 1 and p.first_name
            else p.last_name for p in players]


def message(round_number, table_number, mates):
    """"Turno 2 — Tavolo 7, con Rossi, Bianchi, Verdi", in the active language."""
    return _("Round %(round)d — Table %(table)d, with %(players)s") % {
        "round": round_number, "table": table_number, "players": ", ".join(surnames(mates))}


def payload(*, tournament, registration_id, round_number, table_number, mates, language):
    """What the phone's worker shows (static/js/push-sw.js): the tournament as the title, the table as
    the text, the player's page opened by a tap; one notification per tournament on the screen (`tag`)."""
    with translation.override(language):
        body = message(round_number, table_number, mates)
    return {"title": tournament.name, "body": body, "tag": f"torneo-{tournament.pk}",
            "url": reverse("public:player", args=[tournament.pk, registration_id])}


@dataclass(frozen=True)
class Notification:
    subscription: PushSubscription
    payload: dict


def round_notifications(round_pk, registration_ids=None):
    """One notification for each phone following a player seated in round `round_pk` (of those of
    `registration_ids` when given) while its seating is public (the round published, not yet closed,
    its tournament published); else none."""
    rnd = Round.objects.select_related("tournament").filter(pk=round_pk).first()
    if rnd is None or rnd.status != Round.Status.PUBLISHED or not rnd.tournament.published:
        return []
    seats = list(Seat.objects.filter(table__round=rnd).select_related("table", "registration__player")
                 .order_by("table__number", "position", "pk"))
    at_table = defaultdict(list)
    for seat in seats:
        at_table[seat.table_id].append(seat)
    seat_of = {seat.registration_id: seat for seat in seats
               if registration_ids is None or seat.registration_id in registration_ids}
    found = []
    for sub in PushSubscription.objects.filter(registration_id__in=list(seat_of)):
        seat = seat_of[sub.registration_id]
        mates = [s.registration.player for s in at_table[seat.table_id] if s.pk != seat.pk]
        found.append(Notification(sub, payload(tournament=rnd.tournament, registration_id=sub.registration_id,
                                               round_number=rnd.number, table_number=seat.table.number,
                                               mates=mates, language=sub.language)))
    return found
