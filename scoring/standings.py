"""Standings (SCORING.md section 6) and the multi-phase helpers.

Totals add the counted results exactly; they are compared as shown (half-up, 2 decimals; 3 under
`millesimi`, section 13.4), so equal shown totals are ties. Ties go through the tie-break chain;
players still tied share the rank (competition ranking) and are listed by id.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from decimal import Decimal
from itertools import repeat
from operator import itemgetter
from typing import Iterable, Sequence

from .errors import InvalidResult
from .model import MEDAL_PLACES, Absence, GameScore, Params, StandingRow
from .modifiers import FORFEIT_POINTS, apply_penalty
from .numeric import ZERO, shown_for
from .placement import id_key


class _Tally:
    __slots__ = ("player", "results", "wins", "medals", "tp", "games", "total", "shown", "counted",
                 "penalty", "by_round")

    def __init__(self, player):
        self.player = player
        self.results = []   # (round, sequence, points)
        self.wins = 0
        self.medals = [0] * MEDAL_PLACES
        self.tp = ZERO
        self.games = {}     # game sequence -> place, for head to head


def counted_results(results: Sequence[Decimal], params: Params) -> list[Decimal]:
    """The results that count, best first (section 6: `discard_worst` drops the k lowest,
    `best_of` keeps the N highest)."""
    ordered = sorted(results, reverse=True)
    keep = len(ordered) - params.discard_worst
    if params.best_of is not None:
        keep = min(keep, params.best_of)
    return ordered[:max(keep, 0)]


def build_standings(formula, params: Params, games: Sequence[GameScore],
                    absences: Iterable[Absence] = ()) -> list[StandingRow]:
    """Seed 004 / seed 000 rule 3: totals, discards, order by formula, tie-break chain, ranks."""
    tallies: dict = {}
    rounds = []  # game sequence -> round, for "latest game"
    for seq, game in enumerate(games):
        rounds.append(game.round)
        for ps in game.players:
            tally = tallies.get(ps.player)
            if tally is None:
                tally = tallies[ps.player] = _Tally(ps.player)
            tally.results.append((game.round, seq, ps.points))
            if ps.void:
                continue  # section 5: a forfeit is an absence, it adds no win, place or TP
            tally.tp += ps.table_points
            place = ps.place
            if place == 1:
                tally.wins += 1
            if place <= MEDAL_PLACES:
                tally.medals[place - 1] += 1
            tally.games[seq] = place
    after_games = len(rounds)
    for absence in absences:
        round_, player = absence
        tally = tallies.get(player)
        if tally is None:
            tally = tallies[player] = _Tally(player)
        if any(r == round_ for r, _, _ in tally.results):
            raise InvalidResult("has a result and an absence in the same round", code="absent_and_played",
                               round=round_, player=player, field="absences")
        tally.results.append((round_, after_games, FORFEIT_POINTS))

    penalties = params.tournament_penalties
    show = shown_for(formula.decimals)
    for tally in tallies.values():
        tally.results.sort(key=lambda r: (r[0], r[1]))
        tally.by_round = [(r[0], r[2]) for r in tally.results]
        tally.counted = counted_results([r[2] for r in tally.results], params)
        total = sum(tally.counted, ZERO)
        tally.penalty = penalties.get(tally.player, ZERO)
        tally.total = apply_penalty(total, tally.penalty)
        tally.shown = show(tally.total)

    return _rank(formula, params, sorted(tallies.values(), key=lambda t: id_key(t.player)), rounds)


def _rank(formula, params, tallies, rounds, plain_results=False):
    """Order the tallies (primary key of the formula, tie-break chain, shared ranks) into rows.
    `tallies` come in the order of their players' ids: every sort below is stable, so players still
    tied are listed by id."""
    ranking = formula.ranking
    if ranking == "wins":
        def primary(t):
            return (t.wins, t.shown)
    elif ranking == "medals":
        def primary(t):
            return tuple(t.medals)
    else:
        def primary(t):
            return t.shown

    ordered = sorted(tallies, key=primary, reverse=True)
    chain = params.tiebreak
    show = shown_for(formula.decimals)
    rows = []
    i = 0
    while i < len(ordered):
        key = primary(ordered[i])
        j = i + 1
        while j < len(ordered) and primary(ordered[j]) == key:
            j += 1
        groups = _break_ties(ordered[i:j], chain, rounds, show) if j - i > 1 else [ordered[i:j]]
        for group in groups:
            rank = len(rows) + 1
            for t in group:
                # StandingRow(...) field by field, without the frozen dataclass's __init__.
                row = _new_object(StandingRow)
                row.__dict__.update(
                    rank=rank, player=t.player, total=t.total, shown_total=t.shown, wins=t.wins,
                    medals=tuple(t.medals), results=_results(t, plain_results),
                    counted=tuple(t.counted), table_points=t.tp, games=len(t.results), penalty=t.penalty)
                rows.append(row)
        i = j
    return rows


_new_object = object.__new__


def _results(tally, plain):
    return tuple(tally.results) if plain else tuple(r[2] for r in tally.results)


# A player's key whatever the group.
_GROUP_FREE = frozenset({"best_results", "wins", "table_points", "previous_round"})


def _break_ties(group, chain, rounds, show):
    """Split a tied group into ordered subgroups by the chain of criteria (section 6).

    The leading criteria whose key is the player's own, whoever else is tied (all but head to
    head), are applied at once, as one key; a criterion that looks at the group (head to head)
    is applied to each group still tied before it."""
    if len(group) == 1 or not chain:
        return [group]
    taken = 1
    while taken < len(chain) and chain[0] in _GROUP_FREE and chain[taken] in _GROUP_FREE:
        taken += 1
    criteria, rest = chain[:taken], chain[taken:]
    if taken == 1:
        keys = _criterion_keys(criteria[0], group, rounds, show)
    else:
        parts = [_criterion_keys(criterion, group, rounds, show) for criterion in criteria]
        keys = {t.player: tuple(part[t.player] for part in parts) for t in group}
    key = keys.__getitem__
    group = sorted(group, key=lambda t: key(t.player), reverse=True)
    out = []
    i = 0
    while i < len(group):
        j = i + 1
        first = key(group[i].player)
        while j < len(group) and key(group[j].player) == first:
            j += 1
        out.extend(_break_ties(group[i:j], rest, rounds, show) if j - i > 1 else [group[i:j]])
        i = j
    return out


def _criterion_keys(criterion, group, rounds, show):
    """Player -> comparable key, higher is better. `show`: a value as shown (section 6)."""
    if criterion == "best_results":
        # Como rule 3.1: best counted result, then the second best, ... (as shown). Results repeat
        # (60, 80, 100...): each value is rounded once.
        rounded = {}
        for t in group:
            for x in t.counted:
                if x not in rounded:
                    rounded[x] = show(x)
        as_shown = rounded.__getitem__
        return {t.player: tuple(map(as_shown, t.counted)) for t in group}
    if criterion == "wins":
        return {t.player: t.wins for t in group}
    if criterion == "table_points":
        return {t.player: t.tp for t in group}
    if criterion == "head_to_head":
        # Better place in the latest game every tied player played in.
        common = set(group[0].games)
        for t in group[1:]:
            common &= set(t.games)
        if not common:
            return {t.player: 0 for t in group}
        latest = max(common, key=lambda seq: (rounds[seq], seq))
        return {t.player: -t.games[latest] for t in group}
    if criterion == "previous_round":
        return _previous_round_keys(group, rounds, show)
    raise ValueError(criterion)


def _previous_round_keys(group, rounds, show):
    """SCORING.md 13.7 (GestioneTorneo, Raduno and Master: "posizione in classifica al turno
    precedente"): with R1 < ... < Rm the rounds played, the sums of each player's game points over the
    rounds up to R(m-1), then up to R(m-2), ..., R1, as shown; the first that differs decides. The
    sums take every result (after correctives and penalties, before discards and best-of; an absence
    counts 0). With one round only nothing is decided."""
    cutoffs = sorted(set(rounds), reverse=True)[1:]
    keys = {}
    for t in group:
        sums = []
        for cutoff in cutoffs:
            total = ZERO
            for round_, points in t.by_round:
                if round_ <= cutoff:
                    total += points
            sums.append(show(total))
        keys[t.player] = tuple(sums)
    return keys


# The same standings, computed for many formulas over one list of games -----------------------------
#
# What does not depend on the formula (who played which game, in which round, with which place and
# TP, the absences) is gathered once per list of games by `prepare`; `standings_from` then needs only
# each game's final points. `build_standings` above is the plain statement of the rules and the
# reference these two are tested against.

class Prepared:
    """The formula-independent part of the standings of one list of scored games."""
    __slots__ = ("rounds", "players", "picks", "singles", "wins", "medals", "tp", "games", "_sources",
                 "_result_rounds")

    def __init__(self, games: Sequence, absences: Iterable[Absence] = ()):
        """`games`: objects with `round` and `placement` (scoring.Game) in the order they are scored."""
        games, absences = tuple(games), tuple(absences)
        index: dict = {}        # player -> row in the lists below, in order of first appearance
        players, entries, wins, medals, tps, played = [], [], [], [], [], []
        rounds = []
        starts = []             # per game: the index of its first seat among all games' seats
        seats_so_far = 0
        medal_places = MEDAL_PLACES

        def new_row(player):
            index[player] = len(players)
            players.append(player)
            entries.append([])
            wins.append(0)
            medals.append([0] * medal_places)
            tps.append(ZERO)
            played.append({})
            return index[player]
        for seq, game in enumerate(games):
            round_ = game.round
            rounds.append(round_)
            seats = game.placement.seats
            starts.append(seats_so_far)
            seats_so_far += len(seats)
            for i, seat in enumerate(seats):
                player = seat.player
                row = index.get(player)
                if row is None:
                    row = new_row(player)
                entries[row].append((round_, seq, i))
                if seat.void:
                    continue
                tps[row] += seat.tp
                place = seat.rank
                if place == 1:
                    wins[row] += 1
                if place <= medal_places:
                    medals[row][place - 1] += 1
                played[row][seq] = place
        after_games = len(rounds)
        starts.append(seats_so_far)  # an absence: the one entry after every game's seats
        for absence in absences:
            round_, player = absence
            row = index.get(player)
            if row is None:
                row = new_row(player)
            if any(r == round_ for r, _, _ in entries[row]):
                raise InvalidResult("has a result and an absence in the same round", code="absent_and_played",
                                    round=round_, player=player, field="absences")
            entries[row].append((round_, after_games, 0))
        picks, singles = [], []
        by_id = sorted(range(len(players)), key=lambda row: id_key(players[row]))
        for position, row in enumerate(by_id):
            row_entries = entries[row]
            row_entries.sort()  # by round, then game: a player has one seat per game
            order = [starts[seq] + i for _, seq, i in row_entries]
            if len(order) == 1:  # itemgetter of one index gives the item, not a 1-tuple
                singles.append(position)
                order.append(order[0])
            picks.append(itemgetter(*order))
        self.rounds = rounds
        # Per player, in the order of their ids: what picks their results, in round order, out of
        # every game's seats laid end to end (then an absence's 0); the players with one result
        # (their pick gives it twice).
        self.players = [players[row] for row in by_id]
        self.picks = picks
        self.singles = singles
        self.wins = [wins[row] for row in by_id]
        self.medals = [medals[row] for row in by_id]
        self.tp = [tps[row] for row in by_id]
        self.games = [played[row] for row in by_id]
        self._sources = (games, absences)
        self._result_rounds = None

    def result_rounds(self) -> list:
        """Per player (in the order of their ids): the round of each result, in round order (only the
        previous-round tie-break, SCORING.md 13.7, asks for them)."""
        if self._result_rounds is None:
            games, absences = self._sources
            row = {player: i for i, player in enumerate(self.players)}
            rounds = [[] for _ in self.players]
            for game in games:
                for seat in game.placement.seats:
                    rounds[row[seat.player]].append(game.round)
            for round_, player in absences:
                rounds[row[player]].append(round_)
            for player_rounds in rounds:
                player_rounds.sort()  # results are in round order
            self._result_rounds = rounds
        return self._result_rounds


def standings_from(formula, params: Params, prepared: Prepared, games: Sequence[GameScore],
                   points: list | None = None) -> list[StandingRow]:
    """`build_standings` from the `Prepared` part of the same games and their scores. `points`:
    every seat's final points, game after game, when the caller has them already (it is extended)."""
    if points is None:
        points = [seat[6] for game in games for seat in game.players]  # PlayerScore.points
    points.append(FORFEIT_POINTS)  # an absence
    penalties = params.tournament_penalties
    discard = params.discard_worst
    best_of = params.best_of
    # Every player at once, each step over all of them (the loops run in C).
    results = [pick(points) for pick in prepared.picks]
    for row in prepared.singles:
        results[row] = results[row][:1]
    counted = [sorted(r, reverse=True) for r in results]
    if discard or best_of is not None:
        counted = [c[:max(min(len(c) - discard, len(c) if best_of is None else best_of), 0)] for c in counted]
    totals = list(map(sum, counted, repeat(ZERO)))
    if penalties:
        totals = [apply_penalty(total, penalties.get(player, ZERO)) for total, player in zip(totals, prepared.players)]
    tallies = []
    add = tallies.append
    new = _Tally.__new__
    show = shown_for(formula.decimals)
    for player, r, c, total, wins, medals, tp, games in zip(prepared.players, results, counted, totals, prepared.wins,
                                                           prepared.medals, prepared.tp, prepared.games):
        tally = new(_Tally)
        tally.player = player
        tally.results = r
        tally.counted = c
        tally.penalty = penalties.get(player, ZERO) if penalties else ZERO
        tally.total = total
        tally.shown = show(total)
        tally.wins = wins
        tally.medals = medals
        tally.tp = tp
        tally.games = games
        add(tally)
    if "previous_round" in params.tiebreak:
        for tally, result_rounds in zip(tallies, prepared.result_rounds()):
            tally.by_round = list(zip(result_rounds, tally.results))
    return _rank(formula, params, tallies, prepared.rounds, plain_results=True)


# Multi-phase tournaments -------------------------------------------------------------------------

@dataclass(frozen=True)
class PhaseRow:
    """A row of the final classification of a multi-phase tournament."""
    position: int
    player: object
    phase: str  # "final", "finalina" or "qualifying"


def not_counted(counted, played):
    """The rounds whose result is not among a row's `counted` ones (SCORING.md 6), from `played`
    {round: points}: the results a page strikes through. The counted results are the highest: each is
    matched to a round from the best down, the earlier round first among equal results; an absence, not
    in `played`, is never marked."""
    if len(counted) >= len(played) and not any(points < 0 for points in played.values()):
        return frozenset()  # every result played counts (an absence scores 0, below none of them)
    left = Counter(counted)
    dropped = set()
    for number, points in sorted(played.items(), key=lambda item: (-item[1], item[0])):
        if left[points] > 0:
            left[points] -= 1
        else:
            dropped.add(number)
    return frozenset(dropped)


def final_classification(qualifying: Sequence, final, finalina=None) -> list[PhaseRow]:
    """SCORING.md section 6, multi-phase: the final table's placement gives positions 1..n, a
    "finalina" (seed 004: 5th-8th) the next ones, everyone else follows in qualifying order.

    `qualifying` is the qualifying standings (StandingRow, shared ranks are kept) or a list of
    player ids in order; `final` and `finalina` are Game objects (ties at the table share).
    """
    rows: list[PhaseRow] = []
    placed = set()
    for phase, game in (("final", final), ("finalina", finalina)):
        if game is None:
            continue
        offset = len(rows)
        for seat in game.placement.seats:
            if seat.player in placed:
                raise InvalidResult("plays in more than one final table", code="final_twice",
                                   player=seat.player, field="players")
            placed.add(seat.player)
            rows.append(PhaseRow(offset + seat.rank, seat.player, phase))
    rest = [(getattr(r, "player", r), getattr(r, "rank", None)) for r in qualifying]
    rest = [(p, rank) for p, rank in rest if p not in placed]
    offset = len(rows)
    previous_rank, position = object(), 0
    for i, (player, rank) in enumerate(rest):
        if rank is None or rank != previous_rank:
            position = offset + i + 1
        previous_rank = rank
        rows.append(PhaseRow(position, player, "qualifying"))
    return rows


@dataclass(frozen=True)
class SemifinalPlan:
    """Seed 004 semifinal guidance: who goes straight to the final and who plays which semifinal
    (positions in the qualifying standings). One player qualifies from each semifinal."""
    seeded_to_final: tuple[int, ...]
    semifinals: tuple[tuple[int, ...], ...]
    qualifiers_per_semifinal: int = 1

    @property
    def finalists(self) -> int:
        return len(self.seeded_to_final) + len(self.semifinals) * self.qualifiers_per_semifinal


def _snake(positions: Sequence[int], tables: int) -> tuple[tuple[int, ...], ...]:
    """Spread positions over tables 1..T, T..1, 1..T, ... so each table gets one per band."""
    out = [[] for _ in range(tables)]
    for i, pos in enumerate(positions):
        row, col = divmod(i, tables)
        out[col if row % 2 == 0 else tables - 1 - col].append(pos)
    return tuple(tuple(t) for t in out)


def semifinal_plans(players: int) -> list[SemifinalPlan]:
    """Seed 004: semifinals among the top 16 (4 tables) from 32 players; with fewer than 32 do not
    run 4 semifinals: seed the 1st to the final and play 3 semifinals among 2nd-12th, or seed the
    top 2 and play 2 semifinals among 3rd-10th. Never qualify two players from one semifinal.

    Returns the applicable plans, preferred first (empty list below 10 players: play a final
    among the top 4 directly).
    """
    if players >= 32:
        return [SemifinalPlan((), _snake(range(1, 17), 4))]
    plans = []
    if players >= 12:
        # Literally "dal 2 al 12": 11 players, so one of the three semifinals has 3 players.
        plans.append(SemifinalPlan((1,), _snake(range(2, 13), 3)))
    if players >= 10:
        plans.append(SemifinalPlan((1, 2), _snake(range(3, 11), 2)))
    return plans
