"""Reads for the room's pages: who sits where in the current round, the latest results, the standings
now. Standings rows themselves come from tables.standings.selectors."""
from dataclasses import dataclass, replace

from tables.clock.selectors import clock_state, live_round
from tables.models import Round, Seat
from tables.standings import versioned
from tables.standings.selectors import standings_lead, tournament_standings
from tournaments.text import fold


def surname_key(player):
    return (fold(player.last_name), fold(player.first_name), player.pk)


def filing_letter(player):
    """The letter a player is filed under on the wall list and the big screen: their surname's first,
    accents aside ("Àlbani" under A, "Della Torre" under D)."""
    return (fold(player.last_name or player.first_name)[:1] or "?").upper()


def wall_name(player):
    """Surname first, as a list on the wall is read."""
    name = f"{player.last_name} {player.first_name}"
    return f"{name} ({player.nickname})" if player.nickname else name


def current_round(tournament):
    """The round in play (seating published, not closed), else the latest published one, else None."""
    return live_round(tournament)


def seating_by_surname(rnd):
    """[(player, table number)] of the round, by surname: everyone finds their table at a glance."""
    if rnd is None:
        return []
    seats = (Seat.objects.filter(table__round=rnd).select_related("registration__player", "table"))
    rows = [(s.registration.player, s.table.number) for s in seats]
    return sorted(rows, key=lambda r: surname_key(r[0]))


def latest_results(rnd, limit=6):
    """The round's last reported tables, newest first, each with its seats in table-points order."""
    if rnd is None:
        return []
    tables = (rnd.tables.filter(reported_at__isnull=False).order_by("-reported_at", "-number")
              .prefetch_related("seats__registration__player")[:limit])
    out = []
    for table in tables:
        seats = sorted(table.seats.all(), key=lambda s: (-(s.table_points or 0), s.position))
        out.append((table, seats))
    return out


def clock_of(rnd):
    """The round clock's deadline while it runs (None otherwise)."""
    if rnd is None or rnd.status != Round.Status.PUBLISHED:
        return None
    state = clock_state(rnd)
    return state if state.running else None


def standings_now(tournament):
    """The tournament's standings, computed once per results version for the big screen (the same
    value the standings page reads)."""
    return versioned.computed(versioned.tournament_slot("standings", tournament), lambda: tournament_standings(tournament))


def published_standings_now(tournament):
    """The standings of the rounds the organiser published, computed once per results version: what
    the widget shows, the same as the default of standings.json."""
    return versioned.computed(versioned.tournament_slot("standings-published", tournament),
                              lambda: tournament_standings(tournament, published_only=True))


def in_final_order(tournament, standings, published_only=False):
    """The standings rows in the order the public standings page leads with: after a final (parallel
    finals included, SCORING.md section 6 and 13.9) the final order, `rank` its position (shared by
    the same place of parallel finals), `final` the table that decided it in words and `total` still
    the qualifying total; otherwise the rows as they are. Computed once per results
    version."""
    if not tournament.format_preset:
        return standings.rows

    def ordered():
        lead = standings_lead(tournament, published_only=published_only)
        if lead is None or lead.kind != "final" or not lead.final_rows:
            return standings.rows
        by_reg = {r.registration_id: r for r in standings.rows}
        return [replace(by_reg[f.registration.pk], rank=f.position, final=f.decided_words) for f in lead.final_rows
                if f.registration.pk in by_reg]
    name = "room-final-order-published" if published_only else "room-final-order"
    return versioned.computed(versioned.tournament_slot(name, tournament), ordered)


# An A4 page of the wall list holds this many lines a column (18 pt in 2 columns, 15 pt in 3), under
# the page's heading.
WALL_LINES = {2: 26, 3: 32}
WALL_LONG_NAME = 20   # characters: a longer name is set smaller, to stay on one line,
WALL_LONGER_NAME = 26  # smaller still above this
WALL_MAX_NAME = 28     # and above this the first names are written as initials


@dataclass
class WallPage:
    rows: list      # (name, table, size: "", "long" or "longer")
    letters: str    # "A – D"


def wall_pages(rnd):
    """The wall list in A4 pages, each saying its letter range, and its number of columns (3 above 40
    players): pages of (wall name, table, long name) by surname."""
    rows = [(_wall_line(p), table, filing_letter(p)) for p, table in seating_by_surname(rnd)]
    columns = 3 if len(rows) > 40 else 2
    size = WALL_LINES[columns] * columns
    pages = []
    for start in range(0, len(rows), size):
        part = rows[start:start + size]
        first, last = part[0][2], part[-1][2]
        pages.append(WallPage([(name, table, _size(name)) for name, table, _l in part],
                              first if first == last else f"{first} – {last}"))
    return pages, columns


def _wall_line(player):
    """The wall name, its first names as initials when the whole would not fit a column."""
    name = wall_name(player)
    if len(name) <= WALL_MAX_NAME:
        return name
    initials = " ".join(f"{word[0]}." for word in player.first_name.split())
    return f"{player.last_name} {initials}".strip()


def _size(name):
    """The class that keeps a wall name on one line: "" (as it is), "long" or "longer"."""
    return "longer" if len(name) > WALL_LONGER_NAME else "long" if len(name) > WALL_LONG_NAME else ""
