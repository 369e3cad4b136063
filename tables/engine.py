"""The adapter between the database and the two pure cores: the scoring engine and the seating optimiser.

Everything here takes and returns plain values; the ORM stays in selectors and services."""
from collections import defaultdict
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

import scoring
from scoring.formulas import get_formula
from scoring.errors import InvalidResult, ScoringError
from scoring.table_result import EnteredResult, settle_table
from scoring.territories import continents, territories_by_continent
from scoring.validation import MAX_PENALTY
from tables.seating import Player, SeatingError, evaluate, forced_club_pairs, reseat as reseat_draft, seat_round
from tables.seating.contract import parse as parse_seating

# The engine's rule codes (SCORING.md section 2) in the interface's language.
RESULT_MESSAGES = {
    "table_size": _("a table has 3 to 6 players"),
    "table_points_negative": _("table points cannot be negative"),
    "table_points_too_high": _("table points cannot exceed 200"),
    "table_points_decimals": _("table points have at most 2 decimals"),
    "risiko_twice": _("only one player per table can make RisiKo!"),
    "risiko_eliminated": _("the RisiKo! player cannot be eliminated"),
    "eliminated_table_points": _("eliminated players hold 0 table points"),
    "elimination_order": _("elimination orders must run 1, 2, 3... without gaps or repeats"),
    "eliminated_type": _("the elimination order must be a whole number from 1"),
    "all_eliminated": _("at least one player must not be eliminated"),
    "place_type": _("the place must be a whole number from 1 to the number of players"),
    "place_mismatch": _("place %(place)s does not agree with the table points order (expected %(expected)s)"),
}


class ResultError(Exception):
    """A table result breaks a rule of SCORING.md section 2; `player` is the seat id at fault."""

    def __init__(self, detail, player=None, field=None, name=None):
        self.detail = detail
        self.message = f"{name}: {detail}" if name else detail
        super().__init__(self.message)
        self.player = player
        self.field = field


def club_params(tournament, formula=None):
    """The tournament's club variants (SCORING.md section 13) that `formula` (its own, if not given)
    reads: a formula other than its own (the side-by-side page, the standings under every formula) is
    scored with the variants that apply to it, the others at their default."""
    formula = get_formula(formula or tournament.formula)
    given = {"corrective_scope": tournament.corrective_scope or None, "risiko_total": tournament.risiko_total,
             "spartaco_risiko_losers": tournament.spartaco_risiko_losers or None,
             "standard_eliminated": tournament.standard_eliminated or None}
    applies = set(formula.parameters) | ({"corrective_scope"} if formula.corrective else set())
    params = {name: value for name, value in given.items() if name in applies and value is not None}
    params["como_reference"] = tournament.como_reference if formula.corrective else None
    if params["como_reference"] is None:
        params.pop("corrective_scope", None)
    return params


def params_for(tournament, total_penalties=None, formula=None):
    return scoring.Params(
        discard_worst=tournament.discard_worst, best_of=tournament.best_of,
        tiebreak=tournament.tiebreak_chain, bonus=tournament.bonus, spartaco_malus=tournament.spartaco_malus,
        tournament_penalties=total_penalties or {}, **club_params(tournament, formula))


def build_games(seats, penalties):
    """Plain games from seat rows and penalty rows (dicts from `.values()`).

    Returns (games, tournament-level penalties by registration id)."""
    game_penalty = defaultdict(Decimal)
    disqualified, voided_seats, voided_players = set(), set(), set()
    totals = defaultdict(Decimal)
    for p in penalties:
        kind, seat_id = p["kind"], p["seat_id"]
        if kind == "points":
            if seat_id is None:
                totals[p["registration_id"]] += p["points"]
            else:
                game_penalty[seat_id] += p["points"]
        elif kind == "game_dq" and seat_id is not None:
            disqualified.add(seat_id)
        elif kind == "forfeit" and seat_id is not None:
            voided_seats.add(seat_id)
        elif kind == "expulsion" and p["void_past_results"]:
            voided_players.add(p["registration_id"])
    tables = defaultdict(list)
    for s in seats:
        seat_id, reg_id = s["id"], s["registration_id"]
        # Any penalty at or above the engine's maximum already takes the game to 0.
        penalty = min(game_penalty.get(seat_id, Decimal(0)), MAX_PENALTY)
        # A table decided by the Firenze sheet (SCORING.md 8.1) is placed by the sheet alone: its
        # totals (above 200 allowed) stay on the seat, the engine sees the places.
        sheet = s.get("firenze") is not None
        tables[(s["table__round__number"], s["table__number"])].append(scoring.PlayerResult(
            id=reg_id, table_points=Decimal(0) if sheet else s["table_points"] or Decimal(0), risiko=s["risiko"],
            eliminated=s["eliminated"], place=s["place"], penalty=penalty,
            disqualified=seat_id in disqualified,
            # A forfeit (sconfitta a tavolino) or a voided result is an absence (SCORING.md section 5).
            void=seat_id in voided_seats or reg_id in voided_players))
    games = [scoring.Game(round=r, table=t, players=players) for (r, t), players in sorted(tables.items())]
    return games, dict(totals)


