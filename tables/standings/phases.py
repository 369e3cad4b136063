"""The standings of tournaments with phases (SCORING.md sections 6 and 12, seed 004 knockout): the
qualifying order and who qualifies, the final order, a knockout's progress. Read through
tables.standings.selectors; the app of tournament formats draws the phases from them."""
from collections import defaultdict
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.errors import ScoringError
from scoring.finals import finals_count, finals_standings, semifinal_groups
from scoring.knockout import knockout_progress, table_winner
from scoring.phases import knockout_order
from scoring.qualify import (Candidate, candidate_order, composition_tiers, decided_by, qualify, rules_for,
                             semifinal_table_count, unbeaten_rules)
from scoring.standings import final_classification
from tables import engine
from tables.models import Round, Seat, Table
from tables.standings.games import games_by_round, standings_rounds
from tournaments.models import Phase

KNOCKOUT_KINDS = (Phase.Kind.KNOCKOUT, Phase.Kind.SEMIFINAL, Phase.Kind.FINAL)


# --- the rounds of a phase ---------------------------------------------------------------------

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


def phase_games(phase, phases, by_round):
    rounds = phase_rounds(phase, phases)
    return [g for r in rounds for g in by_round.get(r.number, [])]


def final_round(phases):
    """The round of the final, once drawn, else None."""
    final = next((p for p in phases if p.kind == Phase.Kind.FINAL), None)
    rounds = phase_rounds(final, phases) if final else []
    return rounds[-1] if rounds else None


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
    """Every phase with its rounds (`phase_rounds`) and what the organiser can do next."""
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


@dataclass
class NextStep:
    """What the format does next, for the rounds page and the round dashboard.

    `kind`: "draw" (the next round of `view`'s phase can be seated: `label` names it as the format
    does), "play" (a round of the format is in play: finish it first), "done" (every phase is played),
    "free" (no format with phases: rounds are drawn one after the other)."""
    kind: str
    view: PhaseView | None = None
    label: str = ""
    # Whether a round drawn on the rounds page (a random draw of everyone present) is the format's
    # own next round (the first phase still has rounds to play), and, when it is not, why a round
    # outside the format cannot be drawn at all ("" when it can, with an explicit choice).
    draw_is_format: bool = True
    outside_refused: str = ""

    @property
    def phase(self):
        return self.view.phase if self.view else None


def _step_label(view, views):
    phase = view.phase
    if phase.kind == Phase.Kind.QUALIFYING:
        return _("%(phase)s: draw round %(k)d of %(total)d") % {"phase": phase.label, "k": view.played + 1,
                                                                   "total": phase.rounds}
    if phase.kind == Phase.Kind.SEMIFINAL:
        return _("Seat the semifinals")
    if phase.kind == Phase.Kind.FINAL:
        parallel = views[0].phase.settings.get("parallel_finals")
        semifinal = next((v.phase for v in views if v.phase.kind == Phase.Kind.SEMIFINAL), None)
        finals = semifinal.settings.get("finals", 1) if (parallel and semifinal) else 1
        if finals > 1:
            return _("Seat the %(k)d finals") % {"k": finals}
        finalina = any(v.phase.kind == Phase.Kind.FINALINA for v in views)
        return _("Seat the final and the finalina") if finalina else _("Seat the final")
    return _("Draw %(phase)s") % {"phase": phase.label}


def format_next_step(tournament, views=None):
    """The one thing the format does next (SCORING.md section 6, seed 004): another qualifying round
    while the format plans one, then the semifinals, the final, each knockout game."""
    if tournament.format_preset == "teams_2vs2":
        return NextStep("teams", label=_("A 2vs2 tournament plays the matches of its team schedule."),
                        draw_is_format=False,
                        outside_refused=_("A 2vs2 tournament plays the matches of its team schedule, not rounds "
                                          "of tables."))
    views = views if views is not None else phases_overview(tournament)
    if not views:
        return NextStep("free")
    knockout = any(v.phase.kind == Phase.Kind.KNOCKOUT for v in views)
    later_started = any(v.rounds for v in views[1:])
    refused = ""
    if knockout:
        refused = _("A knockout plays only its own games: each is seated by the format.")
    elif later_started:
        refused = _("%(phase)s: the phase has started, and a round outside the format would change the "
                    "qualifying standings it came from.") % {"phase": next(v.phase.label for v in views[1:] if v.rounds)}
    for view in views:
        if view.phase.kind == Phase.Kind.FINALINA or view.status == "done":
            continue
        if view.current is not None:
            return NextStep("play", view, draw_is_format=False, outside_refused=refused)
        if view.can_draw:
            first = view is views[0] and not knockout
            return NextStep("draw", view, _step_label(view, views), draw_is_format=first,
                            outside_refused="" if first else refused)
        break
    return NextStep("done", label=_("Every phase of the format is played."), draw_is_format=False,
                    outside_refused=refused)


