"""Reads of circuits: each tournament's final order, a circuit's standings (SCORING.md section 11)
and a player's history. Every result is cached (tables.standings.versioned) under the versions of what
it was computed from: a tournament's results version (bumped by every audited change,
tournaments.versions) and the circuit's own revision (bumped by every audited change of the circuit), so a correction or a final
played shows at once and an unchanged ranking is computed once."""
from dataclasses import dataclass, field

from circuits.models import Circuit
from scoring.circuit import (CircuitRule, CircuitTournament, Entry, GamesRule, GamesTournament, PlayerGames,
                             score_circuit, score_games_circuit)
from scoring.errors import ScoringError
from scoring.season import parse_events, parse_rule, rule_from_circuit_document, score_season
from tables.standings import versioned
from tables.standings.selectors import standings_are_final, standings_lead, standings_state, tournament_standings
from tournaments.models import Player, Registration, Tournament
from tournaments.rules import own_tournaments, shown_publicly
from tournaments.versions import results_version


@dataclass
class OrderRow:
    rank: int
    registration_id: int
    player: object  # the person (a merged record resolved to the one kept)
    total: object = None  # tournament points of the qualifying standings (None after a knockout)
    stage: str | None = None  # the furthest stage reached after the qualifying (season rules' "stage")


# A phase of the final standings as a stage of a season rule (scoring.season.STAGES).
STAGE_OF_PHASE = {"final": "final", "finalina": "semifinal", "semifinal": "semifinal", "semifinals": "semifinal",
                  "quarterfinal": "quarterfinal", "qualifying": "qualifying"}


@dataclass
class TournamentOrder:
    rows: list
    final: bool  # definitive: every round closed and published, no dispute open or possible

    @property
    def participants(self):
        return len(self.rows)

    def row_of(self, player_pk):
        return next((r for r in self.rows if r.player.pk == player_pk), None)


def _person(player, people):
    """The player kept when `player`'s record was merged into another (followed to the end)."""
    seen = set()
    while player.merged_into_id is not None and player.pk not in seen:
        seen.add(player.pk)
        if player.merged_into_id not in people:
            people[player.merged_into_id] = Player.all_players.select_related("club").get(pk=player.merged_into_id)
        player = people[player.merged_into_id]
    return player


def _ranked(entries):
    """[(position, registration, total[, stage])] in order -> OrderRows with a competition ranking
    (1, 1, 3), each person once (the better position kept)."""
    people, rows, seen, previous = {}, [], set(), None
    for position, registration, total, *stage in sorted(entries, key=lambda e: e[0]):
        player = _person(registration.player, people)
        if player.pk in seen:
            continue
        seen.add(player.pk)
        index = len(rows) + 1
        rank = rows[-1].rank if rows and position == previous else index
        previous = position
        rows.append(OrderRow(rank, registration.pk, player, total, stage[0] if stage else None))
    return rows


def _compute_order(tournament):
    lead = standings_lead(tournament, published_only=True)
    if lead is not None and lead.final_rows:
        entries = [(r.position, r.registration, r.qualifying_total, _stage(r)) for r in lead.final_rows]
        return TournamentOrder(_ranked(entries), lead.complete and standings_are_final(tournament))
    if lead is not None and lead.kind == "knockout":
        return TournamentOrder([], False)  # no order before the final is played
    result = tournament_standings(tournament, published_only=True)
    regs = {r.pk: r for r in Registration.objects.filter(tournament=tournament).select_related(
        "player", "player__club")}
    entries = [(r.rank, regs[r.registration_id], r.total) for r in result.rows]
    return TournamentOrder(_ranked(entries), not result.provisional and standings_are_final(tournament))


def _stage(row):
    """The stage a FinalRow's player reached: the winner of the final, else its phase's stage."""
    if row.phase == "final" and row.position == 1:
        return "winner"
    phase = (row.reached or row.phase or "").lower()
    return STAGE_OF_PHASE.get(phase) or ("semifinal" if "semi" in phase else
                                         "quarterfinal" if "quarter" in phase else None)


