"""What the standings pages show: medal counts (medagliere), wins (vittorie, triestino) and the
order of rows sharing a rank (SCORING.md 4.5, 4.6, 4.12, section 6 and 9)."""
import csv
import io

import pytest
from django.urls import reverse

import scoring
from tables.rounds import services
from tables.engine import params_for
from tables.standings.selectors import tournament_games
from tests.factories import RegistrationFactory, report, seat_round
from tests.html import one, select, text, texts, tr


def _publish(rnd, user):
    services.round_close(user=user, rnd=rnd)
    services.standings_publish(user=user, rnd=rnd)


@pytest.fixture
def medal_tournament(tournament, organiser):
    """Medagliere, 2 rounds of one table of 4: Rossi wins twice, Bianchi is 2nd then 3rd..."""
    tournament.formula = "medagliere"
    tournament.save()
    regs = [RegistrationFactory(tournament=tournament, player__first_name=f, player__last_name=l)
            for f, l in [("Anna", "Rossi"), ("Bruno", "Bianchi"), ("Carla", "Verdi"), ("Dario", "Neri")]]
    r1 = seat_round(tournament, [regs])
    report(r1.tables.get(), [(60,), (40,), (30,), (10,)])
    _publish(r1, organiser)
    r2 = seat_round(tournament, [regs])
    report(r2.tables.get(), [(60,), (20,), (40,), (10,)])
    _publish(r2, organiser)
    return tournament, regs


def test_medagliere_standings_page_shows_the_counts_of_1st_to_5th_places(medal_tournament, client):
    tournament, regs = medal_tournament
    page = client.get(reverse("public:standings", args=[tournament.pk]))
    assert texts(page, "table.standings th.medal-col") == ["1°", "2°", "3°", "4°", "5°"]
    assert len(select(page, "table.standings td.medal-col")) == 5 * 4  # 5 counts per player
    assert texts(page, f"tr[data-reg='{regs[0].pk}'] td.medal-col") == ["2", "0", "0", "0", "0"]   # Anna Rossi
    assert texts(page, f"tr[data-reg='{regs[1].pk}'] td.medal-col") == ["0", "1", "1", "0", "0"]   # Bruno Bianchi


def test_medagliere_json_csv_print_and_player_page_carry_the_medals(medal_tournament, client, organiser):
    tournament, regs = medal_tournament
    data = client.get(reverse("public:standings_json", args=[tournament.pk])).json()["rows"]
    assert [(r["player"], r["medals"]) for r in data] == [
        ("Anna Rossi", [2, 0, 0, 0, 0]), ("Carla Verdi", [0, 1, 1, 0, 0]),
        ("Bruno Bianchi", [0, 1, 1, 0, 0]), ("Dario Neri", [0, 0, 0, 2, 0])]
    assert "wins" not in data[0]
    printed = client.get(reverse("public:standings_print", args=[tournament.pk]))
    assert texts(printed, "thead th")[4:9] == ["1°", "2°", "3°", "4°", "5°"]    # after #, player, club, total
    assert texts(printed, f"tr[data-reg='{regs[0].pk}'] td")[4:9] == ["2", "0", "0", "0", "0"]
    page = client.get(reverse("public:player", args=[tournament.pk, regs[1].pk]))
    counts = select(page, "li.medal-count")
    assert {li["data-place"]: text(li.strong) for li in counts} == {"1": "0", "2": "1", "3": "1", "4": "0", "5": "0"}
    assert text(counts[1]) == "1 " + tr("%(n)s° places", n=2)
    client.force_login(organiser)
    exported = client.get(reverse("manage:standings_csv", args=[tournament.pk])).content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(exported)))
    assert rows[0][:10] == [tr(w) for w in ("Rank", "Player", "Club", "Total", "Wins")] + [
        tr("%(n)s° places", n=n) for n in range(1, 6)]
    assert rows[1][1] == "Anna Rossi" and rows[1][5:10] == ["2", "0", "0", "0", "0"]


@pytest.mark.parametrize("formula", ["vittorie", "triestino"])
def test_wins_formulas_show_wins_in_the_json(tournament, organiser, client, formula):
    tournament.formula = formula
    tournament.save()
    regs = [RegistrationFactory(tournament=tournament) for _ in range(4)]
    rnd = seat_round(tournament, [regs])
    report(rnd.tables.get(), [(60,), (40,), (30,), (10,)])
    _publish(rnd, organiser)
    data = client.get(reverse("public:standings_json", args=[tournament.pk])).json()["rows"]
    assert [r["wins"] for r in data] == [1, 0, 0, 0]
    assert "medals" not in data[0]


