"""Millesimi points are shown with 3 decimals wherever points are shown (SCORING.md 13.4: pages, JSON,
CSV, print, the big screen, the widget, the workbook); every other formula keeps 2. Table points keep
their own."""
import csv
from decimal import Decimal
import io

import openpyxl
import pytest
from django.urls import reverse

from tables.arbitration.services import penalty_give
from tables.rounds import services
from tests.factories import PlayerFactory, RegistrationFactory, TournamentFactory, report, seat_round
from tests.html import one, select, text, texts

NAMES = [("Carlo", "Bari"), ("Anna", "Rossi"), ("Bruno", "Verdi"), ("Dario", "Neri"),
         ("Elena", "Galli"), ("Franco", "Conti"), ("Gina", "Greco"), ("Ugo", "Fabbri"), ("Vera", "Costa")]


def _played(tournament, organiser, formula):
    """Two rounds, a table of 4 and one of 5, closed and published. Under millesimi: Carlo wins with 50
    (1.050), then is 2nd with 41 (0.041): 1.091 (the BAR example); Franco is 2nd with 21 at the table of
    5 (0.02625: 0.027); Elena wins there with 83 (capped: 1.100); Dario is eliminated twice (0.000);
    Anna takes a penalty of 0.05."""
    tournament.formula = formula
    tournament.save()
    regs = {last: RegistrationFactory(tournament=tournament, player=PlayerFactory(first_name=first, last_name=last))
            for first, last in NAMES}
    four = [regs[n] for n in ("Bari", "Rossi", "Verdi", "Neri")]
    five = [regs[n] for n in ("Galli", "Conti", "Greco", "Fabbri", "Costa")]
    first = seat_round(tournament, [four, five])
    report(first.tables.get(number=1), [(50,), (30,), (15,), (0, 1)])
    report(first.tables.get(number=2), [(83,), (21,), (10,), (5,), (0, 1)])
    second = seat_round(tournament, [[regs["Rossi"], regs["Bari"], regs["Verdi"], regs["Neri"]], five])
    report(second.tables.get(number=1), [(60,), (41,), (20,), (0, 1)])
    report(second.tables.get(number=2), [(40,), (30,), (20,), (10,), (0, 1)])
    penalty_give(user=organiser, tournament=tournament, reason="ritardo", points=Decimal("0.05"),
                 registration=regs["Rossi"])
    for rnd in (first, second):
        services.round_close(user=organiser, rnd=rnd)
        services.standings_publish(user=organiser, rnd=rnd)
    return regs


@pytest.fixture
def millesimi(organiser):
    tournament = TournamentFactory(organiser=organiser, name="Master di prova")
    return tournament, _played(tournament, organiser, "millesimi")


@pytest.fixture
def conversione(organiser):
    tournament = TournamentFactory(organiser=organiser, name="Open di prova")
    return tournament, _played(tournament, organiser, "conversione150")


# (total, round 1, round 2) of Carlo, Franco, Elena, Dario, in Italian
MILLESIMI_IT = {"Bari": ("1,091", "1,050", "0,041"), "Conti": ("0,065", "0,027", "0,038"),
                "Galli": ("2,150", "1,100", "1,050"), "Neri": ("0,000", "0,000", "0,000")}
CONVERSIONE_IT = {"Bari": ("231,20", "150,20", "81"), "Conti": ("180", "90", "90"),
                  "Galli": ("300,72", "150,62", "150,10"), "Neri": ("20", "10", "10")}


@pytest.fixture(autouse=True)
def italian(client):
    """The site's own language; the tests of English ask for it."""
    client.cookies["django_language"] = "it"


def _english(expected):
    return {k: tuple(v.replace(",", ".") for v in values) for k, values in expected.items()}


def _standings_cells(page, regs):
    return {name: (text(one(page, f"tr[data-reg='{regs[name].pk}'] td.total")),
                   *texts(page, f"tr[data-reg='{regs[name].pk}'] td.round-col")) for name in MILLESIMI_IT}