def final_order(tournament):
    """The tournament's final order from its published standings (after finals, SCORING.md section 6),
    computed once per results version."""
    return versioned.computed(versioned.tournament_slot("circuit-order", tournament, _order_version(tournament)),
                              lambda: _compute_order(tournament))


def _order_version(tournament):
    """The results version and the order's status: a dispute window closing changes no result but makes
    the order final (and an event of a season rule counts from then on)."""
    return f"{results_version(tournament.pk)}:{standings_state(tournament).key}"


def circuit_entries(circuit):
    """The circuit's tournaments that the public sees (published), oldest first."""
    return list(shown_publicly(circuit.entries).select_related("tournament", "tournament__club"))


def circuit_version(circuit, entries=None):
    entries = circuit_entries(circuit) if entries is None else entries
    parts = [f"c{circuit.pk}-{circuit.created_at.timestamp()}-{circuit.revision}"]
    parts += [f"{e.tournament_id}:{e.weight}:{_order_version(e.tournament)}" for e in entries]
    return "|".join(parts)


@dataclass
class Cell:
    """A player's result in one tournament of the circuit."""
    rank: int
    participants: int
    points: object
    counted: bool


@dataclass
class CircuitRowView:
    rank: int | None
    player: object
    total: object
    counted: list
    played: int
    wins: int
    cells: list = field(default_factory=list)  # one per tournament column: Cell (GamesCell by games) or None
    tournaments: int | None = None  # by games: the tournaments with at least one game

    @property
    def results(self):
        """By games: every weighted game result (GameResult), tournament after tournament."""
        return [r for cell in self.cells if cell is not None for r in cell.results]


@dataclass
class CircuitStandings:
    circuit: object
    columns: list  # [(CircuitTournament entry, TournamentOrder)] of the published tournaments
    rows: list
    unranked: list
    version: str
    lists: list = field(default_factory=list)  # a season rule's lists (SeasonList), the first is `rows`
    refused: str = ""  # the season engine's words when the tournaments' results do not suit the rule

    @property
    def all_final(self):
        return all(order.final for _entry, order in self.columns)

    def row_of(self, player_pk):
        return next((r for r in self.rows + self.unranked if r.player.pk == player_pk), None)


def engine_rule(circuit):
    return CircuitRule(circuit.rule, tuple(circuit.table_values) if circuit.rule == Circuit.Rule.TABLE else (),
                       circuit.participation, circuit.best_of, circuit.min_tournaments)


def _compute_standings(circuit, entries, version):
    if circuit.by_season_rule:
        return _compute_season_standings(circuit, entries, version)
    if circuit.by_games:
        return _compute_games_standings(circuit, entries, version)
    columns = [(e, final_order(e.tournament)) for e in entries]
    players = {}
    engine_tournaments = []
    for entry, order in columns:
        for r in order.rows:
            players[r.player.pk] = r.player
        engine_tournaments.append(CircuitTournament(
            entry.tournament_id, tuple(Entry(r.rank, r.player.pk) for r in order.rows), entry.weight))
    result = score_circuit(engine_rule(circuit), engine_tournaments)
    position = {entry.tournament_id: i for i, (entry, _order) in enumerate(columns)}
    sizes = [order.participants for _entry, order in columns]

    def view(row):
        cells = [None] * len(columns)
        for s in row.scores:
            cells[position[s.tournament]] = Cell(s.rank, sizes[position[s.tournament]], s.points, s.counted)
        return CircuitRowView(row.rank, players[row.player], row.total, row.counted, row.played, row.wins, cells)
    return CircuitStandings(circuit, columns, [view(r) for r in result.standings],
                            [view(r) for r in result.unranked], version)


# --- a circuit of weighted game results (SCORING.md 13.11) ------------------------------------------

