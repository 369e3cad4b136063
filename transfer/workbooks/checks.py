"""A tournament read from a workbook, checked before anything is written: every table by the scoring
engine (SCORING.md section 2, through tables.engine.settle_entered, the one validation of a table's
result), and every person matched with the known players by `match_person`, the one matching of a
person (a national ID first, then name and club, then the near misses)."""
from dataclasses import dataclass, field
from itertools import permutations
from decimal import Decimal

from django.utils.translation import gettext as _
from rapidfuzz import fuzz, process

import scoring
from scoring.errors import ScoringError
from scoring.table_result import EnteredResult, settle_table
from tables import engine
from tables.results.services import ResultLine
from tournaments.registration.selectors import NEAR_SCORE, PersonMatcher, clubs_of, known_label
from tournaments.text import fold
from transfer.workbooks.club import ELIMINATED_MARK

MAX_ROUNDS = 30      # a tournament's rounds (Tournament.rounds_planned)
MAX_PENALTY_POINTS = Decimal("99999.99")


def check_tables(past, formula=None):
    """Refuse, at their cells, the tables that break a rule of SCORING.md section 2."""
    if not past.rounds and not past.errors:
        past.refuse(_("The file has no results: no row names a player at a table."))
    if len(past.rounds) > MAX_ROUNDS:
        past.refuse(_("A tournament has at most %(n)d rounds: this file has %(m)d.") % {
            "n": MAX_ROUNDS, "m": len(past.rounds)})
    # A sheet with rows refused as they were read has tables missing players: its tables wait.
    unread = {error.cell.sheet for error in past.errors if error.cell is not None}
    for rnd in past.rounds:
        for table in rnd.tables:
            if table.cell.sheet in unread:
                continue
            _settle_marks(past, table, formula)
            for seat in table.seats:
                if seat.penalty and (seat.penalty > MAX_PENALTY_POINTS or seat.penalty != round(seat.penalty, 2)):
                    past.refuse(_("a penalty is a number of points with at most 2 decimals"),
                                seat.cells.get("penalty", seat.row), seat=seat)
            if any(seat.errors for seat in table.seats) or any(
                    seat.eliminated == ELIMINATED_MARK for seat in table.seats):
                continue
            lines = [ResultLine(seat_id=i, table_points=seat.table_points, risiko=seat.risiko,
                                eliminated=seat.eliminated, place=seat.place)
                     for i, seat in enumerate(table.seats)]
            names = {i: past.people[seat.person].full_name for i, seat in enumerate(table.seats)}
            try:
                engine.settle_entered(round_number=rnd.number, table_number=table.number, lines=lines, names=names)
            except engine.ResultError as exc:
                seat = table.seats[exc.player] if exc.player is not None else None
                if seat is None:
                    past.refuse(_("table %(table)d: %(detail)s") % {"table": table.number, "detail": exc.detail},
                                table.cell, table=table)
                else:
                    past.refuse(exc.message, seat.cells.get(exc.field, seat.row), seat=seat)


def _settle_marks(past, table, formula):
    """Eliminations marked with a cross ("x", "ELIM"): the order is 1 when the player is the table's only
    one out. Several crosses: the order is asked only when the formula's points depend on it (every order
    scored by the engine); otherwise the row order stands in for it, and the preview says so."""
    marked = [seat for seat in table.seats if seat.eliminated == ELIMINATED_MARK]
    if not marked:
        return
    ordered = [seat for seat in table.seats if seat.eliminated and seat not in marked]
    if len(marked) == 1 and not ordered:
        marked[0].eliminated = 1
        return
    if not ordered and formula is not None and not _order_matters(table, marked, formula):
        for order, seat in enumerate(marked, start=1):
            seat.eliminated = order
        past.note(_("table %(table)d: the order of elimination is not written; under this formula it does not "
                    "change anyone's points") % {"table": table.number}, table.cell)
        return
    if not ordered and formula is None:
        past.note(_("table %(table)d: the order of elimination is not written; it is asked only if the formula "
                    "chosen needs it") % {"table": table.number}, table.cell)
        return
    for seat in marked:
        past.refuse(_("write the order of elimination (1 for the first out, then 2...), not a cross: this formula "
                      "scores the players out by their order"),
                    seat.cells.get("eliminated", seat.cells.get("table_points", seat.row)), seat=seat)


def formulas_needing_order(past, formulas):
    """Of `formulas`, those whose points depend on an order of elimination the file does not hold (several
    players out at a table, marked with crosses or, in GestioneTorneo's file, with 0 points)."""
    tables = []
    for rnd in past.rounds:
        for table in rnd.tables:
            marked = [seat for seat in table.seats if seat.eliminated == ELIMINATED_MARK]
            if len(marked) > 1 and not any(seat.eliminated and seat not in marked for seat in table.seats):
                tables.append((table, marked))
    return [formula for formula in formulas if any(_order_matters(table, marked, formula)
                                                   for table, marked in tables)]


