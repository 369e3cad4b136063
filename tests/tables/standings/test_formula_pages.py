from decimal import Decimal

import pytest
from django.urls import reverse

from scoring.catalogue import CATALOGUE
from tests.factories import RegistrationFactory, report, seat_round
from tests.html import attr, one, parse, select, text, texts


@pytest.mark.parametrize("key", list(CATALOGUE))
def test_formula_help_page_states_rule_source_and_interpretations(client, key, db):
    info = CATALOGUE[key]
    page = client.get(reverse("public:formula", args=[key]))
    assert texts(page, "[data-sources] li")[0].startswith(f"{info.sources[0].rulebook} — ")
    assert "seeds/" not in text(parse(page)) and not select(page, "[href*='seeds/'], [src*='seeds/']")
    assert texts(page, "[data-interpretations=formula] li") == [t.en for t in info.interpretations]


def test_formula_help_example_is_computed_by_the_engine(client, db):
    points = texts(client.get(reverse("public:formula", args=["conversione150"])), "section.example td.num strong")
    assert "150.14" in points and "86" in points


def test_formula_help_page_is_italian_by_default(client, settings, db):
    settings.LANGUAGE_CODE = "it"
    page = client.get(reverse("public:formula", args=["faentino"]))
    assert one(page, "h1").find(string=True).strip() == CATALOGUE["faentino"].name.it   # before the formula's key


def test_unknown_formula_is_404(client, db):
    assert client.get(reverse("public:formula", args=["briscola"])).status_code == 404


def test_side_by_side_shows_a_rank_column_per_formula(client, tournament, organiser):
    regs = [RegistrationFactory(tournament=tournament, player__last_name=n) for n in "ABCDEFGH"]
    rnd = seat_round(tournament, [regs[:4], regs[4:]])
    report(rnd.tables.get(number=1), [(62,), (48,), (30,), (0, 1)])
    report(rnd.tables.get(number=2), [(40,), (39,), (2,), (1,)])
    client.force_login(organiser)
    response = client.get(reverse("manage:formulas_compared", args=[tournament.pk]))
    rows = response.context["rows"]
    keys = [c.key if not c.preset else f"preset:{c.key}" for c in response.context["columns"]]
    assert len([k for k in keys if not k.startswith("preset:")]) == 14
    by_name = {r["player"].last_name: r["cells"] for r in rows}
    assert by_name["A"][keys.index("conversione150")]["rank"] == 1
    # E won its table with 40 TP: first under conversione150, behind B (48 TP) under punti_tavolo.
    assert by_name["E"][keys.index("conversione150")]["rank"] == 2
    assert by_name["E"][keys.index("punti_tavolo")]["rank"] == 3


def test_side_by_side_leaves_out_a_formula_the_tournaments_settings_refuse(client, tournament, organiser):
    """A tie for first not settled by place has no winner under `maialino_2024`: the page still answers,
    lists every other formula and names the one left out. A Como corrective is no setting of `millesimi`
    (it has its own factor): it is scored without it."""
    tournament.como_reference = 5
    tournament.save()
    regs = [RegistrationFactory(tournament=tournament, player__last_name=n) for n in "ABCD"]
    report(seat_round(tournament, [regs]).tables.get(), [(48,), (48,), (30,), (0, 1)])
    client.force_login(organiser)
    response = client.get(reverse("manage:formulas_compared", args=[tournament.pk]))
    assert response.status_code == 200
    keys = [c.key for c in response.context["columns"] if not c.preset]
    assert "maialino_2024" not in keys and "millesimi" in keys
    # The club rule of Modena plays maialino_2024 too: refused for the same reason.
    assert [text(node) for node in select(response, "[data-refused]")] == [
        CATALOGUE["maialino_2024"].name.get("en"), "Coppe Maialino 2024 (RCU Modena)"]
    assert len(select(response, "table.compare thead th")) == len(response.context["columns"]) + 1