@pytest.mark.parametrize("lang", ["it", "en"])
@pytest.mark.parametrize("fixture, expected", [("millesimi", MILLESIMI_IT), ("conversione", CONVERSIONE_IT)])
def test_standings_page_shows_the_formulas_decimals(client, request, fixture, expected, lang):
    tournament, regs = request.getfixturevalue(fixture)
    client.cookies["django_language"] = lang
    page = client.get(reverse("public:standings", args=[tournament.pk]))
    assert _standings_cells(page, regs) == (expected if lang == "it" else _english(expected))


@pytest.mark.parametrize("fixture, expected", [("millesimi", MILLESIMI_IT), ("conversione", CONVERSIONE_IT)])
def test_print_page_shows_the_formulas_decimals(client, request, fixture, expected):
    tournament, regs = request.getfixturevalue(fixture)
    page = client.get(reverse("public:standings_print", args=[tournament.pk]))
    # rank, player, club, total, round 1, round 2, wins
    assert {name: tuple(texts(page, f"tr[data-reg='{regs[name].pk}'] td")[3:6]) for name in expected} == expected


@pytest.mark.parametrize("lang", ["it", "en"])
def test_player_page_shows_total_games_and_penalties_in_thousandths(client, millesimi, lang):
    tournament, regs = millesimi
    client.cookies["django_language"] = lang
    page = client.get(reverse("public:player", args=[tournament.pk, regs["Bari"].pk]))
    sep = "," if lang == "it" else "."
    assert text(select(page, "ul.stats strong")[1]) == f"1{sep}091"
    assert texts(page, "span.points") == [f"1{sep}050", f"0{sep}041"]
    page = client.get(reverse("public:player", args=[tournament.pk, regs["Rossi"].pk]))
    assert text(select(page, "ul.stats strong")[1]) == f"1{sep}040"   # 0.030 + 1.060 - 0.050
    assert text(one(page, "li[data-penalty]")).split(" · ")[1] == f"−0{sep}050"
    # table points are no millesimi
    assert texts(page, "p.muted")[-2:] == [f"Table points: {t}" if lang == "en" else f"Punti tavolo: {t}"
                                          for t in ("30", "60")]


def test_player_page_of_another_formula_keeps_2_decimals(client, conversione):
    tournament, regs = conversione
    page = client.get(reverse("public:player", args=[tournament.pk, regs["Rossi"].pk]))
    assert text(one(page, "li[data-penalty]")).split(" · ")[1] == "−0,05"
    page = client.get(reverse("public:player", args=[tournament.pk, regs["Bari"].pk]))
    assert (text(select(page, "ul.stats strong")[1]), texts(page, "span.points")) == ("231,20", ["150,20", "81"])


def test_standings_json_rounds_to_3_decimals_and_says_so(client, millesimi):
    tournament, regs = millesimi
    data = client.get(reverse("public:standings_json", args=[tournament.pk])).json()
    rows = {r["player"]: (r["total"], r["rounds"]) for r in data["rows"]}
    assert data["decimals"] == 3
    assert rows["Carlo Bari"] == (1.091, [1.05, 0.041]) and rows["Franco Conti"] == (0.065, [0.027, 0.038])
    assert client.get(reverse("public:player_json", args=[tournament.pk, regs["Bari"].pk])).json()["total"] == 1.091


def test_standings_json_of_another_formula_keeps_2_decimals(client, conversione):
    tournament, regs = conversione
    data = client.get(reverse("public:standings_json", args=[tournament.pk])).json()
    rows = {r["player"]: (r["total"], r["rounds"]) for r in data["rows"]}
    assert data["decimals"] == 2
    assert rows["Carlo Bari"] == (231.2, [150.2, 81.0]) and rows["Elena Galli"] == (300.72, [150.62, 150.1])


def _csv(client, tournament, fmt):
    response = client.get(reverse("manage:standings_csv", args=[tournament.pk]), {"format": fmt})
    body = response.content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(body), delimiter=";" if fmt == "excel-it" else ","))
    return {row[1]: (row[3], row[5], row[6]) for row in rows[1:]}   # total, round 1, round 2


@pytest.mark.parametrize("fixture, carlo, franco", [
    ("millesimi", ("1,091", "1,050", "0,041"), ("0,065", "0,027", "0,038")),
    ("conversione", ("231,20", "150,20", "81,00"), ("180,00", "90,00", "90,00"))])