def composed_summary(tournament):
    """A composed format's settings in words, one line a tier (SCORING.md section 12), restated on the
    format page once saved; [] for any other format."""
    composition = composition_of(tournament)
    if not composition:
        return []
    final_size = composition.get("final_size", 4)
    tiers = composition_tiers(composition)
    lines = []
    for i, tier in enumerate(tiers):
        rules, parts = tier.rules, []
        if rules.direct:
            parts.append(ngettext("the 1st straight to the final", "the top %(n)s straight to the final",
                                  rules.direct) % {"n": rules.direct})
        if rules.semifinal:
            tables = semifinal_table_count(rules, final_size)
            parts.append(ngettext("ranks %(a)s-%(b)s to %(t)s semifinal", "ranks %(a)s-%(b)s to %(t)s semifinals",
                                  tables) % {"a": rules.semifinal[0], "b": rules.semifinal[1], "t": tables})
        if rules.repechage_seats:
            parts.append(ngettext("%(n)s repêchage seat for the best single game",
                                  "%(n)s repêchage seats for the best single games",
                                  rules.repechage_seats) % {"n": rules.repechage_seats} + " (" +
                         ngettext("at least %(m)s game", "at least %(m)s games", rules.min_games)
                         % {"m": rules.min_games} + ")")
        if rules.unbeaten_semifinal:  # SCORING.md 13.8, the Master
            parts.append(_("when the 1st alone has won every game: straight to the final, ranks %(a)s-%(b)s to "
                           "%(t)s semifinals") % {"a": rules.unbeaten_semifinal[0], "b": rules.unbeaten_semifinal[1],
                                                 "t": semifinal_table_count(unbeaten_rules(rules), final_size)})
        parts.append(_("final of %(n)s") % {"n": final_size})
        if len(tiers) > 1:
            lead = (_("Up to %(n)s participants") % {"n": tier.up_to} if tier.up_to is not None
                    else _("Above %(n)s participants") % {"n": tiers[i - 1].up_to})
            lines.append(f"{lead}: {'; '.join(parts)}.")
        else:
            lines.append("; ".join(parts) + ".")
    return lines



def format_plan(tournament, phases=None):
    """The format's plan in words, one line a phase ("Qualifying rounds: 2 rounds", "Final of 4"), then
    a composed format's settings (`composed_summary`): shown before the first draw."""
    phases = phases if phases is not None else list(tournament.phases.order_by("order"))
    lines = []
    for phase in phases:
        if phase.kind == Phase.Kind.QUALIFYING:
            lines.append(ngettext("%(phase)s: %(n)d round", "%(phase)s: %(n)d rounds", phase.rounds)
                         % {"phase": phase.label, "n": phase.rounds})
        elif phase.kind == Phase.Kind.FINAL and phases[0].settings.get("parallel_finals"):
            lines.append(_("%(phase)s: 1 final up to 76 participants, 2 up to 116, 3 up to 156, 4 up to 196, 5 "
                           "above; each of the 4 winners of its own 4 semifinals") % {"phase": phase.label})
        elif phase.kind in (Phase.Kind.FINAL, Phase.Kind.FINALINA):
            lines.append(_("%(phase)s: %(n)d players") % {"phase": phase.label,
                                                           "n": phase.settings.get("size", 4)})
        else:
            lines.append(phase.label)
    return lines + composed_summary(tournament)


