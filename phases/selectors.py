"""Reads of tournament formats: each phase's rounds and state, qualifying and final standings."""
from collections import defaultdict
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db.models import Q
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from phases.presets import composition_tiers
from scoring.errors import ScoringError
from scoring.knockout import knockout_progress
from scoring.phases import knockout_order
from scoring.qualify import Candidate, qualify, rules_for, semifinal_table_count
from scoring.standings import final_classification
from tables import engine
from tables.models import Round
from tables.standings.selectors import present_registrations, standings_rounds, tournament_games
from tournaments.models import Phase, Registration


def phase_of(tournament, order):
    """The tournament's phase in this place of the order, else 404."""
    return get_object_or_404(Phase, tournament=tournament, order=order)


def phase_rounds(phase, phases=None):
    """The rounds of a phase, oldest first; the first phase also owns the rounds drawn without a phase,
    and the finalina is played in the final's round."""
    phases = phases if phases is not None else list(phase.tournament.phases.order_by("order"))
    if phase.kind == Phase.Kind.FINALINA:
        final = next((p for p in phases if p.kind == Phase.Kind.FINAL), None)
        return phase_rounds(final, phases) if final else []
    condition = Q(phase=phase)
    if phases and phase.pk == phases[0].pk:
        condition |= Q(phase__isnull=True)
    return list(Round.objects.filter(Q(tournament_id=phase.tournament_id) & condition).order_by("number"))


def phase_status(phase, rounds):
    """'waiting' (no round yet), 'playing' or 'done' (its rounds all played and closed)."""
    if not rounds:
        return "waiting"
    closed = sum(1 for r in rounds if r.status == Round.Status.CLOSED)
    if phase.kind == Phase.Kind.FINALINA:
        return "done" if closed == len(rounds) else "playing"
    return "done" if closed >= phase.rounds and closed == len(rounds) else "playing"


@dataclass
class PhaseView:
    phase: object
    rounds: list
    status: str
    current: object = None      # the round in play (draft or published), if any
    can_draw: bool = False

    @property
    def played(self):
        return sum(1 for r in self.rounds if r.status == Round.Status.CLOSED)


def phases_overview(tournament):
    """Every phase with its rounds and what the organiser can do next."""
    phases = list(tournament.phases.order_by("order"))
    views, earlier_done = [], True
    for phase in phases:
        rounds = phase_rounds(phase, phases)
        status = phase_status(phase, rounds)
        current = next((r for r in rounds if r.status != Round.Status.CLOSED), None)
        can_draw = (earlier_done and phase.kind != Phase.Kind.FINALINA and current is None
                    and status != "done")
        views.append(PhaseView(phase, rounds, status, current, can_draw))
        if phase.kind != Phase.Kind.FINALINA:
            earlier_done = earlier_done and status == "done"
    return views


def games_by_round(tournament, published_only=False):
    """Reported games by round number (engine Game objects), and the tournament-level penalties."""
    games, totals = tournament_games(tournament, published_only=published_only)
    by_round = defaultdict(list)
    for game in games:
        by_round[game.round].append(game)
    return by_round, totals


def qualifying_result(tournament, by_round=None, totals=None, published_only=False):
    """The engine's result of the rounds that add points (the semifinal and final tables do not)."""
    if by_round is None:
        by_round, totals = games_by_round(tournament, published_only=published_only)
    numbers = {number for number, _status in standings_rounds(tournament, published_only)}
    games = [g for n in sorted(by_round) if n in numbers for g in by_round[n]]
    return engine.score(tournament, games, total_penalties=totals)


def qualifying_standings(tournament, by_round=None, totals=None):
    """The engine's standings of the rounds that add points (the semifinal and final tables do not)."""
    return qualifying_result(tournament, by_round, totals).standings


def composition_of(tournament, phases=None):
    """A composed format's settings (SCORING.md section 12), or None."""
    phases = phases if phases is not None else list(tournament.phases.order_by("order"))
    return phases[0].settings.get("qualify") if phases else None


@dataclass
class Qualifying:
    rules: object            # scoring.qualify.QualifyRules that apply to this number of participants
    result: object           # scoring.qualify.Qualification
    standings: tuple         # the engine's standings rows
    games: dict              # player -> [game points of every qualifying game played, in round order]
    participants: int
    final_size: int

    @property
    def tables(self):
        return semifinal_table_count(self.rules, self.final_size) if self.rules.semifinal else 0


