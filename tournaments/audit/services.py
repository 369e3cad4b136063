"""The one writer of the audit log. Call it inside the transaction of the change it records."""
import datetime
from decimal import Decimal

from django.db import transaction

from tournaments.models import AuditLog
from tournaments.versions import bump


def _jsonable(value):
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set)):
        return [_jsonable(v) for v in value]
    if isinstance(value, Decimal):
        return format(value.normalize(), "f")
    if isinstance(value, (datetime.date, datetime.datetime)):
        return value.isoformat()
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)


def _entry(*, user, action, obj=None, tournament=None, player=None, table_label="", before=None, after=None):
    return AuditLog(
        tournament=tournament,
        user=user if user is not None and user.is_authenticated else None,
        action=action,
        object_type=type(obj).__name__.lower() if obj is not None else "",
        object_id=str(obj.pk) if obj is not None and obj.pk is not None else "",
        player=player,
        table_label=table_label,
        before=_jsonable(before),
        after=_jsonable(after),
    )


def audit(*, user, action, obj=None, tournament=None, player=None, table_label="", before=None, after=None):
    """Record that `user` did `action` on `obj`, changing `before` into `after`."""
    return audit_many([dict(user=user, action=action, obj=obj, tournament=tournament, player=player,
                            table_label=table_label, before=before, after=after)])[0]


def audit_many(entries):
    """Record several changes at once (the seats of a table): `entries` are dicts of `audit`'s
    arguments. One INSERT for all of them, in their order; returns the entries. Each tournament's
    public version moves once the transaction commits (tournaments.versions.bump)."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("audit() must be called inside the transaction of the change")
    made = AuditLog.objects.bulk_create([_entry(**entry) for entry in entries])
    tournaments = {entry.tournament_id for entry in made if entry.tournament_id is not None}
    for pk in sorted(tournaments):
        bump(pk)
    return made


def snapshot(obj, fields):
    """The values of `fields` of `obj`, for the before/after of an audit entry."""
    out = {}
    for name in fields:
        value = getattr(obj, name)
        if hasattr(value, "pk"):
            value = str(value)
        out[name] = value
    return out
