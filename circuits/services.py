"""Every write of a circuit: in a transaction, audited, and bumping the circuit's revision (its
public pages' version)."""
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from circuits.models import Circuit, CircuitTournament
from tournaments.audit.services import audit, snapshot
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
def circuit_tournament_add(*, user, circuit, tournament, weight):
    """Add a tournament to the circuit, or change its weight when it is there already."""
    circuit = Circuit.objects.select_for_update().get(pk=circuit.pk)
    _check_owner(user, circuit, tournament)
    entry = CircuitTournament.objects.filter(circuit=circuit, tournament=tournament).first()
    if entry is not None:
        if entry.weight == weight:
            return entry
        before = {"tournament": tournament.name, "weight": entry.weight}
        entry.weight = weight
        entry.full_clean()
        entry.save(update_fields=["weight"])
        action = "circuit.weight"
    else:
        before = None
        entry = CircuitTournament(circuit=circuit, tournament=tournament, weight=weight)
        entry.full_clean()
        entry.save()
        action = "circuit.tournament_add"
    _bump(circuit)
    audit(user=user, action=action, obj=circuit, tournament=tournament, before=before,
          after={"tournament": tournament.name, "weight": entry.weight})
    return entry


@transaction.atomic
def circuit_tournament_remove(*, user, entry):
    circuit = Circuit.objects.select_for_update().get(pk=entry.circuit_id)
    _check_owner(user, circuit, entry.tournament)
    before = {"tournament": entry.tournament.name, "weight": entry.weight}
    entry.delete()
    _bump(circuit)
    audit(user=user, action="circuit.tournament_remove", obj=circuit, tournament=entry.tournament, before=before)
