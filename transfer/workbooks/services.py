"""Past tournaments imported from workbooks, through the services that run a live tournament (so the
audit log, the standings and every page are those of a tournament played here): the tournament
(`tournament_save`), its players (matched, or created with `player_save`), registrations and check-in,
each round drawn as a fixed plan of the workbook's tables, published, its tables' results saved with
`table_result_submit`, penalties given with `penalty_give`, the round closed and its standings
published. One transaction: a refusal anywhere writes nothing.

A past tournament has no disputes to wait for: its dispute window is 0, so its standings are final at
once and it can join a season circuit."""
from collections import Counter
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from tables.arbitration.services import penalty_give
from tables.engine import ResultError
from tables.models import Penalty
from tables.results.services import ResultLine, table_result_submit
from phases.draw import phase_draw
from phases.services import format_apply
from tables.rounds.services import round_close, round_create, round_publish, standings_publish
from tournaments import services as core
from tournaments import versions
from tournaments.audit.services import audit
from tournaments.models import Phase, Player
from tournaments.rules import may_change_player
from transfer.workbooks.book import BOOK_SUFFIXES, not_a_workbook, read_book
from transfer.workbooks.checks import check_tables, formulas_needing_order, match_people
from transfer.workbooks.club import find_header, read_club_layout, round_number, unread_formula
from transfer.workbooks.gestione import is_gestione, read_gestione_layout
from transfer.workbooks.model import LAYOUT_GESTIONE, SETTINGS, Cell, PastTournament, WorkbookError



def past_tournament_read(*, data, filename=""):
    """The tournament a file holds, its tables checked by the engine; refusals in `errors`."""
    try:
        sheets = read_book(data, filename)
    except WorkbookError as exc:
        past = PastTournament(layout="")
        past.errors.append(exc)
        return past
    visible = [sheet for sheet in sheets if not sheet.hidden]
    past = read_gestione_layout(visible) if is_gestione(visible) else read_club_layout(visible)
    _note_hidden(past, sheets)
    _refuse_formulas(past, sheets)
    if not past.rounds and sheets and sheets[0].text and filename.lower().endswith(BOOK_SUFFIXES[:-1]):
        # A workbook's name on a text that holds no table either: a letter, a saved web page...
        past.errors, past.not_a_tournament = [not_a_workbook()], False
    elif past.layout:
        check_tables(past)   # the tables read whole, beside the rows refused as they were read
    order = {sheet.name: i for i, sheet in enumerate(sheets)}
    past.errors.sort(key=lambda e: (-1, 0, 0, "") if e.cell is None else (
        order.get(e.cell.sheet, -1), e.cell.row, len(e.cell.column), e.cell.column))
    return past


def _note_hidden(past, sheets):
    """A hidden sheet (an old draft beside the real round) is left out, and named in the preview when it
    looks like a round; GestioneTorneo's template hides its own lists ("Dati", "GIOCATORI")."""
    for sheet in sheets:
        if sheet.hidden and (round_number(sheet.name) is not None or find_header(sheet) is not None):
            past.note(_("the sheet is hidden: left out (show it in the workbook to import it)"), Cell(sheet.name))


def _refuse_formulas(past, sheets):
    """A cell the tournament reads that holds a formula without its value (book.py) is refused at its cell."""
    formulas = {(sheet.name, row, column): formula for sheet in sheets for (row, column), formula in
                sheet.formulas.items()}
    if not formulas:
        return
    cells = [cell for _rnd, _table, seat in past.seats() for cell in (seat.row, *seat.cells.values())]
    cells += [person.cell for person in past.people.values()]
    for cell in dict.fromkeys(cells):
        formula = formulas.get((cell.sheet, cell.row, cell.column))
        if formula is not None:
            past.refuse(unread_formula(formula), cell)


def past_tournament_check(past, *, user, picks=None, ask=False, formula=None, new_players=False, shown=False):
    """The tables checked again (for `formula` when one is chosen) and the people matched (see
    transfer.workbooks.checks): the Matching."""
    past.errors = []
    check_tables(past, formula)
    return match_people(past, viewer=user, picks=picks, ask=ask, new_players=new_players, shown=shown)


@dataclass
class Imported:
    tournament: object
    players_created: int
    clubs_created: list


@transaction.atomic
def past_tournament_import(*, user, past, name, start_date, settings, published=False, picks=None, source="",
                           new_players=False, shown=False):
    """Create the finished tournament held by `past` (read by `past_tournament_read`); `settings` are the
    scoring settings chosen (SETTINGS), `picks` the answers to "which one?". Raises WorkbookError (with
    its cell) or ValidationError (a setting); nothing is written then."""
    with versions.unannounced():   # a finished tournament nobody watches: no live announcement
        return _import(user, past, name, start_date, settings, published, picks, source, new_players, shown)


