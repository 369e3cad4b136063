"""Standings: the one place that turns the database into standings rows (ARCHITECTURE.md).

- individual standings under the tournament's formula or any other (`tournament_standings`,
  `standings_by_formula`, `rank_after_each_round`), from `games.tournament_games` through
  tables.engine.score;
- tournaments with phases (`phases`): the qualifying order and who qualifies (`qualifying_standings`,
  `qualifying_outcome`), the final order (`final_standings`), a knockout's progress
  (`knockout_standing`), and what leads the public standings (`standings_lead`, `standings_cut_lines`);
- 2vs2 teams (`teams`): the team table after each day (`team_standings`) and the state of each day
  (`team_days`);
- the national team championship (`championship`): the team table of club teams of 4, best 9 results
  (`championship_table`, `cached_championship_table`).

Pages, exports, the room, circuits and the app of tournament formats read standings from here."""
import copy
from collections import defaultdict
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext

from scoring.catalogue import CATALOGUE
from scoring.errors import ScoringError
from scoring.formulas import FORMULAS
from scoring.model import MEDAL_PLACES
from scoring.standings import not_counted
from scoring.tie_notes import tie_notes
from tables import engine
from tables.models import Dispute, Round
from tables.standings.championship import (ChampionshipRow, ChampionshipTable, cached_championship_table,
                                           championship_table)
from tables.standings.games import FINAL_PHASES, games_by_round, standings_rounds, tournament_games
from tables.standings.phases import (CutLines, FinalRow, FinalStandings, KnockoutRow, NextStep, ParallelPlan,
                                     PhaseView, Qualifying, RepechageHolder, StandingsLead, composed_summary,
                                     composition_of, cut_lines_of, final_round, final_standings, format_next_step,
                                     format_plan, knockout_rows, knockout_standing, parallel_groups, phase_games,
                                     phase_rounds, phase_status, phases_overview, qualifying_outcome, semifinal_rows,
                                     qualifying_standings, winner_error)
from tables.standings.teams import DayView, TeamRow, team_days, team_standings
from tournaments.club_presets import CLUB_PRESETS
from tournaments.models import Formula, Phase

NOT_READ = object()  # a `lead` argument not given: the function reads standings_lead itself

# The phases whose tables add no points and decide places (semifinals, finals, knockout games).
KNOCKOUT_PHASES = (Phase.Kind.SEMIFINAL, Phase.Kind.FINAL, Phase.Kind.FINALINA, Phase.Kind.KNOCKOUT)

__all__ = [
    # individual standings
    "FINAL_PHASES", "FormulaComparison", "StandingRow", "Standings", "formulas_compared", "games_by_round",
    "presets_compared", "side_by_side", "with_club_preset", "Moved", "WhatIf", "what_if",
    "rank_after_each_round", "rank_history", "PlayerOrder", "player_order",
    "standings_by_formula",
    "standings_rounds", "tournament_games", "tournament_standings",
    # tournaments with phases
    "CutLines", "FinalRow", "FinalStandings", "KnockoutRow", "Qualifying", "RepechageHolder", "StandingsLead",
    "composition_of", "final_standings", "knockout_standing", "phase_games", "phase_rounds", "phase_status",
    "qualifying_outcome", "qualifying_standings", "standings_cut_lines", "standings_lead", "winner_error",
    "ParallelPlan", "parallel_groups", "PhaseView", "phases_overview", "NextStep", "format_next_step", "format_plan",
    "composed_summary",
    # 2vs2 teams
    "DayView", "TeamRow", "team_days", "team_standings",
    # the national team championship
    "ChampionshipRow", "ChampionshipTable", "cached_championship_table", "championship_table",
    # whether the standings are final: every round closed and published, no dispute open or possible
    "dispute_deadline", "public_standings_status", "standings_are_final", "StandingsState", "standings_state",
]


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
    dropped: frozenset = frozenset()  # round numbers whose result does not count (discards, best of N)
    final: str = ""  # in the final order (the room's pages): the table that decided the rank, in words
    tie: object = None  # equal on the total with the row above, ranked below it: scoring.tie_notes.TieNote
    tie_ahead: object = None  # and the player above (a Player)


