"""Reads that turn the database into the plain inputs of the seating optimiser and the scoring engine."""
from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import Prefetch

from scoring.formulas import FORMULAS
from scoring.model import MEDAL_PLACES
from tables import engine
from tables.models import Penalty, Round, Seat
from tournaments.models import Phase, Registration


def present_registrations(tournament):
    return list(tournament.registrations.filter(status=Registration.Status.CONFIRMED, present=True)
                .select_related("player", "player__club"))


def past_tables(tournament, before_round=None):
    """Tables of earlier rounds as lists of registration ids (strings), for `history`."""
    seats = Seat.objects.filter(table__round__tournament=tournament)
    if before_round is not None:
        seats = seats.filter(table__round__number__lt=before_round)
    tables = defaultdict(list)
    for table_id, reg_id in seats.order_by("table__round__number", "table__number", "position") \
            .values_list("table_id", "registration_id"):
        tables[table_id].append(str(reg_id))
    return list(tables.values())


def seating_request(*, tournament, number, method, seed, sizes=None, fixed_plan=None, pinned=None):
    """The JSON document of SEATING.md section 4 for the next round of `tournament`."""
    if fixed_plan:
        # A fixed plan (a phase's tables, an organiser's plan) seats exactly the players it names.
        named = {int(i) for table in fixed_plan for i in table}
        players = list(tournament.registrations.filter(pk__in=named).select_related("player", "player__club"))
    else:
        players = present_registrations(tournament)
    history = past_tables(tournament, before_round=number)
    ranks = {}
    if number > 1:
        result = tournament_standings(tournament)
        ranks = {row.registration_id: row.rank for row in result.rows}
    worst = len(players) + 1
    request = {
        "method": method,
        "table_size": tournament.table_size,
        "seed": seed,
        "time_limit_s": 1.0,
        "rounds_left": max(1, tournament.rounds_planned - number + 1),
        "players": [{"id": str(r.pk), "club": r.player.club.name if r.player.club else None,
                     "rank": ranks.get(r.pk, worst)} for r in players],
        # Seats at tables of the other size are counted by the optimiser from `history`.
        "history": history,
    }
    if sizes:
        request["sizes"] = list(sizes)
    if fixed_plan:
        request["plan"] = fixed_plan
    if pinned:
        request["pinned"] = pinned
    previous = previous_by_place(tournament, number - 1) if number > 1 else []
    if previous:
        # The greek method moves players on from these tables; every method keeps their winners apart.
        request["previous"] = previous
    return request


def previous_by_place(tournament, number):
    """The reported tables of round `number`, each as registration ids (strings) in place order,
    the winner first (SEATING.md sections 2 and 3.4)."""
    games, _totals = tournament_games(tournament)
    return [[str(seat.player) for seat in sorted(game.placement.seats, key=lambda seat: seat.rank)]
            for game in games if game.round == number]


def player_names(tournament):
    """{registration id (string): the player's full name}, for messages about a draw."""
    return {str(r.pk): r.player.full_name for r in tournament.registrations.select_related("player")}


def round_penalties(tournament, rnd, tables):
    """The penalty figures of a round's tables (from `round_with_tables`) as they are now."""
    rows = [[(s.registration_id, s.registration.player.club.name if s.registration.player.club else None)
             for s in t.seats.all()] for t in tables]
    return engine.evaluate_tables(rows, past_tables(tournament, before_round=rnd.number), tournament.table_size,
                                  method=rnd.method)


def round_with_tables(rnd):
    """A round's tables, each with its seats in order, players and clubs: one query per level."""
    seats = Seat.objects.select_related("registration__player__club").order_by("position")
    return list(rnd.tables.prefetch_related(Prefetch("seats", queryset=seats)).order_by("number"))


# The phases that decide the top places of the final standings and add no points (SCORING.md section 6).
FINAL_PHASES = (Phase.Kind.SEMIFINAL, Phase.Kind.FINAL, Phase.Kind.FINALINA)


@dataclass
class StandingRow:
    rank: int
    registration_id: int
    player: object
    club: str
    total: object
    rounds: list = field(default_factory=list)
    wins: int = 0
    medals: list | None = None
    penalties: object = None


@dataclass
class Standings:
    rows: list
    round_numbers: list
    provisional: bool
    formula: str

    @property
    def shows_medals(self):
        """Medagliere (SCORING.md 4.12): the counts of 1st to 5th places decide the order."""
        return self.formula == "medagliere"

    @property
    def medal_places(self):
        return list(range(1, MEDAL_PLACES + 1))

    @property
    def shows_wins(self):
        """Vittorie and triestino (SCORING.md 4.5, 4.6): wins come first in the order."""
        return self.formula in ("vittorie", "triestino")


def tournament_games(tournament, published_only=False):
    """Every reported table of the tournament as plain games for the engine, with penalties applied.

    A constant number of queries whatever the number of players."""
    seats = Seat.objects.filter(table__round__tournament=tournament, table__reported_at__isnull=False)
    if published_only:
        seats = seats.filter(table__round__standings_published_at__isnull=False)
    seats = list(seats
                 .values("id", "registration_id", "table_points", "risiko", "eliminated", "place",
                         "firenze", "table__number", "table__round__number"))
    penalties = list(Penalty.objects.filter(tournament=tournament, withdrawn=False)
                     .values("registration_id", "seat_id", "kind", "points", "void_past_results"))
    return engine.build_games(seats, penalties)