def test_tied_rows_are_listed_by_name_in_the_app_and_by_id_in_the_contract(tournament, organiser, client):
    """Zanetti registers first (lower id) and ties with Abate: the pages list Abate first."""
    names = ["Zanetti", "Moro", "Lodi", "Conti", "Abate", "Bassi", "Corti", "Dini"]
    regs = [RegistrationFactory(tournament=tournament, player__first_name="X", player__last_name=n) for n in names]
    rnd = seat_round(tournament, [regs[:4], regs[4:]])
    for table in rnd.tables.order_by("number"):
        report(table, [(60,), (40,), (30,), (10,)])
    _publish(rnd, organiser)
    data = client.get(reverse("public:standings_json", args=[tournament.pk])).json()["rows"]
    assert [(r["rank"], r["player"]) for r in data] == [
        (1, "X Abate"), (1, "X Zanetti"), (3, "X Bassi"), (3, "X Moro"),
        (5, "X Corti"), (5, "X Lodi"), (7, "X Conti"), (7, "X Dini")]
    page = client.get(reverse("public:standings", args=[tournament.pk]))
    shown = [int(pk) for pk in (row["data-reg"] for row in select(page, "table.standings tr[data-reg]"))]
    assert shown[:4] == [regs[4].pk, regs[0].pk, regs[5].pk, regs[1].pk]  # Abate, Zanetti, Bassi, Moro
    # The machine contract keeps the player id order of SCORING.md section 9.
    games, _totals = tournament_games(tournament)
    result = scoring.score_tournament(tournament.formula, params_for(tournament), games)
    assert [int(r.player) for r in result.standings[:2]] == [regs[0].pk, regs[4].pk]


def test_a_row_links_the_players_page_and_shows_names_and_clubs_as_text_never_as_markup(tournament, organiser, client):
    regs = [RegistrationFactory(tournament=tournament, player__first_name=f, player__last_name=l,
                                player__club__name=c)
            for f, l, c in [("<b>Anna</b>", "Rossi", "A&B <i>club</i>"), ("Bruno", "Bianchi", "Como"),
                            ("Carla", "Verdi", "Lecco"), ("Dario", "Neri", "Varese")]]
    rnd = seat_round(tournament, [regs])
    report(rnd.tables.get(), [(60,), (40,), (30,), (10,)])
    _publish(rnd, organiser)
    page = client.get(reverse("public:standings", args=[tournament.pk]))
    first = one(page, f"tr[data-reg='{regs[0].pk}']")
    link = first.find("a")
    assert link["href"] == reverse("public:player", args=[tournament.pk, regs[0].pk])
    assert text(link) == "<b>Anna</b> Rossi" and link.find("b") is None
    club = first.select_one("span.muted")
    assert text(club) == "A&B <i>club</i>" and club.find("i") is None
    assert [text(td) for td in first.find_all("td")][2:] == ["150.20", "150.20", "1"]  # total, round 1, wins
    assert [row["data-reg"] for row in select(page, "tr[data-reg]")] == [str(r.pk) for r in regs]


def test_a_tie_on_the_total_says_which_tie_break_decided_and_the_values(tournament, organiser, client):
    """Rossi and Bianchi both on 100 table points; Bianchi's best game (80) beats Rossi's (70)."""
    tournament.formula, tournament.tiebreak = "punti_tavolo", "best_results"
    tournament.save()
    regs = [RegistrationFactory(tournament=tournament, player__first_name="X", player__last_name=n)
            for n in ("Rossi", "Bianchi", "Verdi", "Neri")]
    for tps in ([(70,), (20,), (10,), (0,)], [(30,), (80,), (10,), (0,)]):
        rnd = seat_round(tournament, [regs])
        report(rnd.tables.get(), tps)
        _publish(rnd, organiser)
    words = tr("Same total as %(ahead)s: behind on %(criterion)s (%(theirs)s to %(mine)s)", ahead="X Bianchi",
               criterion=tr("Best single results").lower(), theirs="80", mine="70")
    for name in ("public:standings", "public:standings_print"):
        page = client.get(reverse(name, args=[tournament.pk]))
        notes = select(page, "[data-tie-break]")
        assert [(n["data-tie-break"], text(n)) for n in notes] == [("best_results", words)], name
        assert notes[0].find_parent("tr")["data-reg"] == str(regs[0].pk)


def test_the_tie_break_names_on_the_standings_are_those_of_the_settings_page():
    from tables.templatetags.torneo import TIE_BREAK_NAMES
    from tournaments.models import TieBreak
    assert {k: str(v) for k, v in TIE_BREAK_NAMES.items()} == {k: str(v) for k, v in TieBreak.choices}