@dataclass
class TournamentGames:
    """Each player's game points in one tournament, in the formula the circuit takes them in."""
    rows: list  # [(player, [game points in round order])], each person once
    final: bool
    refused: bool = False  # the formula cannot score the tournament's games (its games are left out)

    @property
    def participants(self):
        return len(self.rows)


@dataclass
class GameResult:
    points: object  # weighted
    counted: bool


@dataclass
class GamesCell:
    """A player's weighted game results in one tournament of the circuit, in round order."""
    results: list


def _compute_games(tournament, formula):
    try:
        result = tournament_standings(tournament, formula=formula, published_only=True)
    except ScoringError:
        return TournamentGames([], False, refused=True)  # e.g. maialino_2024 and a tie for first not settled
    people, rows, seen = {}, [], set()
    for r in result.rows:
        player = _person(r.player, people)
        if player.pk in seen:
            continue  # a merged record playing twice: the better placed registration counts
        seen.add(player.pk)
        rows.append((player, [points for points in r.rounds if points is not None]))
    return TournamentGames(rows, not result.provisional and standings_are_final(tournament))


def tournament_game_points(tournament, formula=""):
    """Each player's points per game from the tournament's published standings (the games they count),
    in `formula` (the tournament's own when empty), computed once per results version."""
    formula = formula or tournament.formula
    return versioned.computed(versioned.tournament_slot(f"circuit-games-{formula}", tournament),
                              lambda: _compute_games(tournament, formula))


def _compute_games_standings(circuit, entries, version):
    columns = [(e, tournament_game_points(e.tournament, circuit.formula)) for e in entries]
    players = {player.pk: player for _entry, games in columns for player, _points in games.rows}
    result = score_games_circuit(GamesRule(circuit.best_of, circuit.min_tournaments), [
        GamesTournament(entry.tournament_id, tuple(PlayerGames(p.pk, tuple(points)) for p, points in games.rows),
                        entry.weight) for entry, games in columns])

    def view(row):
        counted = set(row.counted_games)   # the results the engine counted, as it counted them
        cells = [None if points.get(row.player) is None else
                 GamesCell([GameResult(value, (tid, j) in counted) for j, value in enumerate(points[row.player])])
                 for tid, points in result.points]
        return CircuitRowView(row.rank, players[row.player], row.total, row.counted, row.played, 0, cells,
                              row.tournaments)
    return CircuitStandings(circuit, columns, [view(r) for r in result.standings],
                            [view(r) for r in result.unranked], version)


# --- a circuit ranked by a season rule (scoring.season, docs/dev/season-rules.md) ---------------------

@dataclass
class SeasonList:
    """One list of a season rule (an internal and an external ranking of the same year)."""
    name: str
    rows: list
    unranked: list


def season_events(circuit, entries):
    """[(entry, TournamentOrder, TournamentGames)] and the season engine's events: each published
    tournament in its category, each player's result there as its final order and sheets give it
    (rank, its own points after discards, rounds and games played, game points, the stage reached)."""
    rule = circuit.season_rule
    first = next(iter(rule["categories"]))
    columns, events = [], []
    for entry in entries:
        order, games = final_order(entry.tournament), tournament_game_points(entry.tournament)
        points = {player.pk: results for player, results in games.rows}
        results = []
        # An event counts once its result is final: a Master still in play gives its leader of the
        # moment no winner's points; its column says "provisional" until then.
        for r in order.rows if order.final else ():
            played = points.get(r.player.pk, [])
            result = {"player": r.player.pk, "rank": r.rank, "rounds": len(played), "games": [p for p in played]}
            if r.total is not None:
                result["points"] = r.total
            if r.stage:
                result["stage"] = r.stage
            results.append(result)
        columns.append((entry, order))
        events.append({"id": entry.tournament_id, "category": entry.category or first, "weight": entry.weight,
                       "results": results})
    return columns, events