def score(tournament, games, *, formula=None, total_penalties=None):
    """Standings of `games` under the tournament's formula and parameters (or another `formula`)."""
    return scoring.score_tournament(formula or tournament.formula, params_for(tournament, total_penalties, formula),
                                    games)


def settle_result(*, table, seats, lines):
    """One table's result through the scoring core, once: the lines (seat ids, as entered, territories
    and armies included) become one pure game, which `scoring.table_result.settle_table` fills (table
    points from the territories, places by armies), validates and places. Returns the settled lines;
    a broken rule is a ResultError naming the player of `seats` at fault."""
    return settle_entered(round_number=table.round.number, table_number=table.number, lines=lines,
                          names={pk: seat.registration.player.full_name for pk, seat in seats.items()},
                          formula=table.round.tournament.formula)


def settle_entered(*, round_number, table_number, lines, names, formula=None):
    """`settle_result` for a table not in the database yet (a workbook's table checked before it is
    imported): the lines' `seat_id`s are any ids, `names` gives each one's player name for the messages.
    With `formula`, the table is also one that formula scores: `maialino_2024` has one winner, so a tie
    for first left unsettled by place is refused here, where the arbiter can settle it."""
    try:
        settled = settle_table(round_number, table_number, [
            EnteredResult(id=line.seat_id, table_points=line.table_points, risiko=line.risiko,
                          eliminated=line.eliminated, place=line.place, territories=tuple(line.territories),
                          armies=line.armies) for line in lines])
        if formula is not None:
            _formula_accepts(formula, settled.game)
    except ScoringError as exc:
        raise _result_error(exc, names) from None
    return settled.lines


def _formula_accepts(formula, game):
    """Raise the formula's InvalidResult for a table it cannot score (`maialino_2024`: a tie for first
    not settled by place); its parameters are the tournament's business, checked where they are saved."""
    try:
        scoring.score_game(formula, game)
    except InvalidResult:
        raise
    except ScoringError:
        pass


def _result_error(exc, names):
    name = names.get(exc.player) if exc.player is not None else None
    if exc.code == "table_points_missing":
        return ResultError(_("enter the table points of %(name)s") % {"name": name},
                           player=exc.player, field="table_points")
    if exc.code == "winner_tie":
        return ResultError(_("%(a)s and %(b)s are tied for first, but this formula has one winner: the arbiter "
                             "chooses who is first and enters it as the place (1 and 2).")
                           % {"a": name, "b": names.get(exc.context["other"])}, player=exc.player, field="place")
    if exc.code == "territory_twice":
        return ResultError(_("%(territory)s is ticked for both %(a)s and %(b)s: a territory has one owner.") % {
            "territory": exc.context["territory"], "a": names[exc.context["other"]], "b": name},
            player=exc.player, field="territories")
    return ResultError(result_detail(exc), player=exc.player, field=exc.field, name=name)


def result_detail(exc):
    """A scoring engine's refusal of a table result in the interface's language."""
    message = RESULT_MESSAGES.get(exc.code)
    if message is None:
        return exc.detail
    return str(message) % exc.context if "%(" in str(message) else str(message)


def territory_groups():
    """The 42 territories grouped by continent, for the calculator and the table sheets."""
    names = continents()
    return [{"key": key, "name": names[key].name,
             "territories": [{"name": t.name, "value": t.value} for t in group]}
            for key, group in territories_by_continent().items()]


# --- seating -----------------------------------------------------------------------------------

