"""Every write of a circuit: in a transaction, audited, and bumping the circuit's revision (its
public pages' version)."""
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from circuits.models import Circuit, CircuitTournament
from tournaments.audit.services import audit, snapshot
from scoring.errors import ScoringError
from scoring.season import parse_rule
from tournaments.rules import may_add_to_circuit

CIRCUIT_FIELDS = ("name", "season", "basis", "formula", "rule", "points_table", "participation", "best_of", "min_tournaments")


def _bump(circuit):
    Circuit.objects.filter(pk=circuit.pk).update(revision=F("revision") + 1)
    circuit.refresh_from_db(fields=["revision"])


@transaction.atomic
def circuit_create(*, user, data):
    circuit = Circuit(organiser=user, **{name: data[name] for name in CIRCUIT_FIELDS if name in data})
    circuit.full_clean()
    circuit.save()
    audit(user=user, action="circuit.create", obj=circuit, after=snapshot(circuit, CIRCUIT_FIELDS))
    return circuit


@transaction.atomic
def circuit_update(*, user, circuit, data):
    circuit = Circuit.objects.select_for_update().get(pk=circuit.pk)
    before = snapshot(circuit, CIRCUIT_FIELDS)
    for name in CIRCUIT_FIELDS:
        if name in data:
            setattr(circuit, name, data[name])
    circuit.full_clean()
    after = snapshot(circuit, CIRCUIT_FIELDS)
    if after == before:
        return circuit
    circuit.save()
    _bump(circuit)
    audit(user=user, action="circuit.update", obj=circuit, before=before, after=after)
    return circuit


def _check_owner(user, circuit, tournament):
    if not may_add_to_circuit(user, circuit, tournament):
        raise ValidationError(_("Only the organiser's own tournaments can join their circuit."))


@transaction.atomic
def circuit_tournament_add(*, user, circuit, tournament, weight, category=""):
    """Add a tournament to the circuit, or change its weight (and, under a season rule, its event
    category) when it is there already."""
    circuit = Circuit.objects.select_for_update().get(pk=circuit.pk)
    _check_owner(user, circuit, tournament)
    if category and category not in circuit.season_categories:
        raise ValidationError({"category": _("The circuit's season rule has no category “%(c)s”.") % {"c": category}})
    entry = CircuitTournament.objects.filter(circuit=circuit, tournament=tournament).first()
    if entry is not None:
        if (entry.weight, entry.category) == (weight, category):
            return entry
        before = {"tournament": tournament.name, "weight": entry.weight,
                  **({"category": entry.category} if circuit.by_season_rule else {})}
        entry.weight, entry.category = weight, category
        entry.full_clean()
        entry.save(update_fields=["weight", "category"])
        action = "circuit.weight"
    else:
        before = None
        entry = CircuitTournament(circuit=circuit, tournament=tournament, weight=weight, category=category)
        entry.full_clean()
        entry.save()
        action = "circuit.tournament_add"
    _bump(circuit)
    audit(user=user, action=action, obj=circuit, tournament=tournament, before=before,
          after={"tournament": tournament.name, "weight": entry.weight,
                 **({"category": entry.category} if circuit.by_season_rule else {})})
    return entry


@transaction.atomic
def circuit_season_rule_set(*, user, circuit, document):
    """Rank the circuit by the season rule `document` (schema torneo.season/1), or by its own settings
    again when `document` is None. A rule the season engine refuses is refused by the field at fault."""
    circuit = Circuit.objects.select_for_update().get(pk=circuit.pk)
    if document is not None:
        try:
            parse_rule(document)
        except ScoringError as exc:
            raise ValidationError(_("The season rule is not valid: %(detail)s") % {"detail": str(exc)},
                                  code="season_rule") from None
    before = {"basis": circuit.basis, "season_rule": circuit.season_rule}
    circuit.season_rule = document
    circuit.basis = Circuit.Basis.SEASON if document is not None else Circuit.Basis.RANK
    after = {"basis": circuit.basis, "season_rule": circuit.season_rule}
    if after == before:
        return circuit
    circuit.save(update_fields=["season_rule_text", "basis"])
    _bump(circuit)
    audit(user=user, action="circuit.season_rule", obj=circuit, before=before, after=after)
    return circuit


@transaction.atomic
def circuit_tournament_remove(*, user, entry):
    circuit = Circuit.objects.select_for_update().get(pk=entry.circuit_id)
    _check_owner(user, circuit, entry.tournament)
    before = {"tournament": entry.tournament.name, "weight": entry.weight}
    entry.delete()
    _bump(circuit)
    audit(user=user, action="circuit.tournament_remove", obj=circuit, tournament=entry.tournament, before=before)
