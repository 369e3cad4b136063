"""National team championship (SCORING.md 13.10; Campionato Nazionale a Squadre).

Clubs enter teams (of 4, for 3 rounds): every member plays individual games under the tournament's
formula, and the team counts its best results ("solo le migliori nove partite della squadra"). The
2vs2 matches of section 7 are another thing (`scoring.teams`). `python -m scoring teams` is the
machine contract.
"""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from .contract import games_to_json, is_player_id, is_whole, parse_document
from .engine import score_tournament
from .errors import InvalidDocument
from .formulas import get_formula
from .numeric import ZERO, as_float_for, engine_context, shown_for
from .placement import id_key


@dataclass(frozen=True)
class ChampionshipTeam:
    id: object
    players: tuple


@dataclass(frozen=True)
class TeamRow:
    rank: int
    team: object
    total: Decimal
    counted: tuple  # the results that count, best first
    played: int     # every result of the team's members


@dataclass(frozen=True)
class TeamChampionship:
    result: object  # the individual Result (scoring.model.Result) the team results come from
    teams: tuple    # of TeamRow, in order


def _err(message, code="team_championship", **kw):
    return InvalidDocument(message, code=code, **kw)


def check_teams(teams, best) -> dict:
    """Player -> team id; InvalidDocument for a team without players, two teams with one id, a player
    in two teams, or `best` not a whole number of at least 1 (None: every result counts)."""
    if best is not None and (not is_whole(best) or best < 1):
        raise _err("team_rule best must be a whole number of at least 1", code="team_best", field="best")
    team_of, ids = {}, set()
    for team in teams:
        if team.id in ids:
            raise _err(f"two teams have the id {team.id}", code="team_twice", field="teams")
        ids.add(team.id)
        if not team.players:
            raise _err(f"team {team.id} has no players", code="team_empty", field="players")
        for player in team.players:
            if player in team_of:
                raise _err(f"player {player} is in teams {team_of[player]} and {team.id}",
                           code="team_player_twice", field="players", player=player)
            team_of[player] = team.id
    return team_of


def score_team_championship(formula, params, games, absences, teams, best=None) -> TeamChampionship:
    """13.10 (CNS rules; GestioneTorneo `ScoreTeamCNS`): a team's results are the game points (formula,
    correctives, penalties) of every game its members played, as the games' points show them (a
    forfeited seat's 0 included); its total is the sum of its `best` highest results (all of them if
    fewer, or when `best` is None). Order: total as shown, then the counted results best first (a
    longer list wins when the other is its prefix); teams still level share the rank, listed by id."""
    team_of = check_teams(teams, best)
    for game in games:
        for p in game.players:
            if p.id not in team_of:
                raise _err("plays in no team", code="team_missing", round=game.round, table=game.table,
                           player=p.id, field="teams")
    result = score_tournament(formula, params, games, absences=absences)
    show = shown_for(get_formula(formula).decimals)
    results = {team.id: [] for team in teams}
    for game in result.games:
        for player, points in game.points.items():
            results[team_of[player]].append(points)
    with engine_context():
        rows = []
        for team in teams:
            ordered = sorted(results[team.id], reverse=True)
            counted = tuple(ordered if best is None else ordered[:best])
            total = sum(counted, ZERO)
            rows.append((team.id, total, counted, len(ordered), (show(total), tuple(map(show, counted)))))
        rows.sort(key=lambda r: id_key(r[0]))
        rows.sort(key=lambda r: r[4], reverse=True)
        ranked, previous = [], None
        for i, (team, total, counted, played, key) in enumerate(rows, 1):
            rank = ranked[-1].rank if previous == key else i
            ranked.append(TeamRow(rank, team, total, counted, played))
            previous = key
    return TeamChampionship(result, tuple(ranked))


def parse_team_championship_document(doc):
    """The section 9 document plus `teams` [{"id", "players"}] and `team_rule` {"best"} -> the
    arguments of `score_team_championship`."""
    formula, params, games, absences = parse_document(doc)
    raw_teams = doc.get("teams")
    if not isinstance(raw_teams, list):
        raise _err("teams must be a list", code="shape", field="teams")
    teams, id_types = [], set()
    for i, raw in enumerate(raw_teams, 1):
        if not isinstance(raw, dict) or not is_player_id(raw.get("id")):
            raise _err(f"team {i} must be an object with a non-empty string or whole number id",
                       code="shape", field="teams")
        players = raw.get("players")
        if not isinstance(players, list) or not all(map(is_player_id, players)):
            raise _err(f"team {raw['id']}: players must be a list of player ids", code="shape",
                       field="players")
        id_types.update(map(type, players))
        teams.append(ChampionshipTeam(raw["id"], tuple(players)))
    if len(id_types) > 1:
        raise _err("player ids must be all strings or all whole numbers", code="shape", field="players")
    rule = doc.get("team_rule")
    if rule is None:
        rule = {}
    if not isinstance(rule, dict):
        raise _err("team_rule must be an object", code="shape", field="team_rule")
    return formula, params, games, absences, teams, rule.get("best")


def team_championship_to_json(championship: TeamChampionship) -> dict:
    as_float = as_float_for(get_formula(championship.result.formula).decimals)
    return {"games": games_to_json(championship.result),
            "teams": [{"rank": r.rank, "team": r.team, "total": as_float(r.total),
                       "counted": [as_float(c) for c in r.counted], "played": r.played}
                      for r in championship.teams]}