def _import(user, past, name, start_date, settings, published, picks, source, new_players, shown):
    matching = past_tournament_check(past, user=user, picks=picks, formula=settings.get("formula"),
                                     new_players=new_players, shown=shown)
    if past.errors:
        raise past.first_error
    sizes = Counter(len(table.seats) for rnd in past.rounds for table in rnd.tables)
    data = {key: settings[key] for key in SETTINGS if settings.get(key) is not None}
    tournament = core.tournament_save(user=user, data={
        **data, "name": name, "start_date": start_date, "published": published, "signup_open": False,
        "rounds_planned": len(past.rounds), "table_size": 5 if sizes[5] > sizes[4] else 4,
        "dispute_window_minutes": 0})
    clubs_before = set()
    registrations, created = {}, 0
    for key, person in past.people.items():
        player = matching.players.get(key)
        if player is None:
            player = _new_player(user, person, tournament, clubs_before)
            created += 1
        elif person.national_id and not player.national_id and may_change_player(user, player) and \
                not Player.all_players.filter(national_id=person.national_id).exists():
            player = _refused_at(person.cell, core.player_save, user=user, player=player, tournament=tournament,
                                 data={"national_id": person.national_id})
        registration = core.registration_add(user=user, tournament=tournament, player=player)
        registrations[key] = core.registration_check_in(user=user, registration=registration, present=True)
    if _is_master(past):
        _play_master(user, tournament, past, registrations)
    elif past.final_round:
        _play_with_final(user, tournament, past, registrations)
    else:
        for entry in past.rounds:
            _play_round(user, tournament, entry, registrations)
    audit(user=user, action="tournament.import_workbook", obj=tournament, tournament=tournament, after={
        "file": source, "layout": past.layout, "rounds": len(past.rounds), "registrations": len(registrations),
        "players_created": created, "clubs_created": sorted(clubs_before)})
    return Imported(tournament, created, sorted(clubs_before))


def _refused_at(cell, service, **kwargs):
    """A service's refusal of a row, as a WorkbookError at its cell."""
    try:
        return service(**kwargs)
    except ValidationError as exc:
        raise WorkbookError(" ".join(exc.messages), cell) from None
    except ResultError as exc:
        raise WorkbookError(exc.message, cell) from None


def _new_player(user, person, tournament, clubs_created):
    club = None
    if person.club:
        club = core.club_find_duplicate(name=person.club)
        if club is None:
            club = _refused_at(person.cell, core.club_save, user=user, data={"name": person.club, "city": ""})
            clubs_created.add(club.name)
    national_id = person.national_id
    if national_id and Player.all_players.filter(national_id=national_id).exists():
        national_id = ""   # held by a record this organiser cannot see: the new one goes without it
    return _refused_at(person.cell, core.player_save, user=user, tournament=tournament, data={
        "first_name": person.first_name, "last_name": person.last_name, "nickname": person.nickname,
        "club": club, "city": "", "email": "", "national_id": national_id})


SCORING_FIELDS = ("formula", "tiebreak", "bonus", "spartaco_malus", "como_reference", "discard_worst", "best_of",
                  "risiko_total", "spartaco_risiko_losers", "standard_eliminated", "corrective_scope", "club_preset")
MASTER_GAMES = 2    # GestioneTorneo's Master: 2 games, "3° Turno" the semifinals, "4° Turno" the final


def _is_master(past):
    """A GestioneTorneo Master with its semifinals or final: its rounds after the second are the phases."""
    return past.layout == LAYOUT_GESTIONE and past.kind == "master" and len(past.rounds) > MASTER_GAMES


def _play_master(user, tournament, past, registrations):
    """A Master as its phases (the tournament format "master"): the 2 games as the qualifying rounds, then
    the semifinals and the final, each drawn by the format's own plan from the standings and checked
    against the workbook's tables: a table the plan does not give is refused at its sheet, never imported
    as an ordinary round."""
    if len(past.rounds) > MASTER_GAMES + 2:
        raise WorkbookError(_("a Master has 2 games, the semifinals and the final: this file has %(n)d rounds")
                            % {"n": len(past.rounds)}, Cell(past.rounds[MASTER_GAMES + 2].sheet))
    tournament = _with_format(user, tournament, preset="master", games=MASTER_GAMES)
    later = _play_qualifying(user, tournament, past.rounds[:MASTER_GAMES], registrations)
    _play_phases(user, tournament, zip(past.rounds[MASTER_GAMES:], later), registrations)


def _with_format(user, tournament, **kwargs):
    """The tournament with its phases (`format_apply`); the scoring the organiser chose stands over the
    format's own."""
    chosen = {name: getattr(tournament, name) for name in SCORING_FIELDS}
    tournament = format_apply(user=user, tournament=tournament, **kwargs)
    if any(getattr(tournament, name) != value for name, value in chosen.items()):
        tournament = core.tournament_save(user=user, tournament=tournament, data=chosen)
    return tournament


def _play_qualifying(user, tournament, entries, registrations):
    """The workbook's rounds as the qualifying rounds, drawn as written; the later phases, in order."""
    phases = list(tournament.phases.order_by("order"))
    for entry in entries:
        rnd = _draw_round(user, tournament, entry, registrations)
        rnd.phase = phases[0]
        rnd.save(update_fields=["phase"])
        _play_drawn(user, tournament, rnd, entry, registrations)
    return [phase for phase in phases if phase.kind in (Phase.Kind.SEMIFINAL, Phase.Kind.FINAL)]


