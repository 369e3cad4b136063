"""The version of what a tournament's public pages show, kept in the shared cache.

Every change those pages show is audited (tournaments.audit.services), and the audit writer bumps the
tournament's version: at once, and again when the change commits, so a page rendered from the
data before the commit is never filed under the version that follows it. A poll that finds
nothing new then costs one cache lookup. A version committed after an audit entry starts with that
entry's id (`results_through`): pages and the load benchmark can tell which changes a page shows.
When the cache has no entry (first request, eviction, a cache emptied by a restart) the version is read from the database: the number and the last id
of the tournament's audit entries. The dispute window closing turns provisional standings final
without anything being logged, so the version also says whether that moment has passed.
"""
from contextlib import contextmanager
import uuid

from django.core.cache import cache
from django.db import transaction
from django.db.models import Count, Max
from django.utils import timezone

from tournaments.models import AuditLog, Tournament


def _key(pk):
    return f"tournament-version:{pk}"


def _closes_at(pk):
    """When the dispute window after the last published standings closes (None: nothing published),
    and when the tournament was created (None: no such tournament)."""
    tournament = (Tournament.objects.filter(pk=pk).annotate(last_publication=Max("rounds__standings_published_at"))
                  .only("dispute_window_minutes", "created_at").first())
    if tournament is None:
        return None, None
    return tournament.dispute_window_closes(tournament.last_publication), tournament.created_at


def _from_database(pk):
    log = AuditLog.objects.filter(tournament_id=pk).aggregate(entries=Count("pk"), last=Max("pk"))
    closes_at, created_at = _closes_at(pk)
    stamp = created_at.timestamp() if created_at else 0  # a restored database may reuse the pk
    return f"db-{stamp}-{log['entries']}-{log['last'] or 0}", closes_at


def results_version(pk):
    """A string that changes whenever anything a public page of tournament `pk` shows changes."""
    entry = cache.get(_key(pk))
    if entry is None:
        entry = _from_database(pk)
        cache.add(_key(pk), entry, None)  # a bump made meanwhile wins
    token, closes_at = entry
    closed = closes_at is not None and timezone.now() >= closes_at
    return f"{token}:{int(closed)}"


def results_through(version):
    """The id of the last audit entry a page filed under `version` shows (0 when unknown): every
    change up to it, and perhaps more. A version bumped before its change committed says nothing."""
    token = version.split(":", 1)[0]
    if token.startswith("db-"):
        last = token.rsplit("-", 1)[-1]
    else:
        last = token.split(".", 1)[0] if "." in token else "0"
    return int(last) if last.isdigit() else 0


_READ = object()  # the window's closing time is read from the database


def _bump(pk, through=None, closes_at=_READ):
    token = uuid.uuid4().hex if through is None else f"{through}.{uuid.uuid4().hex}"
    if closes_at is _READ:
        closes_at = _closes_at(pk)[0]
    cache.set(_key(pk), (token, closes_at), None)


def _known_closing(pk):
    """The window's closing time the last version names, or _READ when there is none."""
    entry = cache.get(_key(pk))
    return _READ if entry is None else entry[1]


_committed_listeners = []


@contextmanager
def unannounced():
    """The changes written inside bump their tournaments' versions (every cache stays true) but call no
    listener at their commit: no page rendered on write, no live announcement. For an import, which
    writes a whole finished tournament nobody is watching in some hundreds of changes."""
    connection = transaction.get_connection()
    connection._torneo_unannounced = getattr(connection, "_torneo_unannounced", 0) + 1
    try:
        yield
    finally:
        connection._torneo_unannounced -= 1


def on_committed(listener):
    """Call `listener(pk)` once each change of tournament `pk` has committed and bumped its version
    (tables.standings.refresh renders the public pages anew)."""
    if listener not in _committed_listeners:
        _committed_listeners.append(listener)


def _pending(connection):
    """The bumps awaiting the commit of `connection`'s transaction: {tournament pk: state}."""
    pending = getattr(connection, "_torneo_pending_bumps", None)
    if pending is None:
        pending = connection._torneo_pending_bumps = {}
    return pending


def bump(pk, through=None, window=True):
    """Called for every audited change of tournament `pk` (`through`: its audit entry's id): now,
    and once the change is committed (only that version names the entry: it is the one showing it).
    `window`: whether the change may move the dispute window (a publication, the window's length...);
    at the commit of a transaction where none may (a table's result), the closing time the last
    version names is kept instead of being read again.

    A transaction that writes several entries of one tournament (a table's seats, a round's tables)
    bumps once now and once at its commit, naming its last entry: one version per change, not
    one per line of it. Only entries written inside the same atomic block are taken together; a
    rolled-back transaction (or savepoint) drops its commit callback, and the next change starts
    afresh."""
    connection = transaction.get_connection()
    pending = _pending(connection)
    state = pending.get(pk)
    inside = set(connection.savepoint_ids)
    silent = getattr(connection, "_torneo_unannounced", 0) > 0
    if (state is not None and state["savepoints"] <= inside
            and any(func is state["callback"] for _sids, func, _robust in connection.run_on_commit)):
        state["silent"] = state["silent"] and silent
        if through is not None:
            state["through"] = max(state["through"] or 0, through)
        state["window"] = state["window"] or window
        return
    entry = cache.get(_key(pk))
    # Now: the pages of the data before this change stop being served as current. The window's
    # closing time is the one known (read again at the commit, which may have published a round);
    # with none known, a change that may open the window reads it now.
    known = entry is not None and (entry[1] is not None or not window)
    _bump(pk, closes_at=entry[1] if known else _READ)
    state = {"through": through, "savepoints": inside, "window": window, "silent": silent}

    def committed():
        if pending.get(pk) is state:
            del pending[pk]
        # The version last written names the closing time as of the last change that may have moved
        # it (that change's own commit read it).
        _bump(pk, state["through"], closes_at=_READ if state["window"] else _known_closing(pk))
        if state["silent"]:
            return    # written by `unannounced`: the versions move, nobody is told
        for listener in _committed_listeners:
            listener(pk)

    state["callback"] = committed
    pending[pk] = state
    transaction.on_commit(committed)