@dataclass
class Standings:
    rows: list
    round_numbers: list
    provisional: bool
    formula: str
    discard_worst: int = 0
    best_of: int | None = None

    @property
    def after_round(self):
        """The last round the standings count, None before any."""
        return self.round_numbers[-1] if self.round_numbers else None

    @property
    def drops_results(self):
        """Some results may not count in the total (SCORING.md 6: discards, best of N)."""
        return bool(self.discard_worst or self.best_of)

    @property
    def nothing_counts_yet(self):
        """Every result played so far is among the worst discarded (after round 1 under "discard the worst"):
        every total is 0 until round discard_worst + 1."""
        return bool(self.rows) and bool(self.discard_worst) and not self.best_of \
            and len(self.round_numbers) <= self.discard_worst

    @property
    def decimals(self):
        """The decimals points are shown with (SCORING.md 13.4: 3 under `millesimi`, else 2): pages,
        JSON, CSV and workbooks alike."""
        return FORMULAS[self.formula].decimals

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


def tournament_standings(tournament, formula=None, published_only=False):
    """The standings of the tournament under its formula (or `formula`), from reported tables."""
    return standings_by_formula(tournament, [formula or tournament.formula], published_only)[
        formula or tournament.formula]


def _inputs(tournament, published_only):
    """What every formula's standings are computed from: (registrations by id, the games of the rounds
    that count, tournament-level penalties, the rounds)."""
    regs = {r.pk: r for r in tournament.registrations.select_related("player", "player__club")}
    games, totals_penalties = tournament_games(tournament, published_only=published_only)
    rounds = standings_rounds(tournament, published_only)
    counted = {number for number, _status in rounds}
    return regs, [g for g in games if g.round in counted], totals_penalties, rounds


def standings_by_formula(tournament, formulas=None, published_only=False):
    """{formula: Standings} for several formulas (those a tournament may choose, if not given), reading the
    database once."""
    inputs = _inputs(tournament, published_only)
    return {formula: _standings(tournament, *inputs, formula) for formula in (formulas or Formula.values)}


@dataclass(frozen=True)
class FormulaComparison:
    """The standings under every formula of the engine that accepts the tournament's settings
    (`standings`: {formula: Standings}, in the engine's order) and, for the others, why not
    (`refused`: {formula: the engine's words}: `millesimi` has its own corrective, `maialino_2024`
    wants ties for first settled...)."""
    standings: dict
    refused: dict


def formulas_compared(tournament, formulas=None, published_only=False, inputs=None):
    """The tournament's results under each formula (the engine's, if not given), for the page comparing
    them and the snapshots a transfer is checked by."""
    inputs = inputs or _inputs(tournament, published_only)
    standings, refused = {}, {}
    for formula in formulas or FORMULAS:
        try:
            standings[formula] = _standings(tournament, *inputs, formula)
        except ScoringError as exc:
            refused[formula] = str(exc)
    return FormulaComparison(standings, refused)


def with_club_preset(tournament, preset):
    """A copy of `tournament`, never saved, with every setting of the club rule `preset` (SCORING.md 13.12)."""
    variant = copy.copy(tournament)
    for name, value in preset.tournament_settings.items():
        setattr(variant, name, value)
    return variant


def presets_compared(tournament, published_only=False, inputs=None):
    """The tournament's results under each club rule: its formula and settings applied to a copy of the
    tournament (`with_club_preset`); a rule the results do not suit is refused with the engine's words.
    FormulaComparison keyed by the club rule's key."""
    inputs = inputs or _inputs(tournament, published_only)
    standings, refused = {}, {}
    for key, preset in CLUB_PRESETS.items():
        try:
            standings[key] = _standings(with_club_preset(tournament, preset), *inputs, preset.formula)
        except ScoringError as exc:
            refused[key] = str(exc)
    return FormulaComparison(standings, refused)


@dataclass(frozen=True)
class Column:
    """One column of the side-by-side page: a formula, or a club rule (`preset`)."""
    key: str
    name: str
    preset: bool
    standings: Standings


