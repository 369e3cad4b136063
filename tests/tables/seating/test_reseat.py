from tables.seating import SeatingRequest, reseat

from .helpers import roster

DRAFT = [["P01", "P02", "P03", "P04"], ["P05", "P06", "P07", "P08"], ["P09", "P10", "P11", "P12"],
         ["P13", "P14", "P15", "P16"]]


def moved(draft, tables):
    """Players of the draft no longer with the bulk of their draft table."""
    where = {p: i for i, t in enumerate(draft) for p in t}
    count = 0
    for t in tables:
        origins = [where[p] for p in t if p in where]
        bulk = max(set(origins), key=origins.count)
        count += sum(1 for o in origins if o != bulk)
    return count


def test_reseat_adds_a_late_arrival_without_moving_anyone():
    result = reseat(SeatingRequest(players=roster(17), time_limit_s=60), DRAFT)
    assert moved(DRAFT, result.tables) == 0
    assert sorted(len(t) for t in result.tables) == [4, 4, 4, 5]
    assert any("P17" in t for t in result.tables)


def test_reseat_fills_a_drop_out_with_least_change():
    players = [p for p in roster(15) if p.id != "P02"] + roster(16)[15:]
    result = reseat(SeatingRequest(players=players, time_limit_s=60), DRAFT)
    # 15 players: 5+5+5, so one table of the draft is shared out among the others.
    assert sorted(len(t) for t in result.tables) == [5, 5, 5]
    assert moved(DRAFT, result.tables) == 3
    assert result.tables[1][1:] == DRAFT[1]


def test_reseat_keeps_the_draft_when_nothing_changed():
    result = reseat(SeatingRequest(players=roster(16), time_limit_s=60), DRAFT)
    assert result.tables == DRAFT


def test_reseat_keeps_clubs_apart_for_newcomers():
    players = roster(16) + [type(roster(1)[0])("P17", "x"), type(roster(1)[0])("P18", "x")]
    draft_with_clubs = DRAFT
    result = reseat(SeatingRequest(players=players, time_limit_s=60), draft_with_clubs)
    assert result.penalties.same_club_pairs == 0
    assert moved(DRAFT, result.tables) == 0


def test_reseat_keeps_the_draft_rather_than_avoid_repeats():
    """Moving a player off the draft table weighs just below the first priority: above repeats."""
    result = reseat(SeatingRequest(players=roster(16), history=[list(t) for t in DRAFT], time_limit_s=60), DRAFT)
    assert result.tables == DRAFT
    assert result.penalties.repeat_pairs == 24
