"""2vs2 team tournament (SCORING.md section 7; seed 001, RisiKo Club Rahal Maut, art. 4-6).

Teams of 2 (up to 3 registered) play a single round robin; a match is one table with two players
per team.
"""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Hashable, Mapping, Sequence

from .errors import InvalidResult
from .numeric import ZERO, coerce_number
from .placement import id_key

TeamId = Hashable
ENDINGS = ("wipeout", "time", "risiko", "forfeit")
TERRITORIES = 42
TURN_LIMIT = 25
MINUTES_LIMIT = 90
LATE_MINUTES = 15  # more than 15 minutes late: the match is lost by forfeit (art. 4)


@dataclass(frozen=True)
class TeamMatch:
    """One 2vs2 match.

    ending: "wipeout" (every opposing army eliminated before the limit), "time" (25 turns or 90
        minutes reached), "risiko" (a player completed an objective: their team loses), "forfeit"
        (a team absent or more than 15 minutes late).
    team: for wipeout the team that eliminated the other; for risiko the team whose player made
        RisiKo!; for forfeit the team present (None: both absent, 0-0).
    territories: territories held by (home, away) at the end; used at the limit and as the last
        standings tie-break.
    best_player_territories: most territories held by a single player of (home, away).
    territory_points: sum of the values of every territory held by (home, away).
    """
    round: int
    home: TeamId
    away: TeamId
    ending: str
    team: TeamId | None = None
    territories: tuple[int, int] = (0, 0)
    best_player_territories: tuple[int, int] = (0, 0)
    territory_points: tuple[Decimal, Decimal] = (ZERO, ZERO)

    def __post_init__(self):
        object.__setattr__(self, "territory_points", tuple(coerce_number(v) for v in self.territory_points))


def _fail(match, detail, code, field, team=None):
    raise InvalidResult(detail, code=code, field=field,
                        location=f"round {match.round} match {match.home} - {match.away}"
                        + (f" team {team}" if team is not None else ""))


def _check(match: TeamMatch):
    if match.home == match.away:
        _fail(match, "a team cannot play itself", "same_team", "away")
    if match.ending not in ENDINGS:
        _fail(match, f"ending must be one of: {', '.join(ENDINGS)}", "ending", "ending")
    if match.team is not None and match.team not in (match.home, match.away):
        _fail(match, "the team named in the result does not play this match", "team", "team", match.team)
    if match.ending in ("wipeout", "risiko") and match.team is None:
        _fail(match, f"a {match.ending} result names its team", "team", "team")
    for field in ("territories", "best_player_territories"):
        pair = getattr(match, field)
        if (len(pair) != 2 or any(not isinstance(v, int) or type(v) is bool or v < 0 for v in pair)
                or sum(pair) > TERRITORIES):
            _fail(match, f"{field} must be two whole numbers from 0 adding up to at most {TERRITORIES}",
                  field, field)
    for i in range(2):
        if match.best_player_territories[i] > match.territories[i]:
            _fail(match, "a player cannot hold more territories than the team", "best_player_territories",
                  "best_player_territories", (match.home, match.away)[i])
    points = match.territory_points
    if len(points) != 2 or any(not isinstance(v, Decimal) or not v.is_finite() or v < 0 for v in points):
        _fail(match, "territory_points must be two numbers of at least 0", "territory_points",
              "territory_points")


def match_points(match: TeamMatch) -> dict:
    """Seed 001 art. 6: team -> match points.

    Wipeout 3-0. At the limit the team with more territories 2, the other 1; equal territories:
    the team whose single player holds more territories, then more territory points, then 1-1
    (Interpretation joining art. 5 and art. 6). RisiKo!: that team loses 0-3 (Interpretation of
    the score). Forfeit: 3-0 to the team present.
    """
    _check(match)
    home, away = match.home, match.away
    if match.ending in ("wipeout", "forfeit"):
        if match.team is None:  # both absent
            return {home: 0, away: 0}
        return {match.team: 3, (away if match.team == home else home): 0}
    if match.ending == "risiko":
        return {match.team: 0, (away if match.team == home else home): 3}
    for a, b in (match.territories, match.best_player_territories, match.territory_points):
        if a != b:
            return {home: 2, away: 1} if a > b else {home: 1, away: 2}
    return {home: 1, away: 1}


