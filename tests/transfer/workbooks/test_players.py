"""Players matched, never duplicated: a national ID first, then the one matching of a name
(`match_person`: case, accents and spacing aside, among the players the organiser may see); several
known players by a name are asked about, never guessed."""
import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import IntegrityError, transaction

from tests.factories import ClubFactory, PlayerFactory, RegistrationFactory, TournamentFactory
from tests.html import tr
from tests.transfer.workbooks.books import club_rows, gestione_sheets, season_rounds, xlsx
from transfer.workbooks.services import past_tournament_import, past_tournament_read
from tournaments.models import Club, Player, Tournament


def run(tmp_path, data, name="x.xlsx"):
    path = tmp_path / name
    path.write_bytes(data)
    call_command("import_results", str(path), "--organiser", "olga", "--date", "2019-10-12", "--formula", "standard")
    return Tournament.objects.latest("pk")


def players_of(tournament):
    return {r.player.full_name: r.player for r in tournament.registrations.select_related("player")}


def test_known_players_are_matched_by_name_and_club_accents_and_case_aside(organiser, tmp_path):
    lariano = ClubFactory(name="Club Lariano", created_by=organiser)
    marco = PlayerFactory(first_name="Marco", last_name="Rossi", club=lariano, created_by=organiser)
    elena = PlayerFactory(first_name="Élena", last_name="GALLO", club=lariano, created_by=organiser)
    before = Player.objects.count()
    tournament = run(tmp_path, xlsx(club_rows(season_rounds())))
    players = {r.player_id for r in tournament.registrations.all()}
    assert {marco.pk, elena.pk} <= players
    assert Player.objects.count() == before + 6
    # the clubs named are found or made once
    assert Club.objects.filter(name__in=["Club Lariano", "Carri Milano", "I Maialini"]).count() == 3


def test_a_second_import_of_the_same_people_creates_nobody(organiser, tmp_path):
    run(tmp_path, xlsx(club_rows(season_rounds())), "a.xlsx")
    count = Player.objects.count()
    second = run(tmp_path, xlsx(gestione_sheets(season_rounds())), "b.xlsx")
    assert Player.objects.count() == count and second.registrations.count() == 8


def test_a_name_written_surname_first_finds_the_known_player(organiser, tmp_path):
    lariano = ClubFactory(name="Club Lariano", created_by=organiser)
    marco = PlayerFactory(first_name="Marco", last_name="Rossi", club=lariano, created_by=organiser)
    rounds = season_rounds()
    for tables in rounds:
        for table in tables:
            for s in table:
                if s["name"] == "Marco Rossi":
                    s["name"] = "Rossi Marco"
    tournament = run(tmp_path, xlsx(club_rows(rounds)))
    assert marco.pk in {r.player_id for r in tournament.registrations.all()}


def test_a_national_id_matches_before_the_name_and_is_kept_on_the_player(organiser, tmp_path):
    lariano = ClubFactory(name="Club Lariano", created_by=organiser)
    # Known under another spelling: the ID says it is them.
    marco = PlayerFactory(first_name="Marco Antonio", last_name="Rossi", club=lariano, national_id="IT-0042",
                          created_by=organiser)
    luca = PlayerFactory(first_name="Luca", last_name="Ferrari", club=lariano, created_by=organiser)
    ids = {"Marco Rossi": "IT-0042", "Luca Ferrari": "IT-0077", "Sara Romano": "IT-0099"}
    tournament = run(tmp_path, xlsx(gestione_sheets(season_rounds(), national_ids=ids)))
    players = players_of(tournament)
    assert players["Marco Antonio Rossi"].pk == marco.pk
    luca.refresh_from_db()
    assert luca.national_id == "IT-0077" and players["Luca Ferrari"].pk == luca.pk
    assert players["Sara Romano"].national_id == "IT-0099"


