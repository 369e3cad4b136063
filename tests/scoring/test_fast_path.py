"""`score_tournament` computes what the formula-independent part of the standings needs once per
list of games (`scoring.standings.Prepared`) and builds the standings from it; these tests check
that it gives exactly what the plain statement of the rules (`build_standings` over every game's
score) gives, on random tournaments, formulas and parameters."""
import dataclasses
import os
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import FORMULAS, Absence, Game, Params, score_tournament
from scoring.engine import _score, implicit_absences
from scoring.errors import InvalidResult, ScoringError
from scoring.formulas import get_formula
from scoring.numeric import engine_context, shown
from scoring.standings import build_standings

from .builders import one_winner
from .test_properties import tables

SETTINGS = settings(max_examples=int(os.environ.get("SCORING_EXAMPLES", 80)), deadline=None)
IDS = [f"P{i}" for i in range(10)] + [3, 11]  # integer ids too: they sort apart from strings


def simple(formula, params, games, absences=()):
    """The plain path: every game scored, then `build_standings` over the scores."""
    formula = get_formula(formula)
    formula.check_params(params)
    absences = [Absence(*a) for a in absences]
    with engine_context():
        scores = tuple(_score(formula, game, params) for game in games)
        standings = build_standings(formula, params, scores, absences + implicit_absences(games, absences))
    return scores, tuple(standings)


@st.composite
def seasons(draw):
    rounds = draw(st.integers(1, 5))
    games = []
    for r in range(1, rounds + 1):
        present = draw(st.permutations(IDS))[:draw(st.sampled_from([6, 8, 9, 10, 12]))]
        sizes = {6: [3, 3], 8: [4, 4], 9: [4, 5], 10: [5, 5], 12: [6, 6]}[len(present)]
        start = 0
        for table, size in enumerate(sizes, 1):
            game = draw(tables(r, table, penalties=draw(st.booleans()), ids=present[start:start + size]))
            if draw(st.booleans()):  # a forfeited seat
                void = draw(st.integers(0, size - 1))
                game = Game(r, table, tuple(dataclasses.replace(p, void=True) if i == void else p
                                            for i, p in enumerate(game.players)))
            games.append(game)
            start += size
    order = draw(st.permutations(range(len(games))))
    return [games[i] for i in order]


TIEBREAKS = ["best_results", "wins", "table_points", "head_to_head", "previous_round"]


@st.composite
def parameters(draw, formula=None):
    """Parameters of sections 5-6, and the club variants of section 13 that `formula` takes."""
    accepts = FORMULAS[formula].parameters if formula else ()
    corrective = FORMULAS[formula].corrective if formula else True
    reference = draw(st.sampled_from([None, 4, 5])) if corrective else None
    return Params(
        discard_worst=draw(st.integers(0, 2)),
        best_of=draw(st.sampled_from([None, 1, 3])),
        como_reference=reference,
        tiebreak=draw(st.lists(st.sampled_from(TIEBREAKS), max_size=5, unique=True)),
        tournament_penalties=draw(st.dictionaries(st.sampled_from(IDS), st.integers(0, 300), max_size=3)),
        corrective_scope=None if reference is None else draw(st.sampled_from([None, "score", "table_points"])),
        risiko_total=draw(st.sampled_from([None, 0, 110])) if "risiko_total" in accepts else None,
        spartaco_risiko_losers=(draw(st.sampled_from([None, "flat", "own_tp"]))
                                if "spartaco_risiko_losers" in accepts else None),
        standard_eliminated=(draw(st.sampled_from([None, "order", "position"]))
                             if "standard_eliminated" in accepts else None),
    )


def outcome(run):
    """What a scoring gives: its value, or the message of the error it raises."""
    try:
        return run()
    except ScoringError as exc:
        return exc.message