def side_by_side(tournament, language, chosen=None):
    """The page comparing the current standings under every formula and every club rule: the columns
    (formulas in the engine's order, then the club rules, then the rule `chosen` for the what-if when it is
    not a published one: the organiser's own, or a draft), the rows in the order of the tournament's own
    formula with each column's rank, total and move, the podiums, and what was refused and why."""
    inputs = _inputs(tournament, False)
    formulas = formulas_compared(tournament, inputs=inputs)
    presets = presets_compared(tournament, inputs=inputs)
    columns = [Column(k, CATALOGUE[k].name.get(language), False, formulas.standings[k])
               for k in CATALOGUE if k in formulas.standings]
    columns += [Column(k, str(CLUB_PRESETS[k].name), True, st) for k, st in presets.standings.items()]
    refused_chosen = []
    if chosen is not None and chosen.key not in CLUB_PRESETS:
        try:
            columns.append(Column(chosen.key or "draft", str(chosen.name), True,
                                  _standings(with_club_preset(tournament, chosen), *inputs, chosen.formula)))
        except ScoringError as exc:
            refused_chosen.append((str(chosen.name), str(exc)))
    by_player = [{row.registration_id: row for row in column.standings.rows} for column in columns]
    rows = [{"player": row.player, "club": row.club,
             "cells": [{"rank": ranks[row.registration_id].rank, "total": ranks[row.registration_id].total,
                        "moved": ranks[row.registration_id].rank - row.rank, "decimals": column.standings.decimals}
                       for column, ranks in zip(columns, by_player)]}
            for row in formulas.standings[tournament.formula].rows]
    podiums = [{"key": c.key, "name": c.name, "preset": c.preset,
                "top": [r.player.full_name for r in c.standings.rows if r.rank <= 3][:3]} for c in columns]
    refused = [(CATALOGUE[k].name.get(language), reason) for k, reason in formulas.refused.items()]
    refused += [(str(CLUB_PRESETS[k].name), reason) for k, reason in presets.refused.items()] + refused_chosen
    return {"columns": columns, "rows": rows, "podiums": podiums, "refused": refused}


@dataclass(frozen=True)
class Moved:
    """A player whose rank a rule changes: where they stand now, and under the rule."""
    player: object
    club: str
    rank: int
    total: object
    new_rank: int
    new_total: object

    @property
    def move(self):
        """Places gained (positive) or lost (negative) under the rule."""
        return self.rank - self.new_rank


@dataclass(frozen=True)
class WhatIf:
    """The tournament's results replayed under a rule (`name`): the podium now and under the rule, every
    player whose rank moves (by their new rank), or the engine's words when the rule does not suit them."""
    name: str
    podium: list
    new_podium: list
    moved: list
    players: int
    decimals: int = 2
    new_decimals: int = 2
    refused: str = ""

    @property
    def podium_changed(self):
        return [p.pk for p in self.podium] != [p.pk for p in self.new_podium]


def what_if(tournament, preset, name=None):
    """The current results under the club rule `preset` (published, an organiser's own, or a draft
    never saved): scored on an unsaved copy of the tournament with every setting of the rule
    (`with_club_preset`), compared with the tournament's own standings."""
    inputs = _inputs(tournament, False)
    current = _standings(tournament, *inputs, tournament.formula)
    name = str(name or preset.name)
    podium = [r.player for r in current.rows if r.rank <= 3][:3]
    try:
        replayed = _standings(with_club_preset(tournament, preset), *inputs, preset.formula)
    except ScoringError as exc:
        return WhatIf(name, podium, [], [], len(current.rows), current.decimals, refused=str(exc))
    now = {row.registration_id: row for row in current.rows}
    moved = [Moved(row.player, row.club, now[row.registration_id].rank, now[row.registration_id].total,
                   row.rank, row.total)
             for row in replayed.rows if row.rank != now[row.registration_id].rank]
    return WhatIf(name, podium, [r.player for r in replayed.rows if r.rank <= 3][:3], moved, len(current.rows),
                  current.decimals, replayed.decimals)


def dispute_deadline(tournament):
    """Disputes are accepted until this moment (seed 001 art. 2: 2 hours after publication)."""
    last = (Round.objects.filter(tournament=tournament, standings_published_at__isnull=False)
            .order_by("-standings_published_at").values_list("standings_published_at", flat=True).first())
    return Dispute.window_closes(tournament, last)


def standings_are_final(tournament, now=None):
    return standings_state(tournament, now=now).is_final


