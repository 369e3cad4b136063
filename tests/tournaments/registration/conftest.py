import pytest

from tests.factories import ClubFactory, PlayerFactory


@pytest.fixture
def namesakes(db):
    """Two known players called Paolo Barbieri: of Lario, and of Tana dei Goblin (in that order)."""
    return [PlayerFactory(first_name="Paolo", last_name="Barbieri", club=ClubFactory(name=name))
            for name in ("Lario", "Tana dei Goblin")]