def standings_rounds(tournament, published_only=False):
    """The rounds whose games add points to the standings, as (number, status), oldest first.

    Every round counts except the semifinal and final tables: they decide the top places of the
    final standings (SCORING.md section 6) and add no points."""
    return [(number, status) for number, status, published, kind in
            tournament.rounds.order_by("number").values_list("number", "status", "standings_published_at",
                                                            "phase__kind")
            if kind not in FINAL_PHASES and (published is not None or not published_only)]


def tournament_standings(tournament, formula=None, published_only=False):
    """The standings of the tournament under its formula (or `formula`), from reported tables."""
    return standings_by_formula(tournament, [formula or tournament.formula], published_only)[
        formula or tournament.formula]


def standings_by_formula(tournament, formulas=None, published_only=False):
    """{formula: Standings} for several formulas, reading the database once."""
    regs = {r.pk: r for r in tournament.registrations.select_related("player", "player__club")}
    games, totals_penalties = tournament_games(tournament, published_only=published_only)
    rounds = standings_rounds(tournament, published_only)
    counted = {number for number, _status in rounds}
    games = [g for g in games if g.round in counted]
    return {formula: _standings(tournament, regs, games, totals_penalties, rounds, formula)
            for formula in (formulas or list(FORMULAS))}


def rank_after_each_round(tournament):
    """{registration id: [(round number, rank)]}: the standings as they stood after each round with
    results (the player's chart). Penalties not tied to a game count from the first round on."""
    regs = {r.pk: r for r in tournament.registrations.select_related("player", "player__club")}
    games, totals_penalties = tournament_games(tournament)
    rounds = standings_rounds(tournament)
    played = sorted({g.round for g in games} & {number for number, _status in rounds})
    history = defaultdict(list)
    for number in played:
        upto = [r for r in rounds if r[0] <= number]
        result = _standings(tournament, regs, [g for g in games if g.round <= number], totals_penalties, upto,
                            tournament.formula)
        for row in result.rows:
            history[row.registration_id].append((number, row.rank))
    return dict(history)


def _standings(tournament, regs, games, totals_penalties, rounds, formula):
    result = engine.score(tournament, games, formula=formula, total_penalties=totals_penalties)
    per_round = defaultdict(dict)
    for game in result.games:
        for reg_id, points in game.points.items():
            per_round[int(reg_id)][game.round] = points
    round_numbers = [n for n, _status in rounds]
    rows = []
    for row in result.standings:
        reg = regs[int(row.player)]
        rows.append(StandingRow(
            rank=row.rank, registration_id=reg.pk, player=reg.player,
            club=reg.player.club.name if reg.player.club else "", total=row.total,
            rounds=[per_round[reg.pk].get(n) for n in round_numbers], wins=row.wins or 0,
            medals=list(row.medals)))
    # Rows sharing a rank are listed by player name, then id: stable and readable (the machine
    # contract, `python -m scoring`, keeps the player id order of SCORING.md section 9).
    rows.sort(key=lambda r: (r.rank, r.player.last_name.casefold(), r.player.first_name.casefold(),
                             r.registration_id))
    provisional = any(status != Round.Status.CLOSED for _n, status in rounds)
    return Standings(rows=rows, round_numbers=round_numbers, provisional=provisional, formula=formula)


def next_table_to_enter(table):
    """After `table` is saved: the next table of its round without a result (then the first one), or None."""
    waiting = table.round.tables.filter(reported_at__isnull=True).exclude(pk=table.pk).order_by("number")
    return waiting.filter(number__gt=table.number).first() or waiting.first()


# --- what leads the standings ---------------------------------------------------------------

# What leads the page in a tournament with phases (after a final, the final order; a knockout's
# progress), provided by the app of tournament formats, which sits above this one.
_LEAD_PROVIDERS = []


def register_lead(provider):
    """`provider(tournament, published_only=False)` returns what leads the standings, or None."""
    if provider not in _LEAD_PROVIDERS:
        _LEAD_PROVIDERS.append(provider)


# The cut lines of a composed format during its qualifying evenings (final zone, semifinal zone,
# repêchage holders), provided by the app of tournament formats as well.
_CUT_LINE_PROVIDERS = []


def register_cut_lines(provider):
    """`provider(tournament)` returns the cut lines shown above the standings, or None."""
    if provider not in _CUT_LINE_PROVIDERS:
        _CUT_LINE_PROVIDERS.append(provider)


def standings_cut_lines(tournament):
    for provider in _CUT_LINE_PROVIDERS:
        lines = provider(tournament)
        if lines is not None:
            return lines
    return None


def standings_lead(tournament, published_only=False):
    """What leads the public standings (the final order, a knockout's progress), or None: the one
    entry for it, asked by the standings page, its JSON, the exports and the circuits."""
    for provider in _LEAD_PROVIDERS:
        lead = provider(tournament, published_only=published_only)
        if lead is not None:
            return lead
    return None