def _compute_season_standings(circuit, entries, version):
    columns, events = season_events(circuit, entries)
    players = {r.player.pk: r.player for _entry, order in columns for r in order.rows}
    try:
        rule = parse_rule(circuit.season_rule)
        result = score_season(rule, parse_events(events, rule))
    except ScoringError as exc:
        standings = CircuitStandings(circuit, columns, [], [], version)
        standings.refused = str(exc)
        return standings
    position = {entry.tournament_id: i for i, (entry, _order) in enumerate(columns)}
    sizes = [order.participants for _entry, order in columns]
    ranks = {(entry.tournament_id, r.player.pk): r.rank for entry, order in columns for r in order.rows}

    def view(row):
        cells = [None] * len(columns)
        if circuit.by_games:
            for tid in dict.fromkeys(u.event for u in row.units):
                cells[position[tid]] = GamesCell([GameResult(u.points, u.counted) for u in row.units if u.event == tid])
        else:
            for u in row.units:
                cells[position[u.event]] = Cell(ranks[(u.event, row.player)], sizes[position[u.event]], u.points,
                                                u.counted)
        return CircuitRowView(row.rank, players[row.player], row.total, row.counted, row.played, row.wins, cells,
                              row.events if circuit.by_games else None)
    lists = [SeasonList(r.name, [view(x) for x in r.standings], [view(x) for x in r.unranked])
             for r in result.rankings]
    standings = CircuitStandings(circuit, columns, lists[0].rows, lists[0].unranked, version)
    standings.lists = lists
    return standings


def circuit_standings(circuit):
    """The circuit's standings, computed once per version of the circuit and of its tournaments."""
    entries = circuit_entries(circuit)
    version = circuit_version(circuit, entries)
    slot = versioned.Slot("circuit-standings", str(circuit.pk), version)
    return versioned.computed(slot, lambda: _compute_standings(circuit, entries, version))


@dataclass
class HistoryRow:
    tournament: object
    rank: int | None
    participants: int
    total: object
    final: bool


@dataclass
class CircuitPlacing:
    circuit: object
    row: object  # CircuitRowView (rank None: unranked)
    ranked: int  # how many players the circuit ranks


def player_history(player):
    """Every published tournament the player played (newest first) and the circuits ranking them."""
    merged = Player.all_players.filter(merged_into=player).values_list("pk", flat=True)
    regs = (shown_publicly(Registration.objects.filter(player_id__in=[player.pk, *merged]))
            .exclude(status=Registration.Status.PENDING).select_related("tournament", "tournament__club")
            .order_by("-tournament__start_date", "-tournament__pk"))
    rows = []
    for reg in regs:
        order = final_order(reg.tournament)
        row = order.row_of(player.pk)
        if row is None:
            continue  # registered but no published game
        rows.append(HistoryRow(reg.tournament, row.rank, order.participants, row.total, order.final))
    tournament_ids = [r.tournament.pk for r in rows]
    placings = []
    for circuit in (Circuit.objects.filter(entries__tournament_id__in=tournament_ids).distinct()
                    .order_by("-season", "name")):
        standings = circuit_standings(circuit)
        row = standings.row_of(player.pk)
        if row is not None:
            placings.append(CircuitPlacing(circuit, row, len(standings.rows)))
    return rows, placings


def public_tournaments_of(user):
    """The organiser's tournaments that may join a circuit (their own), newest first."""
    return own_tournaments(user, Tournament.objects.all()).order_by("-start_date", "name")


def season_rule_of_settings(circuit):
    """The circuit's own settings (SCORING.md section 11 or 13.11) as the season rule they are
    (scoring.season.rule_from_circuit_document): where a club starts composing its own."""
    spec = {"basis": Circuit.Basis.GAMES if circuit.basis == Circuit.Basis.GAMES else Circuit.Basis.RANK,
            "rule": circuit.rule, "participation": circuit.participation, "best_of": circuit.best_of,
            "min_tournaments": circuit.min_tournaments}
    if circuit.rule == Circuit.Rule.TABLE:
        spec["table"] = circuit.table_values
    return rule_from_circuit_document({"circuit": spec, "tournaments": []})["season"]