def qualifying_outcome(tournament, composition, *, present=None, by_round=None, totals=None,
                       published_only=False):
    """Who qualifies under a composed format (SCORING.md section 12, scoring.qualify.qualify):
    `present` = the ids of the players who can be seated (None: everyone, as during the evenings)."""
    result = qualifying_result(tournament, by_round, totals, published_only)
    games = defaultdict(list)
    for game in sorted(result.games, key=lambda g: (g.round, g.table)):
        for score in game.players:
            if not score.void:  # a forfeit is an absence, not a game (SCORING.md section 5)
                games[score.player].append(score.points)
    participants = len(result.standings)
    rules = rules_for(composition_tiers(composition), participants)
    candidates = [Candidate(row.rank, row.player, tuple(games[row.player]),
                            present=present is None or row.player in present) for row in result.standings]
    try:
        outcome = qualify(rules, candidates)
    except ScoringError as exc:
        raise ValidationError(str(exc)) from None
    return Qualifying(rules, outcome, result.standings, dict(games), participants, composition["final_size"])


def present_ids(tournament):
    return {r.pk for r in present_registrations(tournament)}


def winner_error(exc):
    return ValidationError(_("Table %(t)s of round %(r)s has no single winner: record the places at the "
                             "table to settle the tie.") % {"t": exc.table, "r": exc.round})


def phase_games(phase, phases, by_round):
    rounds = phase_rounds(phase, phases)
    return [g for r in rounds for g in by_round.get(r.number, [])]


def knockout_standing(phases, upto, by_round):
    """Who is still in before phase `upto`, and the losers waiting for a second chance."""
    stages = [(phase_games(p, phases, by_round), bool(p.settings.get("second_chance"))) for p in phases
              if p.order < upto.order and p.kind in (Phase.Kind.KNOCKOUT, Phase.Kind.SEMIFINAL)]
    try:
        return knockout_progress(stages)
    except ScoringError as exc:
        if exc.code == "knockout_tie":
            raise winner_error(exc) from None
        raise ValidationError(str(exc)) from None


@dataclass
class FinalRow:
    position: int
    registration: object
    phase: str           # "final", "finalina", "qualifying" (or the knockout game reached)
    qualifying_rank: int | None = None
    qualifying_total: object = None


@dataclass
class FinalStandings:
    rows: list
    complete: bool       # every phase is played and closed
    has_phases: bool


def final_standings(tournament):
    """SCORING.md section 6: the final table's order, then the finalina, then the qualifying order.
    Knockout: the final table, then by the game in which a player was knocked out (seed 004)."""
    phases = list(tournament.phases.order_by("order"))
    views = phases_overview(tournament)
    complete = bool(views) and all(v.status == "done" for v in views)
    by_round, totals = games_by_round(tournament)
    regs = {r.pk: r for r in tournament.registrations.select_related("player", "player__club")}
    final_phase = next((p for p in phases if p.kind == Phase.Kind.FINAL), None)
    final_round = phase_rounds(final_phase, phases)[-1:] if final_phase else []
    final_games = {g.table: g for r in final_round for g in by_round.get(r.number, [])}
    final_game = final_games.get(1)
    finalina_game = final_games.get(2) if any(p.kind == Phase.Kind.FINALINA for p in phases) else None
    knockout = any(p.kind == Phase.Kind.KNOCKOUT for p in phases)
    qualifying = {}
    if knockout:
        stages = [phase_games(p, phases, by_round) for p in phases
                  if p.kind in (Phase.Kind.KNOCKOUT, Phase.Kind.SEMIFINAL)]
        finalists = [s.player for s in final_game.placement.seats] if final_game else []
        order = knockout_order([s for s in stages if s], finalists)
    else:
        order = qualifying_standings(tournament, by_round, totals)
        qualifying = {row.player: row for row in order}
    try:
        classification = final_classification(order, final_game, finalina_game)
    except ScoringError as exc:
        raise ValidationError(str(exc)) from None
    rows = []
    for row in classification:
        q = qualifying.get(row.player)
        rows.append(FinalRow(row.position, regs[int(row.player)], row.phase,
                             q.rank if q else None, q.total if q else None))
    # Rows sharing a position are listed by name (the engine lists them by id).
    rows.sort(key=lambda r: (r.position, r.registration.player.last_name.casefold(),
                             r.registration.player.first_name.casefold(), r.registration.pk))
    return FinalStandings(rows, complete, bool(phases))