@SETTINGS
@given(games=seasons(), name=st.sampled_from(list(FORMULAS)), data=st.data())
def test_property_standings_equal_the_plain_path(games, name, data):
    params = data.draw(parameters(name))
    if name == "maialino_2024" and data.draw(st.booleans()):
        games = [one_winner(g) for g in games]  # else both paths must refuse the same tie for first
    played = sorted({g.round for g in games})
    # Explicit absences of players who did not play that round (or in no round at all).
    absent = data.draw(st.lists(st.tuples(st.sampled_from(played), st.sampled_from(IDS + ["X1"])), max_size=3))
    absences = [a for a in dict.fromkeys(absent)
                if not any(g.round == a[0] and a[1] in [p.id for p in g.players] for g in games)]
    plain = outcome(lambda: simple(name, params, games, absences))
    if isinstance(plain, str):
        assert outcome(lambda: score_tournament(name, params, games, absences=absences)) == plain
        return
    scores, standings = plain
    result = score_tournament(name, params, games, absences=absences)
    assert result.games == scores
    assert result.standings == standings
    # Twice on the same list (the formula-independent part is then reused), and under a second
    # formula: still the plain path's answer.
    again = score_tournament(name, params, games, absences=absences)
    assert again.standings == standings
    other = "medagliere" if name != "medagliere" else "vittorie"
    params = dataclasses.replace(params, risiko_total=None, spartaco_risiko_losers=None, standard_eliminated=None)
    if not FORMULAS[other].corrective or not FORMULAS[name].corrective:
        params = dataclasses.replace(params, como_reference=None, corrective_scope=None)
    assert score_tournament(other, params, games, absences=absences).standings == simple(other, params, games,
                                                                                          absences)[1]


def test_reused_part_follows_a_changed_list_and_changed_absences():
    from .builders import game, p
    first = [game(1, 1, p("A", 60), p("B", 40), p("C", 20), p("D", 10)),
             game(2, 1, p("A", 10), p("B", 40), p("C", 20), p("E", 60))]
    a = score_tournament("punti_tavolo", None, first)
    assert [(r.player, r.total) for r in a.standings] == [
        ("B", Decimal(80)), ("A", Decimal(70)), ("E", Decimal(60)), ("C", Decimal(40)), ("D", Decimal(10))]
    # The same list object changed in place: a new game for D in round 2 replaces E's.
    first[1] = game(2, 1, p("A", 10), p("B", 40), p("C", 20), p("D", 60))
    b = score_tournament("punti_tavolo", None, first)
    assert [(r.player, r.total, r.games) for r in b.standings] == [
        ("B", Decimal(80), 2), ("A", Decimal(70), 2), ("D", Decimal(70), 2), ("C", Decimal(40), 2)]
    # Same games, an explicit absence added for a player who never played.
    c = score_tournament("punti_tavolo", None, first, absences=[(1, "Z")])
    assert [(r.player, r.results) for r in c.standings][-1] == ("Z", (Decimal(0),))


def test_absence_and_result_in_one_round_is_refused_by_both_paths():
    from .builders import game, p
    games = [game(1, 1, p("A", 60), p("B", 40), p("C", 20), p("D", 10))]
    for attempt in range(2):  # the second time the list is the one scored before
        try:
            score_tournament("standard", None, games, absences=[(1, "B")])
        except InvalidResult as exc:
            assert (exc.code, exc.player) == ("absent_and_played", "B")
        else:
            raise AssertionError("an absence beside a result was accepted")


def test_the_fast_constructors_give_the_same_scores_as_the_declared_ones():
    from decimal import Decimal

    from scoring.model import PlayerScore, _new_tuple
    fields = ("p1", 1, Decimal(60), Decimal(150), Decimal(150), Decimal(0), Decimal(150), None, False, False)
    fast = _new_tuple(PlayerScore, fields)
    assert fast == PlayerScore(*fields) and type(fast) is PlayerScore and fast.points == Decimal(150)


def test_a_table_with_a_penalty_under_the_como_corrective_is_the_declared_score_once_read():
    from scoring.model import GameScore, PlayerScore

    from .builders import game, p
    g = game(1, 2, p("A", 60, penalty=5), p("B", 40), p("C", 20), p("D", 0, eliminated=1))
    score = score_tournament("standard", Params(como_reference=5), [g]).games[0]
    assert score.points == {"A": Decimal("5.08"), "B": Decimal("5.92"), "C": Decimal("4.16"), "D": Decimal("0.8")}
    assert "players" not in vars(score)
    declared = GameScore(1, 2, (
        PlayerScore("A", 1, Decimal(60), Decimal("12.6"), Decimal("10.08"), Decimal(5), Decimal("5.08"), None, False),
        PlayerScore("B", 2, Decimal(40), Decimal("7.4"), Decimal("5.92"), Decimal(0), Decimal("5.92"), None, False),
        PlayerScore("C", 3, Decimal(20), Decimal("5.2"), Decimal("4.16"), Decimal(0), Decimal("4.16"), None, False),
        PlayerScore("D", 4, Decimal(0), Decimal(1), Decimal("0.8"), Decimal(0), Decimal("0.8"), 1, False)), (4, 5))
    assert score == declared and hash(score) == hash(declared) and repr(score) == repr(declared)


