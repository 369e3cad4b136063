"""What a circuit shows the public and what another organiser reaches of it: an unpublished tournament
never shows on a public circuit page (its column, its players, its points), a person is ranked once in
a tournament's order even with two records, and an organiser never removes an entry of someone else's
circuit."""
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from circuits import services
from circuits.models import CircuitTournament
from tests.circuits.test_circuits import play
from tests.factories import OrganiserFactory, PlayerFactory, TournamentFactory
from tests.html import attr
from tournaments.models import Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def circuit_with_a_draft(organiser):
    """Published "Aperto" (Anna, Bruno, Carla, Dario) and unpublished "Bozza" (Elena first) in one circuit."""
    people = {n: PlayerFactory(first_name=n, last_name="Verdi") for n in ("Anna", "Bruno", "Carla", "Dario", "Elena")}
    shown = TournamentFactory(organiser=organiser, name="Aperto")
    draft = TournamentFactory(organiser=organiser, name="Bozza")
    play(shown, [people[n] for n in ("Anna", "Bruno", "Carla", "Dario")], [60, 40, 30, 10])
    play(draft, [people[n] for n in ("Elena", "Anna", "Bruno", "Carla")], [70, 20, 10, 0])
    draft.published = False
    draft.save()
    circuit = services.circuit_create(user=organiser, data={"name": "Stagione", "season": "2026", "rule": "participants"})
    for tournament in (shown, draft):
        services.circuit_tournament_add(user=organiser, circuit=circuit, tournament=tournament, weight=Decimal("1"))
    return circuit, people


def test_an_unpublished_tournament_never_shows_on_a_public_circuit_page(circuit_with_a_draft, client):
    circuit, people = circuit_with_a_draft
    data = client.get(reverse("public:circuit_json", args=[circuit.pk])).json()
    assert [t["name"] for t in data["tournaments"]] == ["Aperto"]
    everyone = [r["player"] for r in data["standings"] + data["unranked"]]
    assert "Elena Verdi" not in everyone
    assert all(r["played"] == 1 for r in data["standings"] + data["unranked"])
    page = client.get(reverse("public:circuit", args=[circuit.pk]))
    assert str(people["Elena"].pk) not in attr(page, "[data-player]", "data-player")
    history = client.get(reverse("public:player_history", args=[people["Anna"].pk]))
    assert [row.tournament.name for row in history.context["rows"]] == ["Aperto"]


def test_a_person_with_two_records_in_one_tournament_is_ranked_once_at_the_better_place(organiser, client):
    """Two records of one person both played (an old file brought them in before they were merged):
    the tournament's order counts the person once, at the better place, and the places after close up."""
    anna, copy, bruno, carla = (PlayerFactory(first_name=n, last_name="Neri") for n in ("Anna", "Anna2", "Bruno",
                                                                                         "Carla"))
    tournament = TournamentFactory(organiser=organiser)
    play(tournament, [bruno, anna, copy, carla], [60, 40, 30, 10])
    Player.all_players.filter(pk=copy.pk).update(removed=True, merged_into=anna)
    circuit = services.circuit_create(user=organiser, data={"name": "C", "season": "2026", "rule": "participants"})
    services.circuit_tournament_add(user=organiser, circuit=circuit, tournament=tournament, weight=Decimal("1"))
    data = client.get(reverse("public:circuit_json", args=[circuit.pk])).json()
    assert data["tournaments"][0]["participants"] == 3
    ranks = {r["player"]: r["results"][0]["rank"] for r in data["standings"] + data["unranked"]}
    assert ranks == {"Bruno Neri": 1, "Anna Neri": 2, "Carla Neri": 3}


def test_an_organiser_never_removes_an_entry_of_someone_elses_circuit(circuit_with_a_draft, client_for):
    circuit, _people = circuit_with_a_draft
    entry = circuit.entries.get(tournament__name="Aperto")
    other = OrganiserFactory(username="intruso")
    theirs = services.circuit_create(user=other, data={"name": "Mio", "season": "2026", "rule": "participants"})
    url = reverse("manage:circuit_tournament_remove", args=[theirs.pk, entry.pk])   # their own circuit's address
    assert client_for(other).post(url).status_code == 404
    with pytest.raises(ValidationError):
        services.circuit_tournament_remove(user=other, entry=entry)
    assert CircuitTournament.objects.filter(pk=entry.pk).exists()
