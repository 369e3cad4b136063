from tables.seating import Player, SeatingRequest, evaluate, seat_round


def roster(n, club_size=0, ranked=False):
    """Players P01..Pn; with club_size, clubs of that many consecutive players."""
    return [Player(f"P{i + 1:02d}", f"C{i // club_size + 1}" if club_size else None, i + 1 if ranked else None)
            for i in range(n)]


def play(n, table_size, rounds, *, club_size=0, seed=1, sizes=None, time_limit_s=600):
    """Seat a whole tournament round after round, the history growing; returns the history and
    each round's tables. The time limit is far off: the search's work budget decides, so a busy
    machine gives the same result."""
    players = roster(n, club_size)
    history, rounds_seated = [], []
    for r in range(rounds):
        result = seat_round(SeatingRequest(players=players, table_size=table_size, seed=seed + r,
                                           rounds_left=rounds - r, history=list(history), sizes=sizes,
                                           time_limit_s=time_limit_s))
        rounds_seated.append(result.tables)
        history += result.tables
    return players, history, rounds_seated


def total_repeats(players, rounds_seated):
    history, repeats = [], 0
    for tables in rounds_seated:
        repeats += evaluate(tables, players, history).repeat_pairs
        history += tables
    return repeats
