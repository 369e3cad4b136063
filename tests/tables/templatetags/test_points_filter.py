"""The points filter writes exactly what Django's localised number_format writes, in both languages."""
from decimal import Decimal

import pytest
from django.utils.formats import number_format
from django.utils.translation import override
from hypothesis import given
from hypothesis import strategies as st

from scoring.numeric import shown
from tables.templatetags.torneo import points


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