def _play_with_final(user, tournament, past, registrations):
    """A club's rounds and its "Finale": the rounds qualify (a composed format whose final of 4 or 5 takes
    the top of the standings), the final is drawn by the format and checked against the sheet's table."""
    final = next(entry for entry in past.rounds if entry.number == past.final_round)
    games = [entry for entry in past.rounds if entry is not final]
    size = len(final.tables[0].seats)
    if len(final.tables) != 1 or size not in (4, 5) or not games:
        raise WorkbookError(_("a final is one table of 4 or 5 players after the rounds"), Cell(final.sheet))
    composition = {"tiers": [{"up_to": None, "direct": size, "semifinal": None,
                              "repechage": {"seats": 0, "min_games": 1}}], "final_size": size}
    tournament = _with_format(user, tournament, preset="composed", games=len(games), discards=0,
                              composition=composition)
    later = _play_qualifying(user, tournament, games, registrations)
    _play_phases(user, tournament, [(final, later[0])], registrations)


def _play_phases(user, tournament, pairs, registrations):
    """Each (workbook round, phase): drawn by the format's plan, checked against the workbook's tables."""
    for entry, phase in pairs:
        try:
            rnd = phase_draw(user=user, phase=phase, seed=0)
        except ValidationError as exc:
            raise WorkbookError(" ".join(exc.messages), Cell(entry.sheet)) from None
        drawn = sorted(sorted(s.registration_id for s in table.seats.all()) for table in rnd.tables.all())
        written = sorted(sorted(registrations[seat.person].pk for seat in table.seats) for table in entry.tables)
        if drawn != written:
            raise WorkbookError(_("the tables of the %(phase)s are not those the format gives from the standings "
                                  "after the rounds (under the formula chosen): check the sheet, the formula, or "
                                  "import its rounds as ordinary rounds") % {"phase": phase.label},
                                Cell(entry.sheet))
        _play_drawn(user, tournament, rnd, entry, registrations)


def _draw_round(user, tournament, entry, registrations):
    plan = [[str(registrations[seat.person].pk) for seat in table.seats] for table in entry.tables]
    return _refused_at(entry.tables[0].cell, round_create, user=user, tournament=tournament, method="fixed",
                       fixed_plan=plan, partial_plan=True, seed=0)


def _play_round(user, tournament, entry, registrations):
    """One round of the workbook: drawn as its fixed plan, then played (`_play_drawn`)."""
    _play_drawn(user, tournament, _draw_round(user, tournament, entry, registrations), entry, registrations)


def _play_drawn(user, tournament, rnd, entry, registrations):
    """A round drawn with the workbook's tables: published, every table's result saved, its penalties given,
    closed and its standings published."""
    round_publish(user=user, rnd=rnd)
    by_players = {frozenset(s.registration_id for s in table.seats.all()): table for table in rnd.tables.all()}
    for read in entry.tables:
        table = by_players[frozenset(registrations[seat.person].pk for seat in read.seats)]
        seats = {s.registration_id: s for s in table.seats.select_related("registration")}
        lines = []
        for seat in read.seats:
            stored = seats[registrations[seat.person].pk]
            lines.append(ResultLine(seat_id=stored.pk, table_points=seat.table_points, risiko=seat.risiko,
                                    eliminated=seat.eliminated, place=seat.place))
        _refused_at(read.cell, table_result_submit, user=user, table=table, lines=lines, version=table.version)
        for seat in read.seats:
            if seat.penalty:
                stored = seats[registrations[seat.person].pk]
                _refused_at(seat.cells.get("penalty", seat.row), penalty_give, user=user, tournament=tournament,
                            reason=_("Penalty written in the workbook"), kind=Penalty.Kind.POINTS,
                            points=seat.penalty, registration=stored.registration, seat=stored)
    rnd = round_close(user=user, rnd=rnd)
    standings_publish(user=user, rnd=rnd)


@transaction.atomic
def season_import(*, user, files, settings, published=False, names=None, dates=None, new_players=False,
                  skipped=None):
    """Several files, one tournament each (`files`: [(file name, bytes)], `names` and `dates` by file
    name), all or nothing: the first refusal names its file and cell. In a season of several files, a
    file with no sheet of rounds at all (the season's standings, notes) is not a tournament: it is
    left out, and (file name, why) added to `skipped`."""
    imported = []
    for filename, data in files:
        past = past_tournament_read(data=data, filename=filename)
        if past.not_a_tournament and len(files) > 1:
            if skipped is not None:
                skipped.append((filename, past.first_error.message))
            continue
        try:
            if past.errors:
                raise past.first_error
            if not dates.get(filename):
                raise WorkbookError(_("no date in the file name: give --date YYYY-MM-DD"))
            imported.append(past_tournament_import(user=user, past=past, name=names[filename],
                                                   start_date=dates[filename], settings=settings,
                                                   published=published, source=filename,
                                                   new_players=new_players))
        except WorkbookError as exc:
            exc.file = filename
            raise
        except ValidationError as exc:
            raise WorkbookError(" ".join(exc.messages), file=filename) from None
    return imported
