"""Tournament formats: phase presets, qualification, phase tables, knockout advancement, final standings.

Seed 004 ("Formule per un Torneo Ufficiale", semifinal guidance, "eliminazione diretta"), seed 000
(Como, rules 3-5), seed 003 (the table winner advances). Services write with an audit entry in the
same transaction; rounds are created by tables.services.round_create: ordinary draws for
qualifying rounds and the first knockout game, method "fixed" with the tables computed here for
every later phase. Rounds drawn without a phase (from the Rounds page) belong to the first phase.
"""
from collections import defaultdict
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.errors import ScoringError
from scoring.knockout import knockout_phase, table_winner
from scoring.phases import Stage, draw_tables, knockout_order, knockout_stages, knockout_table_sizes, semifinal_tables
from scoring.standings import final_classification, semifinal_plans
from tables import engine
from tables import services as table_services
from tables.models import Round
from tables.selectors import tournament_games
from tournaments.audit import audit
from tournaments.models import END_ROLL_VARIANTS, Phase, Registration, Tournament

FINAL_SIZE = 4  # seed 004: "una finale fra i primi 4 della classifica"; the finalina takes 5th-8th
COMO_MIN_PRESENT_FOR_TOP_TABLE = 9  # seed 000 rule 4


@dataclass(frozen=True)
class Preset:
    """What a format of seed 004 / 000 / 001 sets up. Ranges bound the organiser's choices."""
    games: int = 0
    games_range: tuple = (0, 0)
    discards: int = 0
    discards_range: tuple = (0, 0)
    final: str = "no"            # "no", "yes" or "optional"
    finalina: bool = False       # a finalina (5th-8th) may be added beside the final
    semifinals: bool = False
    knockout: bool = False
    second_chance: bool = False
    teams: bool = False
    tournament_settings: dict = field(default_factory=dict)
    help: str = ""


PRESETS = {
    "sum3": Preset(3, (3, 3), 0, (0, 1), help=gettext_lazy(
        "Seed 004, one-day tournaments: 3 games, points summed; optionally only the 2 best count (1 discard).")),
    "sum3_final": Preset(3, (3, 3), 0, (0, 1), final="yes", help=gettext_lazy(
        "Seed 004: 3 games, then a final among the top 4 of the standings.")),
    "semis16": Preset(2, (2, 2), final="yes", semifinals=True,
                      tournament_settings={"formula": "bonus50"}, help=gettext_lazy(
        "Seed 004, two-day tournaments: 2 games (table points + bonus 50), semifinals of the top 16, final. "
        "With fewer than 32 players: the 1st straight to the final and 3 semifinals of 2nd-12th, or the top 2 "
        "and 2 semifinals of 3rd-10th; one finalist per semifinal.")),
    "evenings_final": Preset(5, (4, 6), 1, (1, 2), final="yes", finalina=True, help=gettext_lazy(
        "Seed 004, a few evenings: 4 to 6 games with 1 or 2 discards, a final of the top 4 and optionally a "
        "finalina of 5th-8th.")),
    "championship": Preset(8, (8, 30), 2, (2, 10), final="optional", help=gettext_lazy(
        "Seed 004, championship: at least 8 evenings, at least 2 discards, optionally a final of the top 4.")),
    "knockout": Preset(knockout=True, help=gettext_lazy(
        "Seed 004, knockout without second chance (64-125 players): only the table winners go on, "
        "semifinals, final.")),
    "knockout_second_chance": Preset(knockout=True, second_chance=True, help=gettext_lazy(
        "Seed 004, knockout with second chance (37-69 players): the losers of the first game play a second "
        "one; the winners of both go to the semifinals, then the final.")),
    "como": Preset(4, (4, 4), tournament_settings={
        "formula": "punti_tavolo", "best_of": 3, "como_reference": 5, "table_size": 5,
        "tiebreak": "best_results", "discard_worst": 0}, help=gettext_lazy(
        "Seed 000: 4 evenings at tables of 5; table 1 = the top 5 of the standings when at least 9 are "
        "present; correctives 3/5, 4/5, 6/5; the best 3 results count; ties by best, then second-best "
        "result.")),
    "teams_2vs2": Preset(teams=True, help=gettext_lazy(
        "Seed 001: teams of 2 (up to 3 registered) in a single round robin; match points 3/2/1/0.")),
}

