"""`make run`'s demo (load_demo) includes a season circuit of two played tournaments."""
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
