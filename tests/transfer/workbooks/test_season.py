"""A season at once: a folder or a zip of workbooks, one tournament per file, named and dated from the
file names, all or nothing; and the demo's circuit of imported tournaments."""
import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from circuits import services
from circuits.models import Circuit
from tests.transfer.workbooks.books import club_rows, gestione_sheets, season_rounds, xlsx, zipped
from transfer.workbooks.season import date_in_name, name_from_file
from tournaments.models import Player, Tournament


def season(folder, broken=None):
    files = {"2019-03-12 Torneo di primavera.xlsx": xlsx(club_rows(season_rounds())),
             "estate/15.06.2019_Torneo_d'estate.xlsx": xlsx(gestione_sheets(season_rounds())),
             ".~lock.x.xlsx#": b"", "~$aperto.xlsx": b"lock", "note.txt": b"appunti"}
    if broken:
        files.update(broken)
    for name, data in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    return files


def test_a_folder_imports_one_tournament_per_file_named_and_dated_from_the_file_names(organiser, tmp_path):
    season(tmp_path)
    out = io.StringIO()
    call_command("import_results", str(tmp_path), "--organiser", "olga", "--formula", "standard", stdout=out)
    assert list(Tournament.objects.order_by("start_date").values_list("name", "start_date")) == [
        ("Torneo di primavera", date_in_name("2019-03-12")), ("Torneo d'estate", date_in_name("15.06.2019"))]
    assert Player.objects.count() == 8          # the second file's players are the first's
    assert len(out.getvalue().splitlines()) == 2


def test_a_zip_imports_as_the_folder_does(organiser, tmp_path):
    files = season(tmp_path / "unpacked")
    (tmp_path / "stagione.zip").write_bytes(zipped({name: data for name, data in files.items()}))
    call_command("import_results", str(tmp_path / "stagione.zip"), "--organiser", "olga", "--formula", "standard",
                 "--name", "Stagione 2019")
    assert sorted(Tournament.objects.values_list("name", flat=True)) == [
        "Stagione 2019 · Torneo d'estate", "Stagione 2019 · Torneo di primavera"]


def test_one_bad_file_leaves_the_whole_season_out(organiser, tmp_path):
    rounds = season_rounds()
    rounds[0][0][0]["points"] = "tanti"
    season(tmp_path, {"2019-09-01 autunno.xlsx": xlsx(club_rows(rounds))})
    with pytest.raises(CommandError) as caught:
        call_command("import_results", str(tmp_path), "--organiser", "olga", "--formula", "standard")
    assert str(caught.value).startswith("2019-09-01 autunno.xlsx: ") and caught.value.returncode == 2
    assert not Tournament.objects.exists() and not Player.objects.exists()


def test_a_file_without_a_date_needs_one(organiser, tmp_path):
    (tmp_path / "senza data.xlsx").write_bytes(xlsx(club_rows(season_rounds())))
    (tmp_path / "2019-01-01 con data.xlsx").write_bytes(xlsx(club_rows(season_rounds())))
    with pytest.raises(CommandError) as caught:
        call_command("import_results", str(tmp_path), "--organiser", "olga", "--formula", "standard")
    assert str(caught.value).startswith("senza data.xlsx") and not Tournament.objects.exists()
    call_command("import_results", str(tmp_path), "--organiser", "olga", "--formula", "standard", "--date",
                 "2018-12-01")
    assert sorted(Tournament.objects.values_list("start_date", flat=True)) == [
        date_in_name("2018-12-01"), date_in_name("2019-01-01")]


def test_file_names_give_names_and_dates():
    assert name_from_file("2019-03-12_Torneo_di_primavera.xlsx") == "Torneo di primavera"
    assert date_in_name("Serata 12-03-2019.ods").isoformat() == "2019-03-12"
    assert date_in_name("torneo 20190312.xls").isoformat() == "2019-03-12"
    assert date_in_name("Turno 31-02-2019.xls") is None


def test_imported_tournaments_are_ready_for_a_circuit(organiser, tmp_path, client):
    season(tmp_path)
    call_command("import_results", str(tmp_path), "--organiser", "olga", "--formula", "standard", "--published")
    circuit = services.circuit_create(user=organiser, data={
        "name": "Stagione 2019", "season": "2019", "rule": Circuit.Rule.TABLE, "points_table": "10, 8, 6, 4, 2",
        "participation": 1, "best_of": None, "min_tournaments": 1})
    for t in Tournament.objects.all():
        services.circuit_tournament_add(user=organiser, circuit=circuit, tournament=t, weight=1)
    data = client.get(reverse("public:circuit_json", args=[circuit.pk])).json()
    assert [t["final"] for t in data["tournaments"]] == [True, True]
    assert len(data["standings"]) == 8


def test_the_demo_shows_a_circuit_of_imported_tournaments(db, client):
    out = io.StringIO()
    call_command("load_demo", stdout=out)
    call_command("load_demo", stdout=io.StringIO())   # idempotent
    circuit = Circuit.objects.get(name="Stagione passata da Excel (demo)")
    tournaments = [entry.tournament for entry in circuit.entries.select_related("tournament")]
    assert len(tournaments) == 2 and all(t.audit_entries.filter(action="tournament.import_workbook").exists()
                                         for t in tournaments)
    data = client.get(reverse("public:circuit_json", args=[circuit.pk])).json()
    assert [t["participants"] for t in data["tournaments"]] == [12, 12]
    assert len(data["standings"]) == 20