def test_side_by_side_adds_a_column_per_club_rule_scored_on_an_unsaved_copy(client, tournament, organiser):
    """SCORING.md 13's running 5-table (A 60, B 48, C 30, D 12, E eliminated first) under each club rule:
    its formula and settings applied to this tournament's results, the tournament itself unchanged."""
    regs = [RegistrationFactory(tournament=tournament, player__last_name=n) for n in "ABCDE"]
    report(seat_round(tournament, [regs]).tables.get(), [(60,), (48,), (30,), (12,), (0, 1)])
    client.force_login(organiser)
    response = client.get(reverse("manage:formulas_compared", args=[tournament.pk]))
    columns = response.context["columns"]
    presets = [c.key for c in columns if c.preset]
    assert presets == ["raduno_open", "master", "torneo_gufo", "campionato_gufo", "maialino_2024",
                       "finale_2004", "campionato_squadre", "gt_raduno", "gt_master", "gt_gufo", "gt_nazionale"]
    as_numbers = {c.key: [Decimal(r.total) for r in c.standings.rows] for c in columns if c.preset}
    assert as_numbers["raduno_open"] == [Decimal("125"), Decimal("60"), Decimal("37.5"), Decimal("15"), 0]
    # exact totals; the page shows 5.38 (SCORING.md 13.6.4)
    assert as_numbers["torneo_gufo"] == [Decimal("12.75"), Decimal("7.60"), Decimal("5.375"), Decimal("3.15"), 0]
    assert as_numbers["master"] == [Decimal("1.075"), Decimal("0.060"), Decimal("0.038"), Decimal("0.015"), 0]
    assert as_numbers["finale_2004"] == [Decimal("80"), Decimal("48"), Decimal("30"), Decimal("12"), 0]
    # GestioneTorneo's Raduno as its code scores it: no ×1.25 at a table of five
    assert as_numbers["gt_raduno"] == [Decimal("110"), Decimal("48"), Decimal("30"), Decimal("12"), 0]
    assert as_numbers["gt_master"] == as_numbers["master"] and as_numbers["gt_gufo"] == as_numbers["torneo_gufo"]
    assert as_numbers["maialino_2024"] == [Decimal("200"), Decimal("88"), Decimal("70"), Decimal("52"), 0]
    header = select(response, "table.compare thead th[data-column^='preset:']")
    assert [th["data-column"] for th in header] == [f"preset:{k}" for k in presets]
    assert len(select(response, "table.compare tbody tr:first-child td")) == len(columns)
    tournament.refresh_from_db()
    assert (tournament.formula, tournament.como_reference, tournament.club_preset) == ("conversione150", None, "")


def _example_points(page, index):
    """The points of worked example `index` as its tables show them, game after game."""
    return texts(one(page, f"section.example[data-example='{index}']"), "tbody td.num strong")


@pytest.mark.parametrize("key, example, points", [
    ("bonus50", "RADUNO_EXAMPLE", ["125", "60", "37.50", "15", "0"]),
    ("bonus50", "CORRECTIVE_SCORE_EXAMPLE", ["137.50", "60", "37.50", "15", "0"]),
    ("bonus50", "FINAL_2004_EXAMPLE", ["110", "44", "30", "12"]),
    ("spartaco", "SPARTACO_FLAT_EXAMPLE", ["186", "86", "86", "86"]),
    ("spartaco", "SPARTACO_OWN_TP_EXAMPLE", ["186", "40", "25", "0"]),
    ("standard", "GUFO_EXAMPLE", ["12.75", "7.60", "5.38", "3.15", "0"]),
    ("punti_tavolo", "PREVIOUS_ROUND_EXAMPLE", ["60", "40", "20", "10", "60", "40", "25", "5"]),
])
def test_a_club_variant_s_worked_example_is_computed_live_on_its_formula_s_page(client, db, key, example, points):
    from scoring import help_common
    index = CATALOGUE[key].examples.index(getattr(help_common, example))
    page = client.get(reverse("public:formula", args=[key]))
    assert _example_points(page, index) == points


def test_the_previous_round_example_ranks_a_ahead_of_b_on_equal_totals(client, db):
    from scoring.help_common import PREVIOUS_ROUND_EXAMPLE
    index = CATALOGUE["punti_tavolo"].examples.index(PREVIOUS_ROUND_EXAMPLE)
    section = one(client.get(reverse("public:formula", args=["punti_tavolo"])), f"section.example[data-example='{index}']")
    standings = [[text(td) for td in tr.select("td")][:3] for tr in section.select("table:last-of-type tbody tr")]
    assert standings[:2] == [["1", "A", "100"], ["2", "B", "100"]]


@pytest.mark.parametrize("key, note", [
    ("bonus50", "CORRECTIVE_TABLE_POINTS"), ("standard", "CORRECTIVE_TABLE_POINTS"),
    ("standard", "GUFO_SHARED_PLACE"), ("spartaco", "SPARTACO_OWN_TP_NOT_ADOPTED"),
    ("millesimi", "MILLESIMI_SHARED_TOP")])
def test_section_13_interpretations_are_on_their_formula_s_page(client, db, key, note):
    from scoring import help_common
    page = client.get(reverse("public:formula", args=[key]))
    assert getattr(help_common, note).en in texts(page, "[data-interpretations=formula] li")


def test_the_formulas_list_shows_every_club_rule_and_the_formats_interpretations(client, db):
    from scoring.help_common import FORMAT_INTERPRETATIONS
    from tournaments.club_presets import CLUB_PRESETS
    page = client.get(reverse("public:formulas"))
    assert attr(page, "[data-club-rule]", "data-club-rule") == list(CLUB_PRESETS)
    master = one(page, "[data-club-rule=master]")
    assert text(one(master, ".card-title")) == "Master (millesimi)"
    assert texts(master, "[data-setting]")[:3] == ["Thousandths (Master)",
                                                            "Best single results, Standing after the previous round", "2"]
    assert one(master, "a")["href"] == reverse("public:formula", args=["millesimi"])
    assert texts(page, "[data-interpretations=formats] li") == [t.en for t in FORMAT_INTERPRETATIONS]
