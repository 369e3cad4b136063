"""The points filter writes exactly what Django's localised number_format writes, in both languages."""
from decimal import Decimal
from types import SimpleNamespace

import pytest
from django.utils.formats import number_format
from django.utils.translation import override
from hypothesis import given
from hypothesis import strategies as st

from scoring.numeric import shown, shown_in_thousandths
from tables.templatetags.torneo import points, tie_note


def _django(value):
    value = shown(Decimal(value))
    return number_format(value, decimal_pos=0 if value == value.to_integral() else 2)


@given(value=st.decimals(min_value=-10**17, max_value=10**17, places=4, allow_nan=False, allow_infinity=False)
       | st.integers(min_value=-10**17, max_value=10**17))
@pytest.mark.parametrize("language", ["it", "en"])
def test_points_read_as_django_writes_them(language, value):
    with override(language):
        assert points(value) == _django(value)


@pytest.mark.parametrize("language, value, text", [
    ("it", Decimal("150.14"), "150,14"), ("it", Decimal("150.10"), "150,10"), ("it", Decimal("200.00"), "200"),
    ("it", Decimal("-0.005"), "-0,01"), ("en", Decimal("33.335"), "33.34"), ("en", 7, "7"),
    ("it", None, "–"), ("it", "", "–"),
])
def test_points_examples(language, value, text):
    with override(language):
        assert points(value) == text


@pytest.mark.parametrize("language, value, text", [
    ("it", Decimal("1.091"), "1,091"), ("it", Decimal("1.05"), "1,050"), ("it", Decimal("1.1"), "1,100"),
    ("it", Decimal("0.027"), "0,027"), ("it", 0, "0,000"), ("it", Decimal("-0.000"), "0,000"),
    ("it", 2, "2,000"), ("en", Decimal("1.091"), "1.091"), ("en", Decimal("0.0415"), "0.042"),
    ("en", Decimal("-0.0005"), "-0.001"), ("it", None, "–"), ("it", "", "–"),
])
def test_points_in_thousandths_always_write_their_3_decimals(language, value, text):
    """The `millesimi` formula (SCORING.md 13.4): "1,091", "1,100", never "1,1" nor "1,09"."""
    with override(language):
        assert points(value, 3) == text


@given(value=st.decimals(min_value=-10**17, max_value=10**17, places=5, allow_nan=False, allow_infinity=False))
@pytest.mark.parametrize("language", ["it", "en"])
def test_points_in_thousandths_read_as_django_writes_them(language, value):
    with override(language):
        shown_value = shown_in_thousandths(value)
        assert points(value, 3) == number_format(abs(shown_value) if shown_value.is_zero() else shown_value,
                                                 decimal_pos=3)


def test_a_tie_note_names_the_best_game_in_the_tournaments_decimals():
    note = SimpleNamespace(zone="repechage", by=1, rank=10, best=Decimal("0.05"),
                           ahead=SimpleNamespace(player=SimpleNamespace(full_name="Ida Neri")),
                           behind=SimpleNamespace(player=SimpleNamespace(full_name="Leo Bassi")))
    said = ("Ida Neri and Leo Bassi have the same best game ({}): the repêchage seat goes to Ida Neri by the "
            "best single game.")
    with override("en"):
        assert (tie_note(note, 3), tie_note(note)) == (said.format("0.050"), said.format("0.05"))


def test_a_number_as_entered_keeps_the_decimals_it_has_and_no_more():
    from tables.templatetags.torneo import as_entered
    with override("it"):
        assert [as_entered(Decimal(v)) for v in ("62.00", "12.50", "120", "0.00", "7.25")] == [
            "62", "12,5", "120", "0", "7,25"]
        assert as_entered(None) == "—"
    with override("en"):
        assert as_entered(Decimal("12.50")) == "12.5"
