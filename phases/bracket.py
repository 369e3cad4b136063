"""The bracket: the tables of every phase, players in placement order, table winners marked."""
from dataclasses import dataclass

from django.utils.translation import gettext as _

from phases.selectors import PhaseView, phases_overview
from scoring.errors import ScoringError
from tables.rounds.selectors import round_with_tables
from tables.standings.selectors import games_by_round
from tournaments.models import Phase


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
    by_round, _totals = games_by_round(tournament)
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
                    if phase.kind == Phase.Kind.FINAL and phase.settings.get("finals", 1) > 1:
                        label = _("Final %(n)d") % {"n": table.number}  # parallel finals (SCORING.md 13.9)
                    elif phase.kind == Phase.Kind.FINAL:
                        label = _("Final") if table.number == 1 else _("Finalina")
                    tables.append(BracketTable(table.number, label, seats, table.reported))
                rounds.append(BracketRound(rnd, tables))
        seeded = [regs[p] for p in phase.settings.get("seeded_to_final", []) if p in regs]
        out.append(BracketPhase(view, rounds, seeded))
    return out