@dataclass(frozen=True)
class StandingsState:
    """The one status of a tournament's order, read by every page, the widget, the JSON and the exports:
    "provisional" (a round is open or its standings are not published), "window" (everything played and
    published: definitive once the dispute window closes at `window_closes`, or once the open disputes
    are decided, `disputes_open`) or "final" (nothing can change it any more)."""
    state: str
    window_closes: object = None
    disputes_open: bool = False

    @property
    def is_final(self):
        return self.state == "final"

    @property
    def key(self):
        """What a rendering of the status depends on, for the cache's keys."""
        return f"{self.state}-disputes" if self.disputes_open else self.state

    @property
    def words(self):
        """The status in words, the same on every page."""
        if self.state == "final":
            return gettext("Standings final")
        if self.state == "window" and self.disputes_open:
            return gettext("A dispute is open: definitive once it is decided")
        if self.state == "window" and self.window_closes is not None:
            return gettext("Definitive at %(when)s unless a dispute is raised") % {
                "when": date_format(timezone.localtime(self.window_closes), "H:i")}
        return gettext("Provisional standings")


def standings_state(tournament, provisional=False, now=None):
    """The tournament's StandingsState (`provisional`: a round still open, known to the caller without
    asking the database again)."""
    if provisional:
        return StandingsState("provisional")
    now = now or timezone.now()
    rounds = list(Round.objects.filter(tournament=tournament).values_list("status", "standings_published_at"))
    if not rounds or any(status != Round.Status.CLOSED or published is None for status, published in rounds):
        return StandingsState("provisional")
    phases = list(tournament.phases.order_by("order")) if tournament.format_preset else []
    if any(phase_status(p, phase_rounds(p, phases)) != "done" for p in phases):
        return StandingsState("provisional")  # the semifinals or the final still to play
    disputes_open = Dispute.objects.filter(tournament=tournament, state=Dispute.State.OPEN).exists()
    deadline = dispute_deadline(tournament)
    if not disputes_open and deadline is not None and now >= deadline:
        return StandingsState("final", deadline)
    return StandingsState("window", deadline, disputes_open)


def public_standings_status(tournament, standings, live=False, state=None):
    """What the standings read by a club website are: "provisional" (`live`: every result entered so
    far), "published" (the rounds whose standings the organiser published) or "final" (`state`: the
    tournament's StandingsState, when the caller has it)."""
    if live and standings.provisional:
        return "provisional"
    if standings.after_round is not None and (state or standings_state(tournament)).is_final:
        return "final"
    return "provisional" if live else "published"


def rank_history(tournament, reg_id, lead=NOT_READ):
    """[(round number, rank)] of the player after each round with results (`lead`: standings_lead's,
    when the caller has it)."""
    return rank_after_each_round(tournament, lead).get(reg_id, [])


def rank_after_each_round(tournament, lead=NOT_READ):
    """{registration id: [(round number, rank)]}: the standings as they stood after each round with
    results (the player's chart), and once the final is reported, each player's place in the final order
    after the final's round (`standings_lead`, what every page leads with). Penalties not tied to a game
    count from the first round on."""
    history = _qualifying_rank_history(tournament)
    lead = standings_lead(tournament) if lead is NOT_READ else lead
    if lead is not None and lead.final_rows and lead.final_round is not None:
        for row in lead.final_rows:
            history.setdefault(row.registration.pk, []).append((lead.final_round.number, row.position))
    return history


@dataclass
class PlayerOrder:
    """A player in the order every page leads with: `position` in the final order once it leads (None
    before), `decided` the table that decided it in words ("Final · 1°"), `places` {round number:
    (round label, place at the table)} of the semifinal, final and knockout games reported."""
    position: int | None = None
    decided: str = ""
    places: dict = field(default_factory=dict)


def player_order(tournament, reg_id, lead=NOT_READ):
    """The player's PlayerOrder: the same final order as the standings page, big screen and JSON
    (`lead`: standings_lead's, when the caller has it)."""
    order = PlayerOrder()
    if not tournament.format_preset:
        return order
    lead = standings_lead(tournament) if lead is NOT_READ else lead
    row = next((r for r in lead.final_rows if r.registration.pk == reg_id), None) if lead else None
    if row is not None:
        order.position, order.decided = row.position, row.decided_words
    later = {r.number: r for r in Round.objects.filter(tournament=tournament, phase__kind__in=KNOCKOUT_PHASES,
                                                       tables__seats__registration_id=reg_id)
             .select_related("phase")}
    if later:
        by_round, _totals = games_by_round(tournament)
        for number, rnd in later.items():
            for game in by_round.get(number, []):
                try:
                    ranks = game.placement.ranks
                except ScoringError:
                    continue
                if reg_id in ranks:
                    order.places[number] = (rnd.phase.label, ranks[reg_id])
    return order


