"""What the live channel reads: the last announced change of a tournament and what a version shows.
Reads only: the announcement itself is written by tables.live.channel."""
from django.core.cache import cache

from tables.models import Round
from tournaments.models import AuditLog, Tournament
from tournaments.versions import results_through


def announcement_key(pk):
    return f"live:{pk}"


def last_announced(pk):
    """The last change of tournament `pk` announced on its channel: {"version", "what"}, or None."""
    return cache.get(announcement_key(pk))


def shown_publicly(pk):
    """Whether tournament `pk` is still published: a public stream ends once it is not."""
    return Tournament.objects.filter(pk=pk, published=True).exists()


def family(action):
    """An audit action's family, what a screen is told changed: "result.enter" -> "result",
    "team.penalty.withdraw" -> "penalty"."""
    parts = action.split(".")
    if parts[0] == "team" and len(parts) > 1:
        return parts[1]
    return parts[0]


DRAFT_ONLY_ACTIONS = {"round.delete"}  # a draft deleted (tables.rounds.drafts)
RECENT_ENTRIES = 50  # the changes since the last announcement looked at, newest first


def _shown(entries):
    """The entries a screen shows, newest first: all but those about a round still in draft (its
    draw, redraw, swaps and moves) and a draft's deletion."""
    rounds = {int(e.object_id) for e in entries if e.object_type == "round" and e.object_id.isdigit()}
    drafts = set(Round.objects.filter(pk__in=rounds, status=Round.Status.DRAFT).values_list("pk", flat=True)) \
        if rounds else set()
    return [e for e in entries if e.action not in DRAFT_ONLY_ACTIONS
            and not (e.object_type == "round" and e.object_id.isdigit() and int(e.object_id) in drafts)]


def change_of(pk, version, since=0):
    """{"version", "what"}: the version and the family of the last audited change after audit entry
    `since` (the last announced) that it shows; "what" is "" when it names no new entry (the dispute
    window closed by the clock). None when every change since is a draft's, which no screen of the
    public shows."""
    through = results_through(version)
    if through <= since:
        return {"version": version, "what": ""}
    entries = list(AuditLog.objects.filter(tournament_id=pk, pk__gt=since, pk__lte=through)
                   .order_by("-pk").only("action", "object_type", "object_id")[:RECENT_ENTRIES])
    shown = _shown(entries)
    if entries and not shown:
        return None
    return {"version": version, "what": family(shown[0].action) if shown else ""}