@dataclass(frozen=True)
class TeamRow:
    rank: int
    team: TeamId
    points: int       # match points
    played: int
    territories: int  # total territories over every match


def team_standings(matches: Sequence[TeamMatch], teams: Sequence[TeamId] = (),
                   penalties: Mapping[TeamId, int] | None = None) -> list[TeamRow]:
    """Seed 001: match points, then head to head (points in the matches among the tied teams),
    then total territories; teams still tied share the rank.

    penalties: match points taken off a team by the arbiters (SCORING.md 5, seed 001 art. 20): they
    lower the team's points, never below 0, before ordering; head to head counts the matches only."""
    points, played, territories = {}, {}, {}
    for team in teams:  # teams that have not played yet still get a row
        points[team], played[team], territories[team] = 0, 0, 0
    results = []
    for match in matches:
        got = match_points(match)
        results.append((match, got))
        for i, team in enumerate((match.home, match.away)):
            points[team] = points.get(team, 0) + got[team]
            played[team] = played.get(team, 0) + 1
            territories[team] = territories.get(team, 0) + match.territories[i]
    for team, taken in (penalties or {}).items():
        if not isinstance(taken, int) or type(taken) is bool or taken < 0:
            raise InvalidResult("a team penalty is a whole number of points from 0", code="team_penalty",
                                field="penalties", location=f"team {team}")
        points[team] = max(0, points.get(team, 0) - taken)
        played.setdefault(team, 0)
        territories.setdefault(team, 0)

    def head_to_head(group):
        members = set(group)
        mini = {t: 0 for t in group}
        for match, got in results:
            if match.home in members and match.away in members:
                mini[match.home] += got[match.home]
                mini[match.away] += got[match.away]
        return mini

    ordered = sorted(points, key=id_key)
    ordered.sort(key=lambda t: points[t], reverse=True)
    groups = []
    i = 0
    while i < len(ordered):
        j = i + 1
        while j < len(ordered) and points[ordered[j]] == points[ordered[i]]:
            j += 1
        group = ordered[i:j]
        if len(group) > 1:
            mini = head_to_head(group)
            key = {t: (mini[t], territories[t]) for t in group}
            group = sorted(group, key=lambda t: key[t], reverse=True)
            k = 0
            while k < len(group):
                m = k + 1
                while m < len(group) and key[group[m]] == key[group[k]]:
                    m += 1
                groups.append(group[k:m])
                k = m
        else:
            groups.append(group)
        i = j
    rows = []
    for group in groups:
        rank = len(rows) + 1
        for team in sorted(group, key=id_key):
            rows.append(TeamRow(rank, team, points[team], played[team], territories[team]))
    return rows


@dataclass(frozen=True)
class Pairing:
    """One round of a round robin."""
    round: int
    matches: tuple[tuple[TeamId, TeamId], ...]
    bye: TeamId | None = None


def round_robin(teams: Sequence[TeamId]) -> list[Pairing]:
    """Seed 001 art. 2, "girone all'italiana di sola andata": every team meets every other once.

    Circle method: the first team stays, the others rotate one seat per round; with an odd number
    of teams one team rests each round (bye). Home and away alternate for the fixed team.
    """
    teams = list(teams)
    if len(set(teams)) != len(teams):
        raise InvalidResult("a team is listed twice", code="duplicate_team", field="teams", location="round robin")
    if len(teams) < 2:
        return []
    if len(teams) % 2:
        teams.append(None)
    n = len(teams)
    rounds = []
    order = teams[:]
    for r in range(n - 1):
        matches, bye = [], None
        for i in range(n // 2):
            a, b = order[i], order[n - 1 - i]
            if a is None or b is None:
                bye = b if a is None else a
                continue
            if i == 0 and r % 2:
                a, b = b, a
            matches.append((a, b))
        rounds.append(Pairing(r + 1, tuple(matches), bye))
        order = [order[0], order[-1]] + order[1:-1]
    return rounds
