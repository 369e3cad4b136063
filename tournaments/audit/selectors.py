"""Reads of the audit log: a tournament's entries, filtered and by pages, in words (`labels`)."""
from django.core.paginator import Paginator

from tournaments.audit.labels import action_label, diff_rows, kind_label
from tournaments.models import AuditLog, Player
from tournaments.text import posted_id

PAGE_SIZE = 50


def audit_entries(tournament, kind="", player="", table=""):
    """The tournament's log, newest first, of one kind of change, one player or one table when given."""
    entries = AuditLog.objects.filter(tournament=tournament).select_related("user", "player")
    if kind:
        entries = entries.filter(action__startswith=kind)
    if posted_id(player) is not None:
        entries = entries.filter(player_id=posted_id(player))
    if table:
        entries = entries.filter(table_label=table)
    return entries


def audit_filters(tournament):
    """The choices of the log's filters: (players of the tournament, kinds of change logged)."""
    players = Player.objects.filter(registrations__tournament=tournament).order_by("last_name", "first_name")
    kinds = sorted({a.split(".")[0] for a in AuditLog.objects.filter(tournament=tournament)
                    .values_list("action", flat=True).distinct()})
    return players, kinds


def audit_log_page(tournament, *, kind="", player="", table="", number=None):
    """Page `number` of the tournament's log as `audit_entries` filters it, each entry with its label
    and its before and after as rows (`entry.columns`, `entry.rows`), and the filters' choices:
    (page, players, kinds as (kind, label))."""
    entries = audit_entries(tournament, kind=kind, player=player, table=table)
    page = Paginator(entries, PAGE_SIZE).get_page(number)
    for entry in page:
        entry.label = action_label(entry.action)
        entry.columns, entry.rows = diff_rows(entry.before, entry.after)
    players, kinds = audit_filters(tournament)
    return page, players, [(kind, kind_label(kind)) for kind in kinds]


def merge_requests():
    """The organisers' requests to merge two records of one person that they could not merge themselves
    (different owners), oldest first, while both records are still listed: what an administrator does next.
    Each: the log entry (who asked, when), `drop` and `keep`."""
    entries = list(AuditLog.objects.filter(action="player.merge_request").select_related("user").order_by("pk"))
    ids = {entry.after.get(key) for entry in entries for key in ("merge", "into")}
    listed = Player.objects.select_related("club", "created_by").in_bulk([pk for pk in ids if isinstance(pk, int)])
    pending, seen = [], set()
    for entry in entries:
        pair = (entry.after.get("merge"), entry.after.get("into"))
        if pair in seen or pair[0] not in listed or pair[1] not in listed:
            continue
        seen.add(pair)
        pending.append({"entry": entry, "drop": listed[pair[0]], "keep": listed[pair[1]]})
    return pending
