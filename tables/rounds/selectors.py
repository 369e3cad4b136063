"""Reads of rounds, tables and seats for the pages. A round, table or seat that is not the
tournament's is a 404, like a tournament the user may not see."""
from dataclasses import dataclass

from django.db.models import Count, Prefetch, Q
from django.http import Http404
from django.shortcuts import get_object_or_404

from scoring.phases import PREFERRED_SIZES
from tables.models import Penalty, Round, Seat, Table
from tables.seating import meetings_matrix as times_met
from tables.rounds.inputs import past_tables
from django.utils.translation import gettext as _

from tournaments.models import Phase, Registration
from tournaments.registration.selectors import closest_player_names, text_matches
from tournaments.tournament_selectors import published_rounds
from tournaments.text import posted_id

VISIBLE = (Round.Status.PUBLISHED, Round.Status.CLOSED)


def tournament_rounds(tournament):
    """The rounds in order, each with `table_count` and `reported_count` (its tables with a result)."""
    return tournament.rounds.order_by("number").annotate(
        table_count=Count("tables", distinct=True),
        reported_count=Count("tables", filter=Q(tables__reported_at__isnull=False), distinct=True))


def open_round(rounds):
    """The round still open (drafted or published, not closed) among `rounds`, or None: the next
    round is drawn only once it is closed."""
    return next((r for r in rounds if r.status != Round.Status.CLOSED), None)


def round_of(tournament, number, published=False):
    """Round `number` of the tournament (`published`: only once its seating is public), else 404."""
    rounds = tournament.rounds.filter(status__in=VISIBLE) if published else tournament.rounds
    return get_object_or_404(rounds, number=number)


def latest_published_round(tournament):
    """The latest round whose seating was published, or None."""
    return published_rounds(tournament).last()


def table_of(tournament, number, table_number):
    """(round, table) of the tournament, else 404."""
    rnd = round_of(tournament, number)
    return rnd, get_object_or_404(Table.objects.select_related("round"), round=rnd, number=table_number)


def round_with_tables(rnd):
    """A round's tables, each with its seats in order, players and clubs: one query per level."""
    seats = Seat.objects.select_related("registration__player__club").order_by("position")
    return list(rnd.tables.prefetch_related(Prefetch("seats", queryset=seats)).order_by("number"))


def free_draw(rnd):
    """Whether a draft round may be drawn again or re-seated: not semifinals, finals and later knockout games,
    which seat exactly their qualifiers."""
    phase = rnd.phase
    return phase is None or phase.kind == "qualifying" or phase.tournament.phases.order_by("order").first() == phase


def next_table_to_enter(table, numbers=None):
    """After `table` is saved: the next table of its round without a result (then the first one), among the
    table `numbers` (an arbiter's own tables; None: every table), or None."""
    waiting = table.round.tables.filter(reported_at__isnull=True).exclude(pk=table.pk).order_by("number")
    if numbers is not None:
        waiting = waiting.filter(number__gte=numbers.start, number__lt=numbers.stop)
    return waiting.filter(number__gt=table.number).first() or waiting.first()


def table_seats(table):
    """The table's seats in order, with players and clubs."""
    return list(table.seats.select_related("registration__player__club").order_by("position"))


def seat_of_round(rnd, seat_id):
    """The seat of `rnd` with this id (as posted: text), else 404."""
    if posted_id(seat_id) is None:
        raise Http404
    return get_object_or_404(Seat, pk=posted_id(seat_id), table__round=rnd)


def off_size_tables(rnd):
    """The sizes of the round's tables other than the preferred 4 and 5 (SEATING.md section 1): one query."""
    sizes = rnd.tables.annotate(size=Count("seats")).values_list("size", flat=True)
    return sorted(set(sizes) - set(PREFERRED_SIZES))


@dataclass(frozen=True)
class MeetingsMatrix:
    regs: list  # the registrations that sat at a table, by name
    rows: list  # (registration, [times met each registration of `regs`, None for the player]) per registration
    worst: int  # the most meetings of one pair
    repeats: int  # meetings beyond the first of every pair


