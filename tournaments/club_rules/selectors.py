"""Reads of club rules: what an organiser sees on the list of rules."""
from tournaments.models import ClubRule
from tournaments.rules import club_rules_visible_to


def club_rules_for(user):
    """(the published rules, the organiser's own), each by name."""
    rules = list(club_rules_visible_to(user, ClubRule.objects.all()).select_related("owner"))
    return [r for r in rules if r.published], [r for r in rules if not r.published]
