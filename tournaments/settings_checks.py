"""Checks other apps make before a tournament's settings are saved.

`check(tournament, data)` returns a context for the settings page (the change is shown and waits for a
confirmation) or None. The tables app registers one when it loads: a scoring change after the standings
were published shows the old and the new top 10."""
CHECKS = []


def register(check):
    if check not in CHECKS:
        CHECKS.append(check)
    return check


def change_to_confirm(tournament, data):
    """The first registered check's context for the page, or None when no check asks for a confirmation."""
    for check in CHECKS:
        change = check(tournament, data)
        if change:
            return change
    return None
