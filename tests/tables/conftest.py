import pytest

from tests.factories import RegistrationFactory, report, seat_round


@pytest.fixture
def played(tournament, organiser):
    """A round of one table of four players (A, B, C, D), its result entered."""
    regs = [RegistrationFactory(tournament=tournament, player__last_name=n) for n in "ABCD"]
    rnd = seat_round(tournament, [regs])
    report(rnd.tables.get(), [(62,), (48,), (30,), (0, 1)])
    return rnd
