"""`make run`'s demo (load_demo) includes a season circuit of two played tournaments, and the same two\nranked by weighted best games (SCORING.md 13.11)."""
import io

from django.core.management import call_command
from django.urls import reverse

from circuits.models import Circuit


def test_load_demo_builds_a_circuit_of_two_tournaments_once(db, client):
    out = io.StringIO()
    call_command("load_demo", stdout=out)
    call_command("load_demo", stdout=io.StringIO())  # idempotent
    circuit = Circuit.objects.get(name="Stagione del Martedì (demo)")
    assert circuit.entries.count() == 2 and "Stagione del Martedì (demo)" in out.getvalue()
    data = client.get(reverse("public:circuit_json", args=[circuit.pk])).json()
    assert [t["participants"] for t in data["tournaments"]] == [16, 16]
    assert len(data["standings"]) == 20 and data["unranked"] == []
    assert sorted(r["played"] for r in data["standings"]) == [1] * 8 + [2] * 12
    assert data["standings"][0]["rank"] == 1 and data["standings"][0]["total"] > data["standings"][-1]["total"]


def test_load_demo_ranks_the_same_tournaments_by_weighted_games(db, client):
    call_command("load_demo", stdout=io.StringIO())
    circuit = Circuit.objects.get(name="Ranking Maialino (demo)")
    assert (circuit.basis, circuit.formula, circuit.best_of) == ("games", "maialino_2024", 30)
    data = client.get(reverse("public:circuit_json", args=[circuit.pk])).json()
    assert [t["weight"] for t in data["tournaments"]] == [1.0, 1.25]
    assert len(data["standings"]) == 20
    # 2 games a tournament: 12 players played both (4 games), 8 one (2 games); every game counts
    assert sorted(r["played"] for r in data["standings"]) == [2] * 8 + [4] * 12
    assert all(r["total"] == sum(r["counted"]) and len(r["counted"]) == r["played"] for r in data["standings"])
    # each tournament's winners of a table score 200 in maialino_2024, 250 at the weight 1.25
    assert {g for r in data["standings"] for c in r["results"] for g in c["games"]} >= {200.0, 250.0}
