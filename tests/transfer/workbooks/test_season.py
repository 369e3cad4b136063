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


# --- what a season's folder also holds ------------------------------------------------------------------

def test_files_that_are_not_tournaments_are_skipped_with_a_line_each(organiser, tmp_path):
    season(tmp_path, {"Classifica stagione 2019.xlsx": xlsx({"Classifica": [["Pos.", "Giocatore", "Punti"],
                                                                            [1, "Marco Rossi", 300]]}),
                      "appunti.csv": "Note della stagione\nportare i dadi\n".encode()})
    out = io.StringIO()
    call_command("import_results", str(tmp_path), "--organiser", "olga", "--formula", "standard", stdout=out)
    lines = out.getvalue().splitlines()
    assert [line.split(":")[0] for line in lines if line.startswith("Skipped")] == [
        "Skipped Classifica stagione 2019.xlsx", "Skipped appunti.csv"]
    assert Tournament.objects.count() == 2


@pytest.mark.parametrize("name", ["12.03.19 serata.xlsx", "0000-01-01 torneo.xlsx", "torneo.xlsx", "\u202etorneo.xlsx"])
def test_a_season_file_without_a_date_is_one_line_never_a_traceback(name, organiser, tmp_path):
    (tmp_path / name).write_bytes(xlsx(club_rows(season_rounds())))
    (tmp_path / "2019-01-01 con data.xlsx").write_bytes(xlsx(club_rows(season_rounds())))
    with pytest.raises(CommandError) as caught:
        call_command("import_results", str(tmp_path), "--organiser", "olga", "--formula", "standard")
    assert caught.value.returncode == 2 and "\n" not in str(caught.value)
    assert str(caught.value).startswith(f"{name}: ")
    assert not Tournament.objects.exists()


def test_a_club_rule_gives_its_settings_como_reference_included(organiser, tmp_path):
    (tmp_path / "2019-03-12 gufo.xlsx").write_bytes(xlsx(club_rows(season_rounds())))
    call_command("import_results", str(tmp_path / "2019-03-12 gufo.xlsx"), "--organiser", "olga",
                 "--preset", "torneo_gufo")
    tournament = Tournament.objects.get()
    assert (tournament.formula, tournament.como_reference, tournament.standard_eliminated,
            tournament.club_preset) == ("standard", 4, "position", "torneo_gufo")


def test_an_unknown_club_rule_is_named(organiser, tmp_path):
    (tmp_path / "2019-03-12 gufo.xlsx").write_bytes(xlsx(club_rows(season_rounds())))
    with pytest.raises(CommandError) as caught:
        call_command("import_results", str(tmp_path), "--organiser", "olga", "--preset", "gufo")
    assert caught.value.returncode == 2 and str(caught.value).startswith("--preset gufo: ")


def test_an_import_sends_no_live_announcement(organiser, tmp_path, django_capture_on_commit_callbacks):
    """An import queues no snapshot job (which would render and announce its pages)."""
    from tables.live.snapshot import take_snapshot
    backend = take_snapshot.get_backend()
    backend.clear()
    (tmp_path / "2019-03-12 a.xlsx").write_bytes(xlsx(club_rows(season_rounds())))
    with django_capture_on_commit_callbacks(execute=True):
        call_command("import_results", str(tmp_path / "2019-03-12 a.xlsx"), "--organiser", "olga",
                     "--formula", "standard")
    tournament = Tournament.objects.get()
    assert backend.results == []
    # a change made afterwards is announced as ever
    from tournaments.services import tournament_save
    with django_capture_on_commit_callbacks(execute=True):
        tournament_save(user=organiser, tournament=tournament, data={"name": "Rinominato"})
    assert [result.args for result in backend.results] == [[tournament.pk]]