TOURNAMENT_FORMAT_FIELDS = ("format_preset", "rounds_planned", "discard_worst", "best_of", "como_reference",
                            "table_size", "formula", "tiebreak")


def _snapshot(tournament):
    return {name: getattr(tournament, name) for name in TOURNAMENT_FORMAT_FIELDS}


def _knockout_specs(stages, games_before=0, continuing=False):
    """Phases of knockout stages (scoring.phases.Stage); when `continuing` after games already played,
    the last game before the final is the semifinal."""
    specs, game = [], games_before
    for i, stage in enumerate(stages):
        kind = stage.kind
        if continuing and kind == "knockout" and i == len(stages) - 2:
            kind = "semifinal"
        if kind == "knockout":
            game += 1
            specs.append((Phase.Kind.KNOCKOUT, _("Knockout game %(n)d") % {"n": game}, 1, {}))
        elif kind == "second_chance":
            specs.append((Phase.Kind.KNOCKOUT, _("Second chance"), 1, {"second_chance": True}))
        elif kind == "semifinal":
            specs.append((Phase.Kind.SEMIFINAL, _("Semifinals"), 1, {}))
        else:
            specs.append((Phase.Kind.FINAL, _("Final"), 1, {"size": stage.players}))
    return specs


def _phase_specs(preset, *, games, final, finalina, players, table_size):
    """(kind, name, rounds, settings) of each phase of a preset, in order."""
    spec = PRESETS[preset]
    if spec.teams:
        return []
    if spec.knockout:
        try:
            stages = knockout_stages(players, table_size, second_chance=spec.second_chance)
        except ScoringError:
            raise ValidationError(_("With %(n)d players a knockout does not end with a final table of 3 to 6: "
                                    "register more players.") % {"n": players}) from None
        return _knockout_specs(stages)
    specs = [(Phase.Kind.QUALIFYING, _("Evenings") if preset == "como" else _("Qualifying rounds"), games, {})]
    if spec.semifinals:
        specs.append((Phase.Kind.SEMIFINAL, _("Semifinals"), 1, {}))
    if final:
        specs.append((Phase.Kind.FINAL, _("Final"), 1, {"size": FINAL_SIZE}))
        if finalina:
            # Played beside the final, at table 2 of the same round.
            specs.append((Phase.Kind.FINALINA, _("Finalina (5th-8th)"), 0, {"size": FINAL_SIZE, "table": 2}))
    return specs


