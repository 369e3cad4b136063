"""What the live channel reads: the last announced change of a tournament and what a version shows.
Reads only: the announcement itself is written by tables.live.channel."""
from django.core.cache import cache

from tournaments.models import AuditLog
from tournaments.versions import results_through


def announcement_key(pk):
    return f"live:{pk}"


def last_announced(pk):
    """The last change of tournament `pk` announced on its channel: {"version", "what"}, or None."""
    return cache.get(announcement_key(pk))


def family(action):
    """An audit action's family, what a screen is told changed: "result.enter" -> "result",
    "team.penalty.withdraw" -> "penalty"."""
    parts = action.split(".")
    if parts[0] == "team" and len(parts) > 1:
        return parts[1]
    return parts[0]


def change_of(pk, version):
    """{"version", "what"}: the version and the family of the last audited change it shows ("" when
    the version names none: a version read from the database, a dispute window that closed)."""
    through = results_through(version)
    action = None
    if through:
        action = AuditLog.objects.filter(pk=through, tournament_id=pk).values_list("action", flat=True).first()
    if action is None:
        announced = last_announced(pk)
        if announced and announced["version"] == version:
            return dict(announced)
    return {"version": version, "what": family(action) if action else ""}