def _order_matters(table, marked, formula):
    """Whether two orders of elimination of the `marked` seats give anyone different points."""
    results = set()
    for orders in permutations(range(1, len(marked) + 1)):
        order_of = dict(zip(map(id, marked), orders))
        entered = [EnteredResult(id=i, table_points=seat.table_points, risiko=seat.risiko,
                                 eliminated=order_of.get(id(seat), seat.eliminated), place=seat.place)
                   for i, seat in enumerate(table.seats)]
        try:
            game = settle_table(1, table.number, entered).game
            results.add(tuple(sorted(scoring.score_game(formula, game).points.items())))
        except ScoringError:
            return True
        if len(results) > 1:
            return True
    return False


@dataclass
class Matching:
    """Who each person of the file is: a known player, or None for a new one; `candidates` are the known
    players asked about (several by the name, the name known in another club, or a near miss), each
    person's question in `questions`, waiting for the organiser's pick."""
    players: dict = field(default_factory=dict)       # person key -> Player or None
    candidates: dict = field(default_factory=dict)    # person key -> [Player]
    questions: dict = field(default_factory=dict)     # person key -> "choose", "elsewhere" or "near"
    clubs_new: set = field(default_factory=set)       # club names not in the list yet

    def state(self, key):
        if key in self.candidates:
            return self.questions.get(key, "choose")
        return "known" if self.players.get(key) is not None else "new"


def match_people(past, *, viewer, picks=None, ask=False, new_players=False, shown=False):
    """Match every person of `past` with `match_person` (a national ID, then name and club, then the near
    misses); `picks` ({person key: player id or "new"}) answers the questions. Without an answer, a
    question is refused at the person's cell, with the players it asks about, unless `ask` (the page's
    preview, which shows the choice instead); `new_players` takes the unanswered near misses and names
    known in other clubs as new players (several known by the name and club are still asked); `shown`:
    the organiser saw the preview's notes (two people of the file named nearly alike are then theirs to
    correct in the file, not a refusal)."""
    matching = Matching()
    picks = picks or {}
    taken = {}
    matcher = PersonMatcher(viewer)
    _near_in_file(past, ask=ask or shown, new_players=new_players)
    for key, person in past.people.items():
        found = matcher.match(first_name=person.first_name, last_name=person.last_name, club_name=person.club,
                              national_id=person.national_id, readings=[tuple(person.other_reading)])
        if found.refusal:
            past.refuse(found.refusal, person.cell)
            continue
        if found.question and picks.get(key):
            found = found.answer(picks[key])
        if found.question and new_players and found.question != "choose":
            found = found.answer("new")
        if found.question:
            matching.candidates[key] = list(found.asked)
            matching.questions[key] = found.question
            if not ask:
                past.refuse(_question(person, found), person.cell)
            continue
        player = found.player
        if player is None and person.club and found.club is None:
            matching.clubs_new.add(person.club)
        if player is not None:
            if player.pk in taken:
                past.refuse(_("%(name)s and %(other)s are the same known player: %(player)s") % {
                    "name": person.full_name, "other": past.people[taken[player.pk]].full_name,
                    "player": known_label(player)}, person.cell)
                continue
            taken[player.pk] = key
        matching.players[key] = player
    return matching


def _near_in_file(past, *, ask, new_players):
    """Two people of the file named nearly alike who never sit in the same round ("Giulia Bianchi" in
    round 1, "Giulia Bianci" in round 2) are likely one person written two ways: the preview says so,
    the command stops at the second one's cell unless `new_players`."""
    rounds_of = {}
    for rnd, _table, seat in past.seats():
        rounds_of.setdefault(seat.person, set()).add(rnd.number)
    people = list(past.people.values())
    names = {p.key: fold(p.full_name) for p in people}
    for index, person in enumerate(people):
        later = {p.key: names[p.key] for p in people[index + 1:] if names[p.key] != names[person.key]}
        for _name, _score, key in process.extract(names[person.key], later, scorer=fuzz.token_sort_ratio,
                                                   score_cutoff=NEAR_SCORE, limit=3):
            if rounds_of.get(person.key, set()) & rounds_of.get(key, set()):
                continue    # at the same round: two people
            other = past.people[key]
            message = _("“%(name)s” is nearly “%(other)s” (%(where)s): the same person written two ways? Correct "
                        "the file, or give --new-players if they are two people") % {
                "name": other.full_name, "other": person.full_name, "where": person.cell}
            if ask:
                past.note(message, other.cell)
            elif not new_players:
                past.refuse(message, other.cell)


def _question(person, found):
    labels = "; ".join(known_label(p) for p in found.asked)
    if found.question == "choose":
        return _("several known players are called %(name)s (%(clubs)s): add the club, or import from the page "
                 "to choose") % {"name": person.full_name, "clubs": clubs_of(found.asked)}
    if found.question == "elsewhere":
        return _("%(name)s is known at another club (%(players)s): the same person, now at %(club)s? Import "
                 "from the page to answer, or give --new-players if they are someone else") % {
            "name": person.full_name, "players": labels, "club": person.club}
    return _("did you mean %(players)s? Correct the name, import from the page to answer, or give --new-players "
             "if %(name)s is someone new") % {"players": labels, "name": person.full_name}
