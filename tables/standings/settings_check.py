"""A scoring change after standings were published: show the old and the new top 10 before saving."""
import copy

from django.utils.translation import gettext as _

from tables.standings.selectors import tournament_standings
from tournaments.models import Tournament

# The settings that change the points (SCORING.md sections 4-5).
SCORING_FIELDS = ("formula", "bonus", "spartaco_malus", "como_reference", "discard_worst", "best_of", "tiebreak",
                  "corrective_scope", "risiko_total", "spartaco_risiko_losers", "standard_eliminated")
TOP = 10


def _shown(tournament, name):
    value = getattr(tournament, name)
    if value and Tournament._meta.get_field(name).choices:
        return getattr(tournament, f"get_{name}_display")()
    return "—" if value in (None, "") else value


def scoring_change(tournament, data):
    """None when nothing of the scoring changes or no standings are published; else the changed settings
    and the top 10 now and after the change (published rounds only: what the public sees)."""
    changed = [name for name in SCORING_FIELDS if name in data and data[name] != getattr(tournament, name)]
    if not changed or not tournament.rounds.filter(standings_published_at__isnull=False).exists():
        return None
    after = copy.copy(tournament)
    for name in changed:
        setattr(after, name, data[name])
    old = tournament_standings(tournament, published_only=True).rows
    new = tournament_standings(after, published_only=True).rows
    old_by, new_by = {r.registration_id: r for r in old}, {r.registration_id: r for r in new}
    shown = [r.registration_id for r in old[:TOP]]
    shown += [r.registration_id for r in new[:TOP] if r.registration_id not in shown]
    rows = [{"player": (old_by.get(i) or new_by[i]).player.full_name,
             "old_rank": old_by[i].rank if i in old_by else None,
             "old_total": old_by[i].total if i in old_by else None,
             "new_rank": new_by[i].rank if i in new_by else None,
             "new_total": new_by[i].total if i in new_by else None} for i in shown]
    rows.sort(key=lambda r: (r["old_rank"] or 10_000, r["new_rank"] or 10_000))
    fields = Tournament._meta
    changes = [{"label": _(str(fields.get_field(name).verbose_name)) if name != "tiebreak" else _("tie-break chain"),
                "before": _shown(tournament, name), "after": _shown(after, name)} for name in changed]
    # each total in its formula's decimals (SCORING.md 13.4: 3 under millesimi)
    return {"rows": rows, "changes": changes, "old_decimals": tournament.points_decimals,
            "new_decimals": after.points_decimals}