def test_a_table_scored_as_seats_is_the_declared_score_once_read():
    import pickle

    from scoring.model import GameScore, PlayerScore

    from .builders import game, p
    g = game(2, 5, p("A", 60), p("B", 40), p("C", 0, eliminated=1))
    score = score_tournament("conversione150", None, [g]).games[0]
    # Points and places are read from the seats: no PlayerScore is made for them.
    assert score.points == {"A": Decimal("150.2"), "B": Decimal(80), "C": Decimal(10)}
    assert score.places == {"A": 1, "B": 2, "C": 3}
    assert "players" not in vars(score)
    declared = GameScore(2, 5, (
        PlayerScore("A", 1, Decimal(60), Decimal("150.2"), Decimal("150.2"), Decimal(0), Decimal("150.2"),
                    None, False),
        PlayerScore("B", 2, Decimal(40), Decimal(80), Decimal(80), Decimal(0), Decimal(80), None, False),
        PlayerScore("C", 3, Decimal(0), Decimal(10), Decimal(10), Decimal(0), Decimal(10), 1, False)))
    copy = pickle.loads(pickle.dumps(score))
    assert score == declared and hash(score) == hash(declared) and repr(score) == repr(declared)
    assert copy == declared and copy.points == declared.points
    assert vars(score)["players"] == declared.players  # made once, then kept
    try:
        score.nothing
    except AttributeError as exc:
        assert str(exc) == "nothing"
    else:
        raise AssertionError("an unknown attribute was answered")


def _sequential_break_ties(group, chain, rounds):
    """Section 6 word for word: split by the first criterion, then each tied part by the next."""
    from scoring.standings import _criterion_keys
    if len(group) == 1 or not chain:
        return [group]
    keys = _criterion_keys(chain[0], group, rounds, shown)
    group = sorted(group, key=lambda t: keys[t.player], reverse=True)
    out, i = [], 0
    while i < len(group):
        j = i + 1
        while j < len(group) and keys[group[j].player] == keys[group[i].player]:
            j += 1
        out.extend(_sequential_break_ties(group[i:j], chain[1:], rounds))
        i = j
    return out


@SETTINGS
@given(data=st.data(), chain=st.lists(st.sampled_from(TIEBREAKS), max_size=5, unique=True))
def test_property_the_criteria_applied_together_split_as_one_after_the_other(data, chain):
    from scoring.standings import _break_ties, _Tally
    rounds = [1, 1, 2, 2, 3]
    group = []
    for i in range(data.draw(st.integers(1, 8))):
        tally = _Tally(f"P{i}")
        tally.counted = sorted(data.draw(st.lists(st.sampled_from([Decimal(10), Decimal("60.5"), Decimal("60.50"),
                                                                   Decimal("80.125"), Decimal(100)]),
                                                  max_size=3)), reverse=True)
        tally.wins = data.draw(st.integers(0, 2))
        tally.tp = Decimal(data.draw(st.integers(0, 2)))
        tally.games = {seq: data.draw(st.integers(1, 4))
                       for seq in data.draw(st.sets(st.integers(0, 4), max_size=3))}
        tally.by_round = [(round_, Decimal(data.draw(st.sampled_from([0, 10, 20])))) for round_ in (1, 2, 3)]
        group.append(tally)
    expected = [[t.player for t in part] for part in _sequential_break_ties(group, tuple(chain), rounds)]
    assert [[t.player for t in part] for part in _break_ties(group, tuple(chain), rounds, shown)] == expected


def test_a_scoring_hands_its_objects_to_the_collector_without_unfreezing_a_workers_frozen_ones():
    import gc

    from .builders import game, p
    games = [game(1, 1, p("A", 60), p("B", 40), p("C", 20), p("D", 10))]
    assert gc.isenabled()
    score_tournament("standard", None, games)
    assert gc.isenabled() and gc.get_freeze_count() == 0
    marker = ["a server worker's object, frozen at its start"]
    gc.freeze()
    try:
        score_tournament("standard", None, games)
        assert gc.isenabled() and gc.get_freeze_count() > 0
        assert not any(o is marker for o in gc.get_objects())  # still frozen: out of every generation
    finally:
        gc.unfreeze()
    assert any(o is marker for o in gc.get_objects())