def test_someone_known_by_another_national_id_is_refused_at_the_members_row(organiser, tmp_path):
    lariano = ClubFactory(name="Club Lariano", created_by=organiser)
    other = PlayerFactory(first_name="Luca", last_name="Ferrari", club=lariano, national_id="IT-1",
                          created_by=organiser)
    path = tmp_path / "x.xlsx"
    path.write_bytes(xlsx(gestione_sheets(season_rounds(), national_ids={"Luca Ferrari": "IT-2"})))
    with pytest.raises(CommandError) as caught:
        call_command("import_results", str(path), "--organiser", "olga", "--date", "2019-10-12", "--formula", "standard")
    assert str(caught.value) == "x.xlsx: " + tr("sheet “%(sheet)s”, row %(row)d, column %(column)s", sheet="Iscritti",
                                                row=4, column="C (Cognome)") + ": " + tr(
        "%(player)s is known with the national ID %(known)s, not %(id)s", player=f"{other.full_name}, Club Lariano",
        known="IT-1", id="IT-2")


def test_another_organisers_player_known_by_another_national_id_is_refused_without_showing_it(
        organiser, other_organiser, tmp_path):
    lariano = ClubFactory(name="Club Lariano", created_by=other_organiser)
    other = PlayerFactory(first_name="Luca", last_name="Ferrari", club=lariano, national_id="IT-SECRET-1",
                          created_by=other_organiser)
    RegistrationFactory(tournament=TournamentFactory(organiser=other_organiser, published=True), player=other)
    path = tmp_path / "x.xlsx"
    path.write_bytes(xlsx(gestione_sheets(season_rounds(), national_ids={"Luca Ferrari": "IT-2"})))
    with pytest.raises(CommandError) as caught:
        call_command("import_results", str(path), "--organiser", "olga", "--date", "2019-10-12", "--formula", "standard")
    assert str(caught.value) == "x.xlsx: " + tr("sheet “%(sheet)s”, row %(row)d, column %(column)s", sheet="Iscritti",
                                                row=4, column="C (Cognome)") + ": " + tr(
        "%(player)s is known with another national ID, not %(id)s", player=f"{other.full_name}, Club Lariano",
        id="IT-2")
    assert "IT-SECRET-1" not in str(caught.value)


def test_a_national_id_is_unique_when_set(organiser):
    PlayerFactory(national_id="IT-5")
    PlayerFactory(national_id="")
    PlayerFactory(national_id="")
    with pytest.raises(IntegrityError), transaction.atomic():
        PlayerFactory(national_id="IT-5")


def test_several_known_players_by_a_name_stop_the_command_at_the_persons_cell(organiser, tmp_path):
    for club in ("Club A", "Club B"):
        PlayerFactory(first_name="Chiara", last_name="Ricci", club=ClubFactory(name=club), created_by=organiser)
    path = tmp_path / "x.xlsx"
    path.write_bytes(xlsx(club_rows(season_rounds())))       # Chiara Ricci has no club in the file
    with pytest.raises(CommandError) as caught:
        call_command("import_results", str(path), "--organiser", "olga", "--date", "2019-10-12", "--formula", "standard")
    assert str(caught.value) == "x.xlsx: " + tr("sheet “%(sheet)s”, row %(row)d, column %(column)s", sheet="Turno 1",
                                                row=7, column="B (Giocatore)") + ": " + tr(
        "several known players are called %(name)s (%(clubs)s): add the club, or import from the page to choose",
        name="Chiara Ricci", clubs="Club A, Club B")
    assert not Tournament.objects.exists()


