"""The tournaments app's models: clubs, players, tournaments, registrations, the audit log and phases
(`core`), the 2vs2 teams, end rolls and published 2vs2 days (`formats`)."""
from tournaments.models.core import (
    END_ROLL_VARIANTS,
    FORMAT_PRESETS,
    OFFICIAL_MAX_FEE,
    AccountOwner,
    AuditLog,
    Club,
    Formula,
    LoginThrottle,
    Phase,
    Player,
    Registration,
    SEATING_METHODS,
    TieBreak,
    Tournament,
)
from tournaments.models.club_rules import ClubRule
from tournaments.models.formats import EndRoll, Team, TeamDay, TeamMatch, TeamMember

__all__ = ["END_ROLL_VARIANTS", "FORMAT_PRESETS", "OFFICIAL_MAX_FEE", "AccountOwner", "AuditLog", "Club", "ClubRule", "EndRoll", "Formula",
           "LoginThrottle", "Phase", "Player", "Registration", "SEATING_METHODS", "Team", "TeamDay", "TeamMatch",
           "TeamMember", "TieBreak", "Tournament"]