# --- the qualifying order ------------------------------------------------------------------------

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
    # SCORING.md 13.8 (the Master), which plan applied: "unbeaten" (the sole unbeaten leader straight to
    # the final), "base" (the semifinals of the base range), "fewer" (too few present for the base
    # plan's tables: the 1st present straight to the final anyway, see `_fewer_present`); "" without it.
    case: str = ""

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
                            present=present is None or row.player in present, wins=row.wins)
                  for row in result.standings]
    final_size = composition["final_size"]
    try:
        outcome = qualify(rules, candidates)
        case = ""
        if outcome.direct_if_unbeaten is not None:
            case = "unbeaten" if outcome.direct_if_unbeaten else "base"
            if outcome.direct_if_unbeaten:
                rules = unbeaten_rules(rules)
            elif _fewer_present(rules, outcome, final_size):
                rules = unbeaten_rules(rules)
                outcome = qualify(rules, candidates)
                case = "fewer"
    except ScoringError as exc:
        raise ValidationError(str(exc)) from None
    return Qualifying(rules, outcome, result.standings, dict(games), participants, final_size, case)


MIN_SEMIFINAL_TABLE = 3


def _fewer_present(rules, outcome, final_size):
    """The Master (SCORING.md 13.8) with too few players present for the base plan's semifinal tables
    of at least 3 (fewer than 12 for 4 semifinals): what a club does, as the two-day format of seed 004
    below 32 players, is send the 1st straight to the final and play the conditional plan's semifinals
    (3 of 2nd-13th) with whoever is present."""
    seats = len(outcome.semifinal) + len(outcome.repechage)
    return rules.semifinal is not None and seats < MIN_SEMIFINAL_TABLE * semifinal_table_count(rules, final_size)


@dataclass
class RepechageHolder:
    registration: object
    rank: int
    best: object          # the best single game (points)
    played: int           # games played (absences are not games)


@dataclass
class TieNote:
    """Two players equal where a line cuts (SCORING.md section 12): `ahead` goes on, `behind` does not,
    `by` = decided_by of their games (k-th best game, 0 more games played, None the standings order
    or, between players sharing a rank, the registration order)."""
    zone: str                 # "final", "semifinal", "repechage"
    ahead: object             # registration
    behind: object
    rank: int                 # their shared rank (final and semifinal); the holder's rank (repechage)
    best: object              # their equal best game (repechage)
    by: int | None


@dataclass
class CutLines:
    """Who would qualify if the qualifying evenings ended now (SCORING.md section 12)."""
    participants: int
    direct: int
    semifinal: tuple | None
    seats: int
    min_games: int
    tables: int
    final_zone: list          # registrations, best first
    semifinal_zone: list
    repechage: list           # RepechageHolder, in the order of choice
    zone: dict                # registration id -> "final" / "semifinal" / "repechage"
    ranks: dict = field(default_factory=dict)   # registration id -> rank, as the standings show it
    order: list = field(default_factory=list)   # registration ids in candidate order (ties decided)
    ties: list = field(default_factory=list)    # TieNote, where a line cuts between equal players


def cut_lines_of(tournament, outcome):
    """The cut lines of a composed format's qualifying outcome (`qualifying_outcome`)."""
    regs = {r.pk: r for r in tournament.registrations.select_related("player", "player__club")}
    ranks = {row.player: row.rank for row in outcome.standings}
    q, rules = outcome.result, outcome.rules
    zone = {**{p: "final" for p in q.final}, **{p: "semifinal" for p in q.semifinal},
            **{p: "repechage" for p in q.repechage}}
    holders = [RepechageHolder(regs[p], ranks[p], max(outcome.games[p]), len(outcome.games[p])) for p in q.repechage]
    return CutLines(outcome.participants, rules.direct, rules.semifinal, rules.repechage_seats, rules.min_games,
                    outcome.tables, [regs[p] for p in q.final], [regs[p] for p in q.semifinal], holders, zone,
                    ranks=ranks, order=list(q.order), ties=_tie_notes(regs, ranks, outcome, zone))


