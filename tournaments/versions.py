"""The version of what a tournament's public pages show, kept in the shared cache.

Every change those pages show is audited (tournaments.audit.services), and the audit writer calls
`bump`: once the change has committed, the version is read again from the database, where it is
the number and the last id of the tournament's audit entries. Reading it is idempotent, so a
transaction of a hundred entries may call it a hundred times and still makes one version; a
rolled-back transaction never calls it. A page rendered from the data before a commit reads the
version before its data, so it is never filed under a version that names a change it lacks.
A poll that finds nothing new then costs one cache lookup; when the cache has no entry (first
request, eviction, a cache emptied by a restart) it is read from the database the same way.

The dispute window closing turns provisional standings final without anything being logged, so the
version also says whether that moment has passed (the closing time is kept with it).
"""
from contextlib import contextmanager
import threading

from django.core.cache import cache
from django.db import transaction
from django.db.models import Count, Max
from django.dispatch import Signal
from django.utils import timezone

from tournaments.models import AuditLog, Tournament


def _key(pk):
    return f"tournament-version:{pk}"


def closes_at(pk):
    """When the dispute window after the last published standings closes (None: nothing published, or
    no such tournament)."""
    return _closes_and_created(pk)[0]


def _closes_and_created(pk):
    tournament = (Tournament.objects.filter(pk=pk).annotate(last_publication=Max("rounds__standings_published_at"))
                  .only("dispute_window_minutes", "created_at").first())
    if tournament is None:
        return None, None
    return tournament.dispute_window_closes(tournament.last_publication), tournament.created_at


def _from_database(pk):
    """(token, the window's closing time): the token names the tournament's creation (a restored
    database may reuse the pk), the number of its audit entries and the last one's id."""
    log = AuditLog.objects.filter(tournament_id=pk).aggregate(entries=Count("pk"), last=Max("pk"))
    closes, created_at = _closes_and_created(pk)
    stamp = created_at.timestamp() if created_at else 0
    return f"{log['last'] or 0}-{log['entries']}-{stamp}", closes


def results_version(pk):
    """A string that changes whenever anything a public page of tournament `pk` shows changes."""
    entry = cache.get(_key(pk))
    if entry is None:
        entry = _from_database(pk)
        cache.add(_key(pk), entry, None)  # a version written meanwhile by a commit wins
    return _shown(entry)


def cached_version(pk):
    """The version of tournament `pk` when the cache holds it, else None (the database is not asked)."""
    entry = cache.get(_key(pk))
    return None if entry is None else _shown(entry)


def _shown(entry):
    token, closes = entry
    closed = closes is not None and timezone.now() >= closes
    return f"{token}:{int(closed)}"


def results_through(version):
    """The id of the last audit entry a page filed under `version` shows: every change up to it."""
    last = version.split("-", 1)[0]
    return int(last) if last.isdigit() else 0


_local = threading.local()  # this thread's `unannounced` depth and the versions it announced

# Sent once the changes of tournament `pk` in a transaction have committed and its version moved, with
# `pk` and `closes_at` (when the dispute window now closes, or None). Its one receiver,
# tables.live.snapshot.changes_committed, is connected in tables/apps.py (a module below tables does
# not import it): the public pages are rendered anew and the change is announced on the live channel.
changes_committed = Signal()


@contextmanager
def unannounced():
    """The changes written inside move their tournaments' versions (every cache stays true) but send no
    `changes_committed` at their commit: no snapshot job, no live announcement. For an import, which
    writes a whole finished tournament nobody is watching in some hundreds of changes."""
    _local.silent = getattr(_local, "silent", 0) + 1
    try:
        yield
    finally:
        _local.silent -= 1


def _told():
    """(tournament pk, version token) this thread has sent `changes_committed` for."""
    told = getattr(_local, "told", None)
    if told is None or len(told) > 256:
        told = _local.told = set()
    return told


def bump(pk):
    """Called for every audited change of tournament `pk`: once its transaction commits, the version is
    read again from the database and `changes_committed` is sent, once for the transaction however many
    changes it made (once per version; the later callbacks of the same commit read the same version).
    Every change registers its own callback, so a savepoint rolled back with its callback leaves the
    later changes theirs; a change written inside `unannounced` sends nothing."""
    silent = getattr(_local, "silent", 0) > 0

    def committed():
        entry = _from_database(pk)
        cache.set(_key(pk), entry, None)
        told = _told()
        if silent or (pk, entry[0]) in told:
            return
        told.add((pk, entry[0]))
        changes_committed.send(sender=Tournament, pk=pk, closes_at=entry[1])

    transaction.on_commit(committed)