def meetings_matrix(tournament):
    """Who met whom, how often: the organiser's check of the rematches the optimiser avoids."""
    met = times_met(past_tables(tournament))  # {id: {id: times}}, ids as text
    regs = list(tournament.registrations.filter(seats__isnull=False).distinct()
                .select_related("player").order_by("player__last_name", "player__first_name"))
    rows = [(a, [None if a.pk == b.pk else met.get(str(a.pk), {}).get(str(b.pk), 0) for b in regs]) for a in regs]
    pairs = [k for row in met.values() for k in row.values()]  # every pair twice
    return MeetingsMatrix(regs=regs, rows=rows, worst=max(pairs, default=0),
                          repeats=sum(k - 1 for k in pairs if k > 1) // 2)


def table_label(rnd, number):
    """A table as the players are told it, with its phase: "Table 3", "Semifinal — Table 2", "Final",
    "Finalina", "Final 2" (parallel finals, SCORING.md 13.9), "Knockout game 2 — Table 4"."""
    phase = rnd.phase
    if phase is None or phase.kind == Phase.Kind.QUALIFYING:
        return _("Table %(n)d") % {"n": number}
    if phase.kind == Phase.Kind.SEMIFINAL:
        return _("Semifinal — Table %(n)d") % {"n": number}
    if phase.kind == Phase.Kind.FINAL and phase.settings.get("finals", 1) > 1:
        return _("Final %(n)d") % {"n": number}
    if phase.kind == Phase.Kind.FINAL:
        return _("Final") if number == 1 else _("Finalina")
    return _("%(phase)s — Table %(n)d") % {"phase": phase.label, "n": number}


def round_label(rnd):
    """A round as the players are told it: "Round 4", or "Round 4 — Semifinals" in a later phase."""
    if rnd.phase is None or rnd.phase.kind == Phase.Kind.QUALIFYING:
        return _("Round %(n)d") % {"n": rnd.number}
    return _("Round %(n)d — %(phase)s") % {"n": rnd.number, "phase": rnd.phase.label}


def waiting_for_final(rnd, query):
    """The players straight to the final whose name matches `query` while `rnd`, a semifinal round, is
    played: they sit at no table of it (SCORING.md section 12, 13.8)."""
    phase = rnd.phase
    if not query or phase is None or phase.kind != Phase.Kind.SEMIFINAL:
        return []
    seeded = phase.settings.get("seeded_to_final") or []
    regs = Registration.objects.filter(pk__in=[int(p) for p in seeded]).select_related("player", "player__club")
    return [r for r in regs if text_matches(query, f"{r.player.display_name} {r.player.club or ''}")]


def straight_to_final(reg):
    """Whether the player, seated straight in the final, waits while the semifinals are played (the
    round in play is a semifinal round that seats her nowhere)."""
    rnd = (Round.objects.filter(tournament_id=reg.tournament_id, status=Round.Status.PUBLISHED)
           .select_related("phase").order_by("-number").first())
    if rnd is None or rnd.phase is None or rnd.phase.kind != Phase.Kind.SEMIFINAL:
        return False
    return reg.pk in {int(p) for p in rnd.phase.settings.get("seeded_to_final") or []}


def public_round_tables(rnd, query=""):
    """A published round's tables, each with its `label`; with a query, each table says whether a
    player's name or club matches (`match`) and each seat whether its player does."""
    tables = round_with_tables(rnd)
    for table in tables:
        table.label = table_label(rnd, table.number)
    if query:
        for table in tables:
            for s in table.seats.all():
                s.match = text_matches(query, f"{s.registration.player.display_name} {s.registration.player.club or ''}")
            table.match = any(s.match for s in table.seats.all())
    return tables


def closest_names(tables, query, n=3):
    """The names of the round's players closest to a `query` that matched nobody (a letter missed or
    swapped), at most `n`, the closest first."""
    return closest_player_names(query, [s.registration.player for t in tables for s in t.seats.all()], n)


def round_tables_with_players(rnd):
    """The round's tables by number, each with its seats, players and clubs (prefetched)."""
    return rnd.tables.prefetch_related("seats__registration__player__club").order_by("number")


def tournament_registration(tournament, reg_id):
    """The tournament's registration with this id (text or number) and its player and club, else 404."""
    if posted_id(reg_id) is None:
        raise Http404
    return get_object_or_404(Registration.objects.select_related("player", "player__club"), pk=posted_id(reg_id),
                             tournament=tournament)


def player_seats(reg):
    """The registration's seats in published rounds, oldest first, each with its table mates as `opponents`
    (in seat order): two queries, whatever the number of rounds."""
    mates = Seat.objects.select_related("registration__player").order_by("position")
    seats = list(Seat.objects.filter(registration=reg).exclude(table__round__status=Round.Status.DRAFT)
                 .select_related("table__round").prefetch_related(Prefetch("table__seats", queryset=mates))
                 .order_by("table__round__number"))
    for seat in seats:
        seat.opponents = [s.registration.player for s in seat.table.seats.all() if s.pk != seat.pk]
    return seats


def player_penalties(reg):
    """The registration's penalties still standing."""
    return Penalty.objects.filter(registration=reg, withdrawn=False).select_related("seat__table__round")


def tournament_seats(tournament):
    """Every seat of the tournament by round, table and seat, with players and clubs (the results CSV)."""
    return (Seat.objects.filter(table__round__tournament=tournament)
            .select_related("table__round", "registration__player__club")
            .order_by("table__round__number", "table__number", "position"))


@dataclass(frozen=True)
class MyTable:
    round: Round
    table: object
    seat: Seat
    mates: list  # the other players at the table, in seat order

    @property
    def label(self):
        """"Round 2 — Table 5" in the qualifying rounds; in a later phase the table with its phase:
        "Semifinal — Table 2", "Final 1"."""
        phase = self.round.phase
        if phase is None or phase.kind == Phase.Kind.QUALIFYING:
            return _("Round %(r)s — Table %(t)s") % {"r": self.round.number, "t": self.table.number}
        return table_label(self.round, self.table.number)


def my_table(reg):
    """The player's seat in the round in play (seating published, not closed), or None."""
    seat = (Seat.objects.filter(registration=reg, table__round__status=Round.Status.PUBLISHED)
            .select_related("table__round__phase").order_by("-table__round__number").first())
    if seat is None:
        return None
    mates = [s.registration.player for s in seat.table.seats.select_related("registration__player")
             .order_by("position") if s.pk != seat.pk]
    return MyTable(round=seat.table.round, table=seat.table, seat=seat, mates=mates)
