import pytest
from django.urls import reverse

from scoring.catalogue import CATALOGUE
from tests.factories import RegistrationFactory, report, seat_round


@pytest.mark.parametrize("key", list(CATALOGUE))
def test_formula_help_page_states_rule_source_and_interpretations(client, key, db):
    info = CATALOGUE[key]
    body = client.get(reverse("public:formula", args=[key])).content.decode()
    assert info.sources[0].rulebook in body
    assert "seeds/" not in body
    for text in info.interpretations:
        assert text.en.replace("'", "&#x27;") in body


def test_formula_help_example_is_computed_by_the_engine(client, db):
    body = client.get(reverse("public:formula", args=["conversione150"])).content.decode()
    assert "<strong>150.14</strong>" in body
    assert "<strong>86</strong>" in body


def test_formula_help_page_is_italian_by_default(client, settings, db):
    settings.LANGUAGE_CODE = "it"
    body = client.get(reverse("public:formula", args=["faentino"])).content.decode()
    assert CATALOGUE["faentino"].name.it in body


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
    assert len(response.context["keys"]) == 12
    by_name = {r["player"].last_name: r["cells"] for r in rows}
    keys = response.context["keys"]
    assert by_name["A"][keys.index("conversione150")]["rank"] == 1
    # E won its table with 40 TP: first under conversione150, behind B (48 TP) under punti_tavolo.
    assert by_name["E"][keys.index("conversione150")]["rank"] == 2
    assert by_name["E"][keys.index("punti_tavolo")]["rank"] == 3
