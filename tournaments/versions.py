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


def _bump(pk, through=None):
    token = uuid.uuid4().hex if through is None else f"{through}.{uuid.uuid4().hex}"
    cache.set(_key(pk), (token, _closes_at(pk)[0]), None)


def bump(pk, through=None):
    """Called for every audited change of tournament `pk` (`through`: its audit entry's id): now,
    and once the change is committed (only that version names the entry: it is the one showing it)."""
    _bump(pk)
    transaction.on_commit(lambda: _bump(pk, through))
