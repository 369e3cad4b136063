"""A draft round thrown away: the draw was wrong (wrong players present, wrong method), start again."""
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from tables.models import Round, Seat
from tournaments.audit.services import audit


@transaction.atomic
def round_delete_draft(*, user, rnd):
    """Delete a round not yet published, with its tables; the audit entry keeps its seating."""
    rnd = Round.objects.select_for_update().get(pk=rnd.pk)
    if rnd.status != Round.Status.DRAFT:
        raise ValidationError(_("Only a draft round can be deleted: this one is published."))
    before = {"round": rnd.number, "method": rnd.method, "seed": rnd.seed,
              "tables": [[s.registration.player.full_name for s in t.seats.all()]
                         for t in rnd.tables.prefetch_related("seats__registration__player")]}
    tournament = rnd.tournament
    Seat.objects.filter(table__round=rnd).delete()
    rnd.tables.all().delete()
    rnd.delete()
    audit(user=user, action="round.delete", tournament=tournament, before=before)