def test_new_players_still_asks_which_of_two_known_at_the_same_club(organiser, tmp_path):
    """--new-players answers "someone else" to a near miss or a name known at another club, never to a
    name known twice at the person's own club: that is still asked, and no third record is made."""
    club = ClubFactory(name="Carri Milano")
    for _ in range(2):
        PlayerFactory(first_name="Giulia", last_name="Bianchi", club=club, created_by=organiser)
    path = tmp_path / "x.xlsx"
    path.write_bytes(xlsx(club_rows(season_rounds())))       # "Giulia Bianchi, Carri Milano"
    with pytest.raises(CommandError) as caught:
        call_command("import_results", str(path), "--organiser", "olga", "--date", "2019-10-12",
                     "--formula", "standard", "--new-players")
    assert str(caught.value) == "x.xlsx: " + tr("sheet “%(sheet)s”, row %(row)d, column %(column)s", sheet="Turno 1",
                                                row=3, column="B (Giocatore)") + ": " + tr(
        "several known players are called %(name)s (%(clubs)s): add the club, or import from the page to choose",
        name="Giulia Bianchi", clubs="Carri Milano, Carri Milano")
    assert Player.objects.filter(first_name="Giulia", last_name="Bianchi").count() == 2
    assert not Tournament.objects.exists()


def test_the_organisers_pick_says_which_namesake_it_is(organiser):
    known = [PlayerFactory(first_name="Chiara", last_name="Ricci", club=ClubFactory(name=c), created_by=organiser)
             for c in ("Club A", "Club B")]
    past = past_tournament_read(data=xlsx(club_rows(season_rounds())), filename="x.xlsx")
    key = next(k for k, p in past.people.items() if p.full_name == "Chiara Ricci")
    done = past_tournament_import(user=organiser, past=past, name="T", start_date="2019-10-12",
                                  settings={"formula": "standard"}, picks={key: str(known[1].pk)})
    assert players_of(done.tournament)["Chiara Ricci"].pk == known[1].pk
    past = past_tournament_read(data=xlsx(club_rows(season_rounds())), filename="x.xlsx")
    done = past_tournament_import(user=organiser, past=past, name="T2", start_date="2019-10-12",
                                  settings={"formula": "standard"}, picks={key: "new"})
    assert players_of(done.tournament)["Chiara Ricci"].pk not in {p.pk for p in known}


def test_another_clubs_player_the_organiser_cannot_see_is_never_taken_nor_doubled(organiser, other_organiser,
                                                                                  tmp_path):
    PlayerFactory(first_name="Marco", last_name="Rossi", club=ClubFactory(name="Club Lariano"),
                  created_by=other_organiser)
    path = tmp_path / "x.xlsx"
    path.write_bytes(xlsx(club_rows(season_rounds())))
    with pytest.raises(CommandError) as caught:
        call_command("import_results", str(path), "--organiser", "olga", "--date", "2019-10-12", "--formula", "standard")
    assert str(caught.value) == "x.xlsx: " + tr("sheet “%(sheet)s”, row %(row)d, column %(column)s", sheet="Turno 1",
                                                row=2, column="B (Giocatore)") + ": " + tr(
        "A player with this name and club already exists: %(player)s.", player="Marco Rossi")
    assert Player.objects.filter(last_name="Rossi").count() == 1


# --- one person, even with a typo -------------------------------------------------------------------

def known_giulia(organiser):
    return PlayerFactory(first_name="Giulia", last_name="Bianchi", club=ClubFactory(name="Carri Milano"),
                         created_by=organiser)


def with_name(rounds, old, new, club=None):
    for tables in rounds:
        for table in tables:
            for s in table:
                if s["name"] == old:
                    s["name"] = new
                    if club is not None:
                        s["club"] = club
    return rounds


def test_a_one_letter_typo_is_refused_at_its_cell_with_the_suggestion(organiser, tmp_path):
    giulia = known_giulia(organiser)
    path = tmp_path / "x.xlsx"
    path.write_bytes(xlsx(club_rows(with_name(season_rounds(), "Giulia Bianchi", "Giulia Bianci"))))
    with pytest.raises(CommandError) as refused:
        call_command("import_results", str(path), "--organiser", "olga", "--date", "2019-10-12",
                     "--formula", "standard")
    assert str(refused.value) == "x.xlsx: " + tr(
        "sheet “%(sheet)s”, row %(row)d, column %(column)s", sheet="Turno 1", row=3, column="B (Giocatore)") + \
        ": " + tr("did you mean %(players)s? Correct the name, import from the page to answer, or give "
                  "--new-players if %(name)s is someone new", players="Giulia Bianchi, Carri Milano",
                  name="Giulia Bianci")
    assert not Tournament.objects.exists()
    call_command("import_results", str(path), "--organiser", "olga", "--date", "2019-10-12",
                 "--formula", "standard", "--new-players")
    assert Player.objects.filter(last_name="Bianci").count() == 1 and giulia.registrations.count() == 0