def _tie_notes(regs, ranks, outcome, zone):
    """Where a line falls between two players the standings cannot tell apart: the last one in and
    the first one out of the final and semifinal zones when they share a rank, and the last
    repêchage holder and the next player eligible when their best games are equal."""
    games = outcome.games
    q, rules = outcome.result, outcome.rules
    notes = []
    for name, inside, taken in (("final", q.final, set(q.final)),
                                ("semifinal", q.semifinal, set(q.final) | set(q.semifinal))):
        if not inside:
            continue
        last = inside[-1]
        after = q.order[q.order.index(last) + 1:]
        nxt = next((p for p in after if p not in taken and p not in q.absent), None)
        if nxt is not None and ranks[nxt] == ranks[last]:
            notes.append(TieNote(name, regs[last], regs[nxt], ranks[last], None,
                                 decided_by(games.get(last, ()), games.get(nxt, ()))))
    if q.repechage:
        last = q.repechage[-1]
        left = [p for p in q.order if zone.get(p) is None and p not in q.absent
                and len(games.get(p, ())) >= rules.min_games]
        # the next in the order of choice: best game, second best, ... (a longer list wins), then
        # candidate order (max keeps the first of equal ones)
        nxt = max(left, key=lambda p: sorted(games[p], reverse=True)) if left else None
        if nxt is not None and max(games[nxt]) == max(games[last]):
            notes.append(TieNote("repechage", regs[last], regs[nxt], ranks[last], max(games[last]),
                                 decided_by(games[last], games[nxt])))
    return notes


# --- knockout ------------------------------------------------------------------------------------

def winner_error(exc):
    return ValidationError(_("Table %(t)s of round %(r)s has no single winner: record the places at the "
                             "table to settle the tie.") % {"t": exc.table, "r": exc.round})


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
class KnockoutRow:
    registration: object
    still_in: bool
    phase: str                  # the phase reached (still in) or the one they went out in
    waiting_second_chance: bool = False
    position: int | None = None  # once the final is played (seed 004 knockout order)
    depth: int = 0               # index of that phase: later phases rank higher


def _knockout_states(tournament, phases, published_only=False):
    """{registration id: (phase index, phase, "won" / "lost" / "playing")} of the last knockout
    table each player sat at (`published_only`: of the rounds whose standings are published)."""
    by_round, _totals = games_by_round(tournament, published_only=published_only)
    last = {}
    for index, phase in enumerate(phases):
        if phase.kind not in KNOCKOUT_KINDS:
            continue
        for rnd in phase_rounds(phase, phases):
            if published_only and rnd.standings_published_at is None:
                continue
            games = {g.table: g for g in by_round.get(rnd.number, [])}
            winners = {}
            for number, game in games.items():
                try:
                    winners[number] = table_winner(game)
                except ScoringError:
                    continue
            for number, reg_id in Seat.objects.filter(table__round=rnd).values_list("table__number",
                                                                                     "registration_id"):
                state = "playing" if number not in winners else "won" if winners[number] == reg_id else "lost"
                last[reg_id] = (index, phase, state)
    return last


def knockout_rows(tournament, phases, final_rows=(), published_only=False):
    """Every player of the knockout: still in (and the phase reached) or out (and the phase lost)."""
    regs = {r.pk: r for r in tournament.registrations.select_related("player", "player__club")}
    positions = {row.registration.pk: row.position for row in final_rows}
    rows = []
    for reg_id, (index, phase, state) in _knockout_states(tournament, phases, published_only).items():
        following = phases[index + 1] if index + 1 < len(phases) else None
        waiting = (state == "lost" and following is not None and bool(following.settings.get("second_chance"))
                   and not phase.settings.get("second_chance"))
        still_in = state != "lost" or waiting
        if phase.kind == Phase.Kind.FINAL and state != "playing":
            still_in = False
        rows.append(KnockoutRow(regs[reg_id], still_in, phase.label, waiting, positions.get(reg_id), index))
    rows.sort(key=lambda r: (r.position or 10 ** 6, not r.still_in, -r.depth,
                             r.registration.player.last_name.casefold(),
                             r.registration.player.first_name.casefold(), r.registration.pk))
    return rows


# --- the final order -----------------------------------------------------------------------------

@dataclass
class FinalRow:
    position: int
    registration: object
    phase: str           # "final", "finalina", "qualifying" (or the knockout game reached)
    qualifying_rank: int | None = None
    qualifying_total: object = None
    final: int | None = None    # parallel finals (SCORING.md 13.9): which final, and the place in it
    place: int | None = None    # the place at the final (or finalina) table
    reached: str = ""           # "semifinal" for a player who sat at a semifinal and not at the final,
                                # though the qualifying order placed them (the Master): their stage

    @property
    def decided_words(self):
        """Which table decided the position, in words: "Final 2 · 1°", "Final · 3°", "Finalina · 2°",
        "Semifinal"; "" when the qualifying order did."""
        if self.final is not None:
            return _("Final %(n)d · %(place)d°") % {"n": self.final, "place": self.place}
        if self.phase == "final" and self.place is not None:
            return _("Final · %(place)d°") % {"place": self.place}
        if self.phase == "finalina" and self.place is not None:
            return _("Finalina · %(place)d°") % {"place": self.place}
        if self.phase == "semifinal":
            return _("Semifinal")
        return ""


