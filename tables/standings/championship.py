"""The team table of the national team championship (SCORING.md 13.10): each team's results are the
game points of every game its members played, its total the sum of its best 9, computed by
scoring.team_championship from the same games as the individual standings. Read through
tables.standings.selectors; `cached_championship_table` files it in the version-keyed cache
(tables.standings.versioned), so it is computed once per version of the results."""
from dataclasses import dataclass

from scoring.formulas import get_formula
from scoring.team_championship import ChampionshipTeam, score_team_championship
from tables import engine
from tables.models import Round
from tables.standings import versioned
from tables.standings.games import standings_rounds, tournament_games
from tournaments.teams.championship_selectors import BEST


@dataclass(frozen=True)
class TeamResult:
    """One game of a team member: its points, who played it and in which round; `counted` when it is
    among the team's best."""
    points: object
    player: str
    round: int
    counted: bool


@dataclass(frozen=True)
class ChampionshipRow:
    rank: int
    team_id: int
    name: str
    club: str
    members: tuple      # the players' names
    total: object
    results: tuple      # of TeamResult: the counted ones best first, then the discarded ones
    played: int

    @property
    def counted(self):
        return tuple(r for r in self.results if r.counted)

    @property
    def discarded(self):
        return tuple(r for r in self.results if not r.counted)


@dataclass(frozen=True)
class ChampionshipTable:
    rows: tuple
    best: int
    team_of: dict       # registration id -> team name
    round_numbers: tuple
    provisional: bool
    decimals: int

    @property
    def after_round(self):
        return self.round_numbers[-1] if self.round_numbers else None


def _teams(tournament):
    teams = list(tournament.teams.order_by("pk").prefetch_related("members__registration__player__club"))
    return [t for t in teams if t.members.all()]


def championship_table(tournament, published_only=False):
    """The team table: rank, team, club, total (the best `BEST` results), every result (counted or
    discarded) and the games played. `published_only`: the rounds whose standings are published.
    Players in no team play and count for no team: the engine scores each as a team of their own,
    left out of the table (the ranks after them close up)."""
    teams = _teams(tournament)
    rounds = standings_rounds(tournament, published_only)
    numbers = {number for number, _status in rounds}
    games, totals = tournament_games(tournament, published_only=published_only)
    games = [g for g in games if g.round in numbers]
    member_of = {m.registration_id: team for team in teams for m in team.members.all()}
    alone = sorted({p.id for g in games for p in g.players} - member_of.keys())
    entered = [ChampionshipTeam(t.pk, tuple(m.registration_id for m in t.members.all())) for t in teams]
    entered += [ChampionshipTeam(-reg_id, (reg_id,)) for reg_id in alone]
    scored = score_team_championship(tournament.formula, engine.params_for(tournament, totals), games, (),
                                     entered, BEST)
    names = {m.registration_id: m.registration.player.full_name for t in teams for m in t.members.all()}
    results = {t.pk: [] for t in teams}
    for game in scored.result.games:
        for reg_id, points in game.points.items():
            if reg_id in member_of:
                results[member_of[reg_id].pk].append((points, game.round, names[reg_id]))
    by_pk = {t.pk: t for t in teams}
    rows, previous = [], None
    for row in (r for r in scored.teams if r.team in by_pk):
        rank = rows[-1].rank if previous == row.rank else len(rows) + 1
        previous = row.rank
        rows.append(_row(rank, by_pk[row.team], row, results[row.team]))
    return ChampionshipTable(
        rows=tuple(rows), best=BEST, team_of={reg_id: team.name for reg_id, team in member_of.items()},
        round_numbers=tuple(sorted(numbers)), provisional=any(s != Round.Status.CLOSED for _n, s in rounds),
        decimals=get_formula(tournament.formula).decimals)


def _row(rank, team, row, results):
    ordered = sorted(results, key=lambda r: (-r[0], r[1], r[2].casefold()))
    counted = len(row.counted)
    members = tuple(sorted((m.registration.player.full_name for m in team.members.all()), key=str.casefold))
    club = team.members.all()[0].registration.player.club
    return ChampionshipRow(
        rank=rank, team_id=team.pk, name=team.name, club=club.name if club else "", members=members,
        total=row.total, played=row.played,
        results=tuple(TeamResult(points, player, number, i < counted)
                      for i, (points, number, player) in enumerate(ordered)))


def cached_championship_table(tournament, published_only=False, version=None):
    """championship_table, computed once per version of the tournament's results (`version`: the one
    the request read first, so a value is never filed under a later version than it shows)."""
    name = "team-championship-published" if published_only else "team-championship"
    slot = versioned.tournament_slot(name, tournament, version)
    return versioned.computed(slot, lambda: championship_table(tournament, published_only))