# The optimiser's rule codes (SEATING.md sections 1, 2 and 4) in the interface's language;
# %(player)s is the player's name.
SEATING_MESSAGES = {
    "too_few_players": _("At least 3 players are needed to draw a round: %(n)s are present."),
    "player_twice": _("%(player)s is listed twice."),
    "size_range": _("Every table must have 3 to 6 players."),
    "sizes_sum": _("The table sizes add up to %(seats)s seats, but %(n)s players are present."),
    "pinned_absent": _("%(player)s has a fixed seat but is not checked in."),
    "greek_no_previous": _("The Greek method needs the previous round's results: draw this round with "
                           "another method."),
    "plan_empty": _("Write the plan for the fixed method."),
    "plan_absent": _("The plan seats %(player)s, who is not checked in."),
    "plan_twice": _("The plan seats %(player)s twice."),
    "plan_missing": _("The plan leaves out %(player)s, who is checked in."),
    "draft_twice": _("The draft seats %(player)s twice."),
    "como_too_few": _("Table 1 of the top five needs at least 9 players present: %(n)s are."),
    "como_top_size": _("Table 1 seats the top five of the standings: its size must be 5, not %(size)s."),
    "too_many_players": _("At most %(limit)s players can be seated in one draw: %(n)s are present. Split the "
                          "tournament into groups, or seat this round with the fixed method."),
}
SEATING_FALLBACK = _("These players cannot be seated this way: change the method or the table sizes.")


def seating_message(exc, names=None):
    """The organiser's message, in the interface's language, for a SeatingError of the optimiser."""
    context = dict(exc.context)
    if "player" in context:
        context["player"] = (names or {}).get(context["player"], context["player"])
    return str(SEATING_MESSAGES.get(exc.code, SEATING_FALLBACK)) % context


# Notes of a draw that went through, for the organiser (the sizes note is shown by the rounds page).
SEATING_NOTICES = {
    "no_standings": _("There are no standings yet, so table 1 cannot seat the top players: the tables were "
                      "drawn at random, keeping clubs apart and avoiding rematches."),
}
# Methods that place players by rank or by a plan rather than to keep clubs apart.
PLACED_METHODS = ("seeded_top", "snake", "swiss", "greek", "fixed")


def _contract(result):
    return {"tables": result.tables, "penalties": result.penalties.as_contract(), "messages": result.messages,
            "notices": [str(SEATING_NOTICES[code]) % context for code, context in result.notices
                        if code in SEATING_NOTICES]}


def seat(doc, names=None):
    """Seat a round with the optimiser; `doc` is the document of SEATING.md section 4.

    A request the optimiser refuses raises ValidationError with its message (players by `names`)."""
    try:
        request, _draft = parse_seating(doc)
        return _contract(seat_round(request))
    except SeatingError as exc:
        raise ValidationError(seating_message(exc, names)) from None


def reseat(doc, draft, names=None):
    """Seat who is present now, keeping as much of `draft` (lists of ids) as possible."""
    try:
        request, _draft = parse_seating(doc)
        return _contract(reseat_draft(request, draft))
    except SeatingError as exc:
        raise ValidationError(seating_message(exc, names)) from None


def evaluate_tables(tables, history, table_size, method=None):
    """The penalty figures of tables given as lists of (registration id, club name), against
    `history` (earlier tables as lists of ids), with `club_note` saying why club mates share a table."""
    ids = [[str(reg) for reg, _club in t] for t in tables]
    players = [Player(id=str(reg), club=club) for t in tables for reg, club in t]
    penalties = evaluate(ids, players, history, table_size=table_size)
    figures = {**penalties.as_contract(), "repeat_five_tables": penalties.repeat_five_tables}
    figures["club_note"] = same_club_note(figures["same_club_pairs"], [p.club for p in players], len(tables),
                                          method)
    return figures


def same_club_note(pairs, clubs, tables, method):
    """How many pairs of club mates share a table and why (SEATING.md section 3.1), or None."""
    if not pairs:
        return None
    parts = [ngettext("%(n)d pair of players of the same club shares a table.",
                      "%(n)d pairs of players of the same club share a table.", pairs) % {"n": pairs}]
    forced = forced_club_pairs(clubs, tables)
    unavoidable = sum(p for _k, p in forced.values())
    for club, (k, _p) in forced.items():
        parts.append(_("%(club)s has %(k)d players for %(t)d tables.") % {"club": club, "k": k, "t": tables})
    if unavoidable:
        parts.append(ngettext("%(n)d pair cannot be avoided.", "%(n)d pairs cannot be avoided.",
                              min(unavoidable, pairs)) % {"n": min(unavoidable, pairs)})
    extra = pairs - unavoidable
    if extra > 0 and method in PLACED_METHODS:
        parts.append(ngettext("%(n)d more comes from the method, which places players by rank or by plan.",
                              "%(n)d more come from the method, which places players by rank or by plan.",
                              extra) % {"n": extra})
    elif extra > 0:
        parts.append(ngettext("%(n)d more could be avoided: swap players to separate them.",
                              "%(n)d more could be avoided: swap players to separate them.", extra) % {"n": extra})
    return " ".join(str(p) for p in parts)