@transaction.atomic
def format_apply(*, user, tournament, preset, games=None, discards=None, final=True, finalina=False):
    """Set a tournament's format and build its phases (seed 004 formats, seed 000 Como, seed 001 teams).

    Allowed until a round of a later phase (semifinal, final, knockout) or a team match exists; rounds
    already played stay as rounds of the first phase."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if preset not in PRESETS:
        raise ValidationError({"preset": _("Choose a format.")})
    spec = PRESETS[preset]
    if Round.objects.filter(tournament=tournament, phase__isnull=False).exclude(
            phase__kind=Phase.Kind.QUALIFYING).exists():
        raise ValidationError(_("Phases after the qualifying rounds have started: the format can no longer "
                                "change."))
    if tournament.team_matches.exists():
        raise ValidationError(_("The team schedule is made: the format can no longer change."))
    games = spec.games if games is None else games
    discards = spec.discards if discards is None else discards
    low, high = spec.games_range
    if not spec.knockout and not spec.teams and not low <= games <= high:
        raise ValidationError({"games": _("This format plays %(low)d to %(high)d games.") % {"low": low, "high": high}})
    low, high = spec.discards_range
    if not low <= discards <= min(high, max(games - 1, 0)):
        raise ValidationError({"discards": _("This format discards %(low)d to %(high)d results.")
                               % {"low": low, "high": min(high, max(games - 1, 0))}})
    final = spec.final == "yes" or (spec.final == "optional" and final)
    finalina = bool(finalina and spec.finalina and final)
    before = _snapshot(tournament)
    settings = dict(spec.tournament_settings)
    if not spec.knockout and not spec.teams:
        settings.setdefault("discard_worst", discards)
        settings["rounds_planned"] = games
    elif spec.knockout:
        settings.update(discard_worst=0, best_of=None)
    if preset != "como":
        settings.setdefault("best_of", None)
        settings.setdefault("como_reference", None)
    # A knockout is planned for the players checked in (or, before check-in, those registered).
    players = len(_present_ids(tournament)) or \
        tournament.registrations.filter(status=Registration.Status.CONFIRMED).count()
    table_size = settings.get("table_size", tournament.table_size)
    specs = _phase_specs(preset, games=games, final=final, finalina=finalina, players=players,
                         table_size=table_size)
    if spec.knockout:
        settings["rounds_planned"] = len(specs)
    Round.objects.filter(tournament=tournament).update(phase=None)
    tournament.phases.all().delete()
    Phase.objects.bulk_create([
        Phase(tournament=tournament, order=i, kind=kind, name=name, rounds=rounds, settings=phase_settings)
        for i, (kind, name, rounds, phase_settings) in enumerate(specs, start=1)])
    tournament.format_preset = preset
    for name, value in settings.items():
        setattr(tournament, name, value)
    tournament.full_clean()
    tournament.save(update_fields=list(TOURNAMENT_FORMAT_FIELDS))
    audit(user=user, action="format.apply", obj=tournament, tournament=tournament, before=before,
          after={**_snapshot(tournament), "phases": [name for _k, name, _r, _s in specs]})
    return tournament


@transaction.atomic
def end_roll_variant_set(*, user, tournament, variant):
    """SCORING.md section 10: which sums end a timed game (standard, "or less", Lariana, Firenze)."""
    if variant not in dict(END_ROLL_VARIANTS):
        raise ValidationError({"variant": _("Choose a variant.")})
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    before = tournament.end_roll_variant
    tournament.end_roll_variant = variant
    tournament.save(update_fields=["end_roll_variant"])
    audit(user=user, action="format.end_roll", obj=tournament, tournament=tournament,
          before={"end_roll_variant": before}, after={"end_roll_variant": variant})
    return tournament


# --- reading phases ------------------------------------------------------------------------------

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


def qualifying_round_numbers(tournament):
    return set(Round.objects.filter(tournament=tournament).filter(
        Q(phase__isnull=True) | Q(phase__kind=Phase.Kind.QUALIFYING)).values_list("number", flat=True))


def _games(tournament):
    """Reported games by round number (engine Game objects), and the tournament-level penalties."""
    games, totals = tournament_games(tournament)
    by_round = defaultdict(list)
    for game in games:
        by_round[game.round].append(game)
    return by_round, totals


def qualifying_standings(tournament, by_round=None, totals=None):
    """The standings of the qualifying rounds only (the semifinal and final tables do not add points)."""
    if by_round is None:
        by_round, totals = _games(tournament)
    numbers = qualifying_round_numbers(tournament)
    games = [g for n in sorted(by_round) if n in numbers for g in by_round[n]]
    return engine.score(tournament, games, total_penalties=totals).standings


def _present_ids(tournament):
    return set(tournament.registrations.filter(status=Registration.Status.CONFIRMED, present=True)
               .values_list("pk", flat=True))


def _winner_error(exc):
    return ValidationError(_("Table %(t)s of round %(r)s has no single winner: record the places at the "
                             "table to settle the tie.") % {"t": exc.table, "r": exc.round})


def _phase_games(phase, phases, by_round):
    rounds = phase_rounds(phase, phases)
    return [g for r in rounds for g in by_round.get(r.number, [])]


def _knockout_progress(phases, upto, by_round):
    """Who is still in before phase `upto`, and the losers waiting for a second chance."""
    advancing, waiting, first_games = None, [], None
    for phase in phases:
        if phase.order >= upto.order or phase.kind not in (Phase.Kind.KNOCKOUT, Phase.Kind.SEMIFINAL):
            continue
        games = _phase_games(phase, phases, by_round)
        try:
            if phase.settings.get("second_chance"):
                outcome = knockout_phase(first_games, games, with_second_chance=True)
                advancing, waiting = list(outcome.advancing), []
            else:
                outcome = knockout_phase(games, with_second_chance=True)
                advancing, waiting, first_games = list(outcome.advancing), list(outcome.second_chance), games
        except ScoringError as exc:
            if exc.code == "knockout_tie":
                raise _winner_error(exc) from None
            raise ValidationError(str(exc)) from None
    return advancing or [], waiting


def _knockout_replan(*, user, tournament, phases, phase, by_round):
    """Before seating a knockout game after the first: fit the phases from here to the final to the
    players actually left (absences change the number of tables, hence of winners). Phases without
    rounds are rebuilt only when the plan changes; returns the phase to seat now."""
    advancing, waiting = _knockout_progress(phases, phase, by_round)
    count = len(advancing)
    waiting = waiting if phase.settings.get("second_chance") else []
    stages = []
    if len(waiting) >= 3:
        tables = len(knockout_table_sizes(len(waiting), tournament.table_size, offset=count))
        stages.append(Stage("second_chance", len(waiting), tables))
        count += tables
    try:
        stages += knockout_stages(count, tournament.table_size)
    except ScoringError:
        raise ValidationError(_("%(n)d players are left: a knockout cannot go on to a final table of 3 to 6.")
                              % {"n": count}) from None
    games_before = sum(1 for p in phases if p.order < phase.order and p.kind == Phase.Kind.KNOCKOUT
                       and not p.settings.get("second_chance"))
    specs = _knockout_specs(stages, games_before, continuing=True)
    later = [p for p in phases if p.order >= phase.order]
    if [(p.kind, p.name, p.settings) for p in later] == [(k, n, st) for k, n, _r, st in specs]:
        return phase
    Phase.objects.filter(pk__in=[p.pk for p in later]).delete()
    Phase.objects.bulk_create([
        Phase(tournament=tournament, order=phase.order + i, kind=kind, name=name, rounds=rounds, settings=st)
        for i, (kind, name, rounds, st) in enumerate(specs)])
    audit(user=user, action="phase.replan", obj=tournament, tournament=tournament,
          before={"phases": [p.name for p in later]}, after={"phases": [name for _k, name, _r, _s in specs],
                                                             "players_left": len(advancing) + len(waiting)})
    return Phase.objects.get(tournament=tournament, order=phase.order)


def _entrants_tables(tournament, phase, phases, *, plan_choice=0, seed=0):
    """The tables of a phase after the first one, and what to remember in its settings."""
    by_round, totals = _games(tournament)
    previous = [p for p in phases if p.order < phase.order and p.kind != Phase.Kind.FINALINA]
    prior = previous[-1]
    knockout = any(p.kind == Phase.Kind.KNOCKOUT for p in phases)
    present = _present_ids(tournament)
    remember = {}
    if knockout:
        advancing, waiting = _knockout_progress(phases, phase, by_round)
        second_chance = phase.settings.get("second_chance", False)
        entrants = waiting if second_chance else advancing
        if phase.kind == Phase.Kind.FINAL or len(entrants) < 3:
            tables = [entrants]
        else:
            tables = draw_tables(entrants, tournament.table_size, seed, offset=len(advancing) if second_chance else 0)
        return tables, remember
    order = [row.player for row in qualifying_standings(tournament, by_round, totals) if row.player in present]
    if phase.kind == Phase.Kind.SEMIFINAL:
        plans = semifinal_plans(len(order))
        if not plans:
            raise ValidationError(_("Semifinals need at least 10 players present; with fewer, play the final "
                                    "directly."))
        choice = min(max(plan_choice, 0), len(plans) - 1)
        seeded, tables = semifinal_tables(order, plans[choice])
        remember = {"plan": choice, "seeded_to_final": seeded}
        return tables, remember
    # The final (and the finalina beside it).
    size = phase.settings.get("size", FINAL_SIZE)
    if prior.kind == Phase.Kind.SEMIFINAL:
        games = _phase_games(prior, phases, by_round)
        try:
            winners = [table_winner(g) for g in games]
        except ScoringError as exc:
            raise _winner_error(exc) from None
        finalists = list(prior.settings.get("seeded_to_final", [])) + winners
    else:
        finalists = order[:size]
    tables = [finalists]
    if any(p.kind == Phase.Kind.FINALINA for p in phases):
        rest = [p for p in order if p not in finalists][:size]
        if len(rest) >= 3:
            tables.append(rest)
    return tables, remember


def _names(ids):
    regs = Registration.objects.filter(pk__in=ids).select_related("player")
    return ", ".join(sorted(r.player.full_name for r in regs))


@transaction.atomic
def phase_draw(*, user, phase, plan_choice=0, seed=None):
    """Create the next round of `phase`.

    Qualifying rounds and the first knockout game are drawn like any round (Como: table 1 = the top
    5 when at least 9 are present, seed 000 rule 4). Later phases get the tables computed from the
    results: semifinals by the plan of seed 004, the final from the standings or the semifinal
    winners (plus the finalina at table 2), knockout games from the table winners (seed 003, 004)."""
    tournament = Tournament.objects.select_for_update().get(pk=phase.tournament_id)
    phases = list(tournament.phases.order_by("order"))
    phase = next(p for p in phases if p.pk == phase.pk)
    view = next(v for v in phases_overview(tournament) if v.phase.pk == phase.pk)
    if phase.kind == Phase.Kind.FINALINA:
        raise ValidationError(_("The finalina is played beside the final: draw the final."))
    if view.status == "done":
        raise ValidationError(_("This phase is over."))
    if view.current is not None:
        raise ValidationError(_("Close the current round of this phase before drawing the next one."))
    if not view.can_draw:
        raise ValidationError(_("Finish the earlier phases first."))
    seed = seed if seed is not None else int(timezone.now().timestamp()) % 1_000_000
    first = phase.pk == phases[0].pk
    if first:
        present = len(_present_ids(tournament))
        method, sizes = "random", None
        if (tournament.format_preset == "como" and present >= COMO_MIN_PRESENT_FOR_TOP_TABLE
                and any(r.status == Round.Status.CLOSED for r in view.rounds)):
            method = "seeded_top"
        if phase.kind == Phase.Kind.KNOCKOUT and present > 6:
            # The table count decides how many go on: keep it to what the phases were planned for.
            sizes = knockout_table_sizes(present, tournament.table_size)
        rnd = table_services.round_create(user=user, tournament=tournament, method=method, seed=seed, sizes=sizes)
        tables = [[str(s.registration_id) for s in t.seats.order_by("position")] for t in rnd.tables.order_by("number")]
        remember = {}
    else:
        if any(p.kind == Phase.Kind.KNOCKOUT for p in phases):
            phase = _knockout_replan(user=user, tournament=tournament, phases=phases, phase=phase,
                                     by_round=_games(tournament)[0])
            phases = list(tournament.phases.order_by("order"))
        tables, remember = _entrants_tables(tournament, phase, phases, plan_choice=plan_choice, seed=seed)
        flat = [p for t in tables for p in t]
        if any(not 3 <= len(t) <= 6 for t in tables) or not flat:
            raise ValidationError(_("This phase would have tables of %(sizes)s players: tables need 3 to 6.")
                                  % {"sizes": ", ".join(str(len(t)) for t in tables) or "0"})
        absent = set(flat) - _present_ids(tournament)
        if absent:
            raise ValidationError(_("Not checked in: %(names)s. Check them in before drawing this phase.")
                                  % {"names": _names(absent)})
        plan = [[str(p) for p in t] for t in tables]
        rnd = table_services.round_create(user=user, tournament=tournament, method="fixed", fixed_plan=plan,
                                          seed=seed)
        seated = [{str(s.registration_id) for s in t.seats.all()} for t in rnd.tables.order_by("number")]
        if seated != [set(t) for t in plan]:
            raise ValidationError(_("The seating did not keep the tables of this phase: nothing was saved."))
        tables = plan
    rnd.phase = phase
    rnd.save(update_fields=["phase"])
    if not first:
        remember["entrants"] = sorted(int(p) for t in tables for p in t)
    if remember:
        phase.settings = {**phase.settings, **remember}
        phase.save(update_fields=["settings"])
    audit(user=user, action="phase.draw", obj=phase, tournament=tournament,
          after={"phase": phase.name, "round": rnd.number, "tables": tables, **remember})
    return rnd


@transaction.atomic
def phase_publish(*, user, phase):
    """Publish the seating of the phase's draft round, once checked: a phase computed from the results
    (semifinal, final, later knockout games) seats exactly its entrants, whatever was changed by hand."""
    view = next(v for v in phases_overview(phase.tournament) if v.phase.pk == phase.pk)
    rnd = view.current
    if rnd is None or rnd.status != Round.Status.DRAFT:
        raise ValidationError(_("This phase has no seating to publish."))
    entrants = phase.settings.get("entrants")
    if entrants is not None:
        seated = sorted(rnd.tables.values_list("seats__registration_id", flat=True))
        if seated != sorted(entrants):
            raise ValidationError(_("The tables of this phase no longer seat exactly its qualified players "
                                    "(re-seated or drawn again by hand): put them back before publishing."))
    return table_services.round_publish(user=user, rnd=rnd)


# --- bracket and final standings -----------------------------------------------------------------

@dataclass
class BracketSeat:
    registration: object
    place: int | None
    advances: bool = False


@dataclass
class BracketTable:
    number: int
    label: str
    seats: list
    reported: bool


@dataclass
class BracketRound:
    round: object
    tables: list


@dataclass
class BracketPhase:
    view: PhaseView
    rounds: list
    seeded: list


def phase_bracket(tournament):
    """The tables of every phase, players in placement order once reported, table winners marked.

    Qualifying rounds are summarised (their tables are on the round pages)."""
    from tables.selectors import round_with_tables
    by_round, _totals = _games(tournament)
    placements = {}
    for number, games in by_round.items():
        for game in games:
            try:
                placements[(number, game.table)] = {s.player: s.rank for s in game.placement.seats}
            except ScoringError:
                continue
    regs = {r.pk: r for r in tournament.registrations.select_related("player", "player__club")}
    out = []
    views = phases_overview(tournament)
    for view in views:
        phase = view.phase
        rounds = []
        if phase.kind not in (Phase.Kind.QUALIFYING, Phase.Kind.FINALINA):
            for rnd in view.rounds:
                tables = []
                for table in round_with_tables(rnd):
                    places = placements.get((rnd.number, table.number), {})
                    seats = [BracketSeat(s.registration, places.get(s.registration_id))
                             for s in table.seats.all()]
                    if places:
                        seats.sort(key=lambda s: (s.place, s.registration.player.last_name))
                        winners = [s for s in seats if s.place == 1]
                        if len(winners) == 1:
                            winners[0].advances = True
                    label = ""
                    if phase.kind == Phase.Kind.FINAL:
                        label = _("Final") if table.number == 1 else _("Finalina")
                    tables.append(BracketTable(table.number, label, seats, table.reported))
                rounds.append(BracketRound(rnd, tables))
        seeded = [regs[p] for p in phase.settings.get("seeded_to_final", []) if p in regs]
        out.append(BracketPhase(view, rounds, seeded))
    return out


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
    by_round, totals = _games(tournament)
    regs = {r.pk: r for r in tournament.registrations.select_related("player", "player__club")}
    final_phase = next((p for p in phases if p.kind == Phase.Kind.FINAL), None)
    final_round = phase_rounds(final_phase, phases)[-1:] if final_phase else []
    final_games = {g.table: g for r in final_round for g in by_round.get(r.number, [])}
    final_game = final_games.get(1)
    finalina_game = final_games.get(2) if any(p.kind == Phase.Kind.FINALINA for p in phases) else None
    knockout = any(p.kind == Phase.Kind.KNOCKOUT for p in phases)
    qualifying = {}
    if knockout:
        stages = [_phase_games(p, phases, by_round) for p in phases
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
    return FinalStandings(rows, complete, bool(phases))