def test_the_club_written_differently_is_the_same_person_once_answered(organiser, tmp_path):
    giulia = known_giulia(organiser)
    past = past_tournament_read(data=xlsx(club_rows(with_name(season_rounds(), "Giulia Bianchi", "Giulia Bianchi",
                                                              club="Carri"))), filename="x.xlsx")
    key = next(k for k, p in past.people.items() if p.last_name == "Bianchi")
    tournament = past_tournament_import(user=organiser, past=past, name="X", start_date="2019-10-12",
                                        settings={"formula": "standard"}, picks={key: str(giulia.pk)}).tournament
    assert giulia.pk in {r.player_id for r in tournament.registrations.all()}
    assert Player.objects.filter(last_name="Bianchi").count() == 1


@pytest.mark.parametrize("written", ["ROSSI Mario", "MARCO ROSSI", "Marco Rossi (Supermario)", "marco rossi"])
def test_names_in_capitals_surname_first_or_with_a_nickname_are_one_person(written, organiser, tmp_path):
    expected = "Mario Rossi" if "Mario" in written else "Marco Rossi"
    rounds = with_name(season_rounds(), "Marco Rossi", written)
    tournament = run(tmp_path, xlsx(club_rows(rounds)))
    names = set(players_of(tournament))
    assert expected in names and len(names) == 8
    if "Supermario" in written:
        assert players_of(tournament)["Marco Rossi"].nickname == "Supermario"


def test_a_nickname_in_brackets_does_not_make_a_second_person(organiser, tmp_path):
    rounds = season_rounds()
    rounds[1][0][0]["name"] = "Marco Rossi (Supermario)"       # round 2 only
    tournament = run(tmp_path, xlsx(club_rows(rounds)))
    assert tournament.registrations.count() == 8
    assert players_of(tournament)["Marco Rossi"].nickname == "Supermario"


def test_one_person_written_two_ways_in_one_file_is_asked_about(organiser, tmp_path):
    """"Giulia Bianchi" in round 1 and "Giulia Bianci" in round 2, nobody known: one person written two
    ways, not two people — the preview says so, the command stops at the cell unless --new-players."""
    rounds = season_rounds()
    rounds[1][1][0]["name"] = "Giulia Bianci"
    past = past_tournament_read(data=xlsx(club_rows(rounds)), filename="x.xlsx")
    from transfer.workbooks.checks import match_people
    match_people(past, viewer=organiser, ask=True)
    assert past.errors == [] and any("Giulia Bianci" in note for note in past.notes)
    path = tmp_path / "x.xlsx"
    path.write_bytes(xlsx(club_rows(rounds)))
    with pytest.raises(CommandError) as refused:
        call_command("import_results", str(path), "--organiser", "olga", "--date", "2019-10-12",
                     "--formula", "standard")
    assert str(refused.value).startswith("x.xlsx: " + tr("sheet “%(sheet)s”, row %(row)d, column %(column)s",
                                                         sheet="Turno 2", row=6, column="B (Giocatore)"))
    call_command("import_results", str(path), "--organiser", "olga", "--date", "2019-10-12",
                 "--formula", "standard", "--new-players")
    assert Tournament.objects.get().registrations.count() == 9


def test_two_people_named_alike_at_one_round_are_two_people(organiser, tmp_path):
    rounds = season_rounds()
    rounds[0][1][0]["name"] = "Giulia Bianci"      # round 1, beside Giulia Bianchi's round
    tournament = run(tmp_path, xlsx(club_rows(rounds)))
    assert tournament.registrations.count() == 9