@dataclass
class FinalStandings:
    rows: list
    complete: bool       # every phase is played and closed
    has_phases: bool


def final_standings(tournament):
    """SCORING.md section 6: the final table's order, then the finalina, then the qualifying order.
    Knockout: the final table, then by the game in which a player was knocked out (seed 004)."""
    phases = list(tournament.phases.order_by("order"))
    rounds = {p.pk: phase_rounds(p, phases) for p in phases}
    complete = bool(phases) and all(phase_status(p, rounds[p.pk]) == "done" for p in phases)
    by_round, totals = games_by_round(tournament)
    regs = {r.pk: r for r in tournament.registrations.select_related("player", "player__club")}
    if phases and phases[0].settings.get("parallel_finals"):
        return FinalStandings(_parallel_rows(tournament, phases, rounds, by_round, totals, regs), complete, True)
    final_phase = next((p for p in phases if p.kind == Phase.Kind.FINAL), None)
    final = rounds[final_phase.pk][-1:] if final_phase else []
    final_games = {g.table: g for r in final for g in by_round.get(r.number, [])}
    final_game = final_games.get(1)
    finalina_game = final_games.get(2) if any(p.kind == Phase.Kind.FINALINA for p in phases) else None
    knockout = any(p.kind == Phase.Kind.KNOCKOUT for p in phases)
    qualifying = {}
    if knockout:
        stages = [[g for r in rounds[p.pk] for g in by_round.get(r.number, [])] for p in phases
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
    at_final = sum(1 for row in classification if row.phase == "final")
    semifinalists = {s.id for p in phases if p.kind == Phase.Kind.SEMIFINAL for r in rounds[p.pk]
                     for g in by_round.get(r.number, []) for s in g.players}
    for row in classification:
        q = qualifying.get(row.player)
        place = row.position if row.phase == "final" else row.position - at_final if row.phase == "finalina" else None
        reached = "semifinal" if row.phase == "qualifying" and int(row.player) in semifinalists else ""
        rows.append(FinalRow(row.position, regs[int(row.player)], row.phase,
                             q.rank if q else None, q.total if q else None, place=place, reached=reached))
    # Rows sharing a position are listed by name (the engine lists them by id).
    rows.sort(key=lambda r: (r.position, r.registration.player.last_name.casefold(),
                             r.registration.player.first_name.casefold(), r.registration.pk))
    return FinalStandings(rows, complete, bool(phases))


# --- Raduno: parallel finals with shared ranks (SCORING.md 13.9) ---------------------------------

@dataclass
class ParallelPlan:
    """How many finals, for how many participants, and the semifinal groups (registration ids)."""
    finals: int
    participants: int
    groups: list


def parallel_groups(tournament, present, by_round=None, totals=None):
    """13.9.1: k finals by the participants (the players with a result in the qualifying rounds), and
    the first 16k present players in candidate order (SCORING.md section 12) dealt into k groups."""
    result = qualifying_result(tournament, by_round, totals)
    games = defaultdict(list)
    for game in sorted(result.games, key=lambda g: (g.round, g.table)):
        for score in game.players:
            if not score.void:
                games[score.player].append(score.points)
    candidates = [Candidate(row.rank, row.player, tuple(games[row.player]), present=row.player in present)
                  for row in result.standings]
    order = [c.player for c in candidate_order(candidates) if c.present]
    finals = finals_count(len(result.standings))
    return ParallelPlan(finals, len(result.standings), semifinal_groups(order, finals))


def _parallel_rows(tournament, phases, rounds, by_round, totals, regs):
    """13.9.2 once every final is reported: the finalists by their place (the same place of every final
    shares the rank), then the others by the standings of their qualifying games plus the semifinal
    they lost. Before that, the qualifying order."""
    qualifying = {row.player: row for row in qualifying_standings(tournament, by_round, totals)}
    final_phase = next(p for p in phases if p.kind == Phase.Kind.FINAL)
    final = rounds[final_phase.pk][-1:]
    finals = [g for r in final for g in by_round.get(r.number, [])]
    if not finals or len(finals) != Table.objects.filter(round__in=final).count():
        classification = final_classification(list(qualifying.values()), None)
        return [FinalRow(row.position, regs[int(row.player)], row.phase, qualifying[row.player].rank,
                         qualifying[row.player].total) for row in classification]
    semifinal_rounds = [r.number for p in phases if p.kind == Phase.Kind.SEMIFINAL for r in rounds[p.pk]]
    counted = {number for number, _status in standings_rounds(tournament)} | set(semifinal_rounds)
    games = [g for n in sorted(by_round) if n in counted for g in by_round[n]]
    semifinalists = {s.id for n in semifinal_rounds for g in by_round.get(n, []) for s in g.players}
    finalists = {s.id for g in finals for s in g.players}
    others, rank, previous = [], 0, None
    for i, row in enumerate(r for r in engine.score(tournament, games, total_penalties=totals).standings
                            if r.player not in finalists):
        if row.rank != previous:
            rank, previous = i + 1, row.rank
        others.append((rank, row.player))
    try:
        ranked = finals_standings(finals, others)
    except ScoringError as exc:
        raise ValidationError(str(exc)) from None
    rows = []
    for row in ranked:
        q = qualifying.get(row.player)
        phase = "final" if row.final is not None else "semifinal" if row.player in semifinalists else "qualifying"
        rows.append(FinalRow(row.rank, regs[int(row.player)], phase, q.rank if q else None,
                             q.total if q else None, row.final, row.place))
    rows.sort(key=lambda r: (r.position, r.registration.player.last_name.casefold(),
                             r.registration.player.first_name.casefold(), r.registration.pk))
    return rows


@dataclass
class FinalistRow:
    """A player of the semifinals while they are played, before the final's order leads: "finalist"
    (won their semifinal table, or `seeded` straight to the final), "out" (their place at the table)
    or "playing" (the table not reported yet)."""
    registration: object
    status: str
    table: int | None = None
    place: int | None = None
    seeded: bool = False


def semifinal_rows(tournament, phases, published_only=False):
    """Who goes to the final, live (provisional like any round): the players seeded straight to the final,
    then the semifinal tables' winners, then those still playing, then the others by table and place.
    [] when no semifinal is seated (`published_only`: none with its standings published)."""
    regs = None
    rows = []
    for phase in phases:
        if phase.kind != Phase.Kind.SEMIFINAL:
            continue
        rounds = [r for r in phase_rounds(phase, phases)
                  if r.status != Round.Status.DRAFT and (r.standings_published_at or not published_only)]
        if not rounds:
            continue
        regs = regs or {r.pk: r for r in tournament.registrations.select_related("player", "player__club")}
        rows += [FinalistRow(regs[pk], "finalist", seeded=True) for pk in phase.settings.get("seeded_to_final", [])
                 if pk in regs]
        by_round, _totals = games_by_round(tournament, published_only=published_only)
        for rnd in rounds:
            games = {g.table: g for g in by_round.get(rnd.number, [])}
            for table in rnd.tables.order_by("number").prefetch_related("seats"):
                game = games.get(table.number)
                try:
                    ranks = game.placement.ranks if game is not None else None
                except ScoringError:
                    ranks = None
                for seat in table.seats.all():
                    if ranks is None:
                        rows.append(FinalistRow(regs[seat.registration_id], "playing", table.number))
                    else:
                        place = ranks[seat.registration_id]
                        rows.append(FinalistRow(regs[seat.registration_id], "finalist" if place == 1 else "out",
                                                table.number, place))
    order = {"finalist": 0, "playing": 1, "out": 2}
    rows.sort(key=lambda r: (order[r.status], not r.seeded, r.table or 0, r.place or 0,
                             r.registration.player.last_name.casefold(), r.registration.pk))
    return rows


@dataclass
class StandingsLead:
    kind: str                   # "final", "knockout" or "semifinals" (played, the final's order not in yet)
    complete: bool              # every phase played and closed: the standings are definitive
    final_rows: list            # FinalRow, final order first
    knockout_rows: list
    final_round: object = None  # the round of the final, once reported
    semifinal_rows: list = field(default_factory=list)  # FinalistRow, while the semifinals lead

    @property
    def final_played(self):
        return bool(self.final_rows)
