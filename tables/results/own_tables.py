"""An arbiter's own tables: two arbiters on phones split a room (tables 1-10 and 11-19, say), each phone
keeping its range in its session for the whole tournament. After a save the arbiter goes on to the next
table of theirs still without a result, never to one a colleague is typing."""

SESSION_KEY = "own_tables_%d"
EVERY_TABLE = range(1, 1000)


def own_tables(request, tournament):
    """(first, last) table numbers this phone's arbiter chose for `tournament`, or None."""
    chosen = request.session.get(SESSION_KEY % tournament.pk)
    return tuple(chosen) if chosen else None


def own_tables_set(request, tournament, first, last):
    """Keep the arbiter's range (None, None: every table again) in their session."""
    key = SESSION_KEY % tournament.pk
    if first is None:
        request.session.pop(key, None)
    else:
        request.session[key] = [first, last]


def parse_range(first, last):
    """Two table numbers as typed ("3", "10"), as (3, 10); None when either is not a whole number from 1,
    or the first is above the last (or above 999, the most tables a round seats here)."""
    try:
        first, last = int(first), int(last)
    except (TypeError, ValueError):
        return None
    return (first, last) if 1 <= first <= last <= 999 else None


def tables_to_follow(request, tournament):
    """The numbers of the tables the arbiter goes through after a save: their own range; every table when
    nobody else arbitrates the tournament; None (back to their list) when colleagues do and no range is
    chosen, since the next table may be the one a colleague is typing."""
    chosen = own_tables(request, tournament)
    if chosen:
        return range(chosen[0], chosen[1] + 1)
    if tournament.arbiters.exclude(pk=request.user.pk).exists():
        return None
    return EVERY_TABLE