def _qualifying_rank_history(tournament):
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
    notes = {int(n.behind): n for n in tie_notes(result.standings, result.params.tiebreak,
                                                  FORMULAS[formula].decimals, FORMULAS[formula].ranking)}
    rows = []
    for row in result.standings:
        reg = regs[int(row.player)]
        note = notes.get(reg.pk)
        rows.append(StandingRow(
            rank=row.rank, registration_id=reg.pk, player=reg.player,
            club=reg.player.club.name if reg.player.club else "", total=row.total,
            rounds=[per_round[reg.pk].get(n) for n in round_numbers], wins=row.wins or 0,
            medals=list(row.medals), dropped=_not_counted(row.counted, per_round[reg.pk]),
            tie=note, tie_ahead=regs[int(note.ahead)].player if note else None))
    # Rows sharing a rank are listed by player name, then id: stable and readable (the machine
    # contract, `python -m scoring`, keeps the player id order of SCORING.md section 9).
    rows.sort(key=lambda r: (r.rank, r.player.last_name.casefold(), r.player.first_name.casefold(),
                             r.registration_id))
    provisional = any(status != Round.Status.CLOSED for _n, status in rounds)
    return Standings(rows=rows, round_numbers=round_numbers, provisional=provisional, formula=formula,
                     discard_worst=tournament.discard_worst, best_of=tournament.best_of)


def _not_counted(counted, played):
    """The rounds whose result does not count (scoring.standings.not_counted)."""
    return not_counted(counted, played)


# --- what leads the standings ---------------------------------------------------------------

def standings_lead(tournament, published_only=False):
    """What leads the public standings in a tournament with phases (SCORING.md 4.13 and section 6), or
    None when the plain standings say it all: after a final (or finalina), the final order; in a
    knockout, who is still in and in which game each player went out, never a points ranking of the
    knockout games. The one entry for it, asked by the standings page, its JSON, the exports and the
    circuits. `published_only` (the JSON of club websites): the final counts once its standings are
    published, the knockout shows the rounds whose standings are published."""
    if not tournament.format_preset:
        return None  # phases come only with a format
    phases = list(tournament.phases.order_by("order"))
    knockout = any(p.kind == Phase.Kind.KNOCKOUT for p in phases)
    if not knockout and not any(p.kind == Phase.Kind.FINAL for p in phases):
        return None
    try:
        result = final_standings(tournament)
    except ValidationError:
        result = None  # a table still to settle: the page shows the standings until it is
    final_rows = list(result.rows) if result and any(r.phase in ("final", "finalina") for r in result.rows) else []
    final = final_round(phases) if final_rows else None
    if published_only and final is not None and final.standings_published_at is None:
        final_rows, final = [], None
    complete = bool(result and result.complete and final_rows)
    if knockout:
        return StandingsLead("knockout", complete, final_rows,
                             knockout_rows(tournament, phases, final_rows, published_only), final)
    if not final_rows:
        semifinals = semifinal_rows(tournament, phases, published_only)
        return StandingsLead("semifinals", False, [], [], semifinal_rows=semifinals) if semifinals else None
    return StandingsLead("final", complete, final_rows, [], final)


def standings_cut_lines(tournament):
    """The cut lines shown above the standings while a composed format's qualifying evenings are played
    (SCORING.md section 12: final zone, semifinal zone, repêchage holders); None otherwise (no composed
    format, no result yet, or the semifinals or the final already seated)."""
    if not tournament.format_preset:
        return None  # phases come only with a format
    phases = list(tournament.phases.order_by("order"))
    composition = composition_of(tournament, phases)
    if not composition:
        return None
    if Round.objects.filter(tournament=tournament, phase__kind__in=[Phase.Kind.SEMIFINAL, Phase.Kind.FINAL]).exists():
        return None
    try:
        outcome = qualifying_outcome(tournament, composition)
    except ValidationError:
        return None
    if not outcome.standings:
        return None
    return cut_lines_of(tournament, outcome)


def final_to_play(tournament):
    """A final planned and not closed yet: the standings page keeps refreshing until its order is in."""
    return bool(tournament.format_preset) and (
        tournament.phases.filter(kind="final").exists()
        and not tournament.rounds.filter(phase__kind="final", status=Round.Status.CLOSED).exists())
