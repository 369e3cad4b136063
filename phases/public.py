"""What the main public standings page leads with in a tournament with phases (SCORING.md 4.13 and
section 6): after a final (or finalina), the final order; in a knockout, who is still in and in which
game each player went out, never a points ranking of the knockout games."""
from dataclasses import dataclass

from django.core.exceptions import ValidationError

from phases.selectors import composition_of, final_standings, games_by_round, phase_rounds, qualifying_outcome
from scoring.errors import ScoringError
from scoring.knockout import table_winner
from tables.models import Round, Seat
from tournaments.models import Phase

KNOCKOUT_KINDS = (Phase.Kind.KNOCKOUT, Phase.Kind.SEMIFINAL, Phase.Kind.FINAL)


@dataclass
class KnockoutRow:
    registration: object
    still_in: bool
    phase: str                  # the phase reached (still in) or the one they went out in
    waiting_second_chance: bool = False
    position: int | None = None  # once the final is played (seed 004 knockout order)
    depth: int = 0               # index of that phase: later phases rank higher


@dataclass
class StandingsLead:
    kind: str                   # "final" or "knockout"
    complete: bool              # every phase played and closed: the standings are definitive
    final_rows: list            # phases.selectors.FinalRow, final order first
    knockout_rows: list
    final_round: object = None  # the round of the final, once reported

    @property
    def final_played(self):
        return bool(self.final_rows)


def _final_round(phases):
    final = next((p for p in phases if p.kind == Phase.Kind.FINAL), None)
    rounds = phase_rounds(final, phases) if final else []
    return rounds[-1] if rounds else None


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
        rows.append(KnockoutRow(regs[reg_id], still_in, phase.name, waiting, positions.get(reg_id), index))
    rows.sort(key=lambda r: (r.position or 10 ** 6, not r.still_in, -r.depth,
                             r.registration.player.last_name.casefold(),
                             r.registration.player.first_name.casefold(), r.registration.pk))
    return rows


def phase_lead(tournament, published_only=False):
    """What leads the public standings page in a tournament with phases (registered with
    tables.standings.selectors.standings_lead), or None when the plain standings say it all.
    `published_only` (the JSON of club websites): the final counts once its standings are published,
    the knockout shows the rounds whose standings are published."""
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
    final_round = _final_round(phases) if final_rows else None
    if published_only and final_round is not None and final_round.standings_published_at is None:
        final_rows, final_round = [], None
    complete = bool(result and result.complete and final_rows)
    if knockout:
        return StandingsLead("knockout", complete, final_rows,
                             knockout_rows(tournament, phases, final_rows, published_only), final_round)
    if not final_rows:
        return None
    return StandingsLead("final", complete, final_rows, [], final_round)


@dataclass
class RepechageHolder:
    registration: object
    rank: int
    best: object          # the best single game (points)
    played: int           # games played (absences are not games)


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


def cut_lines(tournament):
    """The cut lines of a composed format while its qualifying evenings are played; None otherwise
    (no composed format, no result yet, or the semifinals or the final already seated)."""
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
    regs = {r.pk: r for r in tournament.registrations.select_related("player", "player__club")}
    ranks = {row.player: row.rank for row in outcome.standings}
    q, rules = outcome.result, outcome.rules
    zone = {**{p: "final" for p in q.final}, **{p: "semifinal" for p in q.semifinal},
            **{p: "repechage" for p in q.repechage}}
    holders = [RepechageHolder(regs[p], ranks[p], max(outcome.games[p]), len(outcome.games[p])) for p in q.repechage]
    return CutLines(outcome.participants, rules.direct, rules.semifinal, rules.repechage_seats, rules.min_games,
                    outcome.tables, [regs[p] for p in q.final], [regs[p] for p in q.semifinal], holders, zone)