def test_csv_writes_the_formulas_decimals(client, organiser, request, fixture, carlo, franco):
    tournament, _regs = request.getfixturevalue(fixture)
    client.force_login(organiser)
    italian, plain = _csv(client, tournament, "excel-it"), _csv(client, tournament, "csv")
    assert (italian["Carlo Bari"], italian["Franco Conti"]) == (carlo, franco)
    assert plain["Carlo Bari"] == tuple(v.replace(",", ".") for v in carlo)


@pytest.mark.parametrize("fixture, carlo, elena", [("millesimi", "1,091", "2,150"),
                                                   ("conversione", "231,20", "300,72")])
def test_big_screen_and_widget_show_the_formulas_decimals(client, request, fixture, carlo, elena):
    tournament, _regs = request.getfixturevalue(fixture)
    data = client.get(reverse("public:screen_data", args=[tournament.pk])).json()
    assert {r["name"]: r["total"] for r in data["standings"]}["Carlo Bari"] == carlo
    page = client.get(reverse("public:standings_widget", args=[tournament.pk]))
    totals = {text(tr.a): text(tr.select("td")[-1]) for tr in select(page, "tbody tr")}
    assert (totals["Carlo Bari"], totals["Elena Galli"]) == (carlo, elena)


def test_side_by_side_shows_each_formula_with_its_own_decimals(client, organiser, conversione):
    tournament, _regs = conversione
    client.force_login(organiser)
    response = client.get(reverse("manage:formulas_compared", args=[tournament.pk]))
    keys = [f"{'preset' if c.preset else 'formula'}:{c.key}" for c in response.context["columns"]]
    titles = {text(tr.th): [td["title"] for td in tr.select("td")] for tr in select(response, "tbody tr")}
    assert titles["Carlo Bari"][keys.index("formula:millesimi")] == "1,091"
    assert titles["Carlo Bari"][keys.index("formula:conversione150")] == "231,20"
    assert titles["Carlo Bari"][keys.index("preset:master")] == "1,091"   # the Master's rule: millesimi too


def test_the_millesimi_help_page_shows_its_examples_in_thousandths(client, db):
    client.cookies["django_language"] = "en"
    page = client.get(reverse("public:formula", args=["millesimi"]))
    points = texts(page, "section.example td.num strong")
    assert "1.050" in points and "0.041" in points and "0.027" in points
    assert all(len(p.split(".")[-1]) == 3 for p in points)   # every one with its 3 decimals
    assert "150.14" in texts(client.get(reverse("public:formula", args=["conversione150"])),
                             "section.example td.num strong")


def test_the_workbooks_standings_keep_3_decimals(client, organiser, millesimi, conversione):
    for (tournament, _regs), number_format in ((millesimi, "0.000"), (conversione, "General")):
        client.force_login(organiser)
        book = openpyxl.load_workbook(io.BytesIO(
            client.get(reverse("manage:tournament_workbook", args=[tournament.pk])).content))
        sheet = book["Classifica"]
        carlo = next(row for row in sheet.iter_rows(min_row=2) if row[2].value == "Bari")
        assert {c.number_format for c in carlo[4:7]} == {number_format}
        assert [c.value for c in carlo[4:7]] == ([1.091, 1.05, 0.041] if number_format == "0.000"
                                                  else [231.2, 150.2, 81])


@pytest.mark.parametrize("fixture, shown", [("millesimi", "−0,050"), ("conversione", "−0,05")])
def test_the_arbiters_penalty_list_shows_points_in_the_formulas_decimals(client, organiser, request, fixture, shown):
    tournament, _regs = request.getfixturevalue(fixture)
    client.force_login(organiser)
    page = client.get(reverse("arbiter:penalties", args=[tournament.pk]))
    assert text(one(page, "li[data-penalty] span.badge")).split(" ")[-1] == shown


def test_a_players_history_shows_each_tournament_in_its_own_decimals(client, millesimi, conversione):
    """Carlo of the Master: 1,091; Carlo of the Open: 231,20 (SCORING.md 13.4)."""
    for (tournament, regs), total in ((millesimi, "1,091"), (conversione, "231,20")):
        page = client.get(reverse("public:player_history", args=[regs["Bari"].player.pk]))
        assert {row["data-tournament"]: text(row.select("td")[-1]) for row in select(page, "tr[data-tournament]")} == {
            str(tournament.pk): total}
