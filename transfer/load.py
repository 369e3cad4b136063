"""The import: an export document becomes the tournament, checked as a whole (all or nothing)."""
from scoring.errors import ScoringError
from scoring.territories import check_held_once
from tables import engine
from tables.models import Seat
from tables.standings.selectors import tournament_games, tournament_standings
from tournaments.audit.services import audit
from tournaments.forms import TournamentForm
from tournaments.models import AuditLog, Tournament
from tournaments.services import club_rule_refusal
from transfer.importer import Importer
from transfer.owned import FORMAT, VERSION, TransferError, owned_models
from transfer.values import expect


# --- whole objects: what the forms and the scoring engine check, on the imported rows ---------------

def _check_tournament(tournament, where):
    """The tournament's settings pass the scoring engine's parameters and the organiser's form."""
    try:
        engine.params_for(tournament)
    except ScoringError as exc:
        raise TransferError(f"{where}.{exc.field or 'settings'}: {exc.detail}") from None
    chain = list(tournament.tiebreak_chain)
    if len(chain) > 4:
        raise TransferError(f"{where}.tiebreak: at most 4 tie-breaks")
    data = {name: getattr(tournament, f"{name}_id" if name == "club" else name)
            for name in TournamentForm._meta.fields}
    data.update({f"tiebreak_{i}": name for i, name in enumerate(chain, start=1)})
    data = {k: v for k, v in data.items() if v is not None and v is not False}
    refusal = club_rule_refusal(tournament)
    if refusal:
        raise TransferError(f"{where}.club_preset: {refusal}")
    form = TournamentForm(data=data)
    if not form.is_valid():
        name, errors = next(iter(form.errors.items()))
        name = "tiebreak" if name.startswith("tiebreak_") else name
        raise TransferError(f"{where}.{name}: {' '.join(errors)}" if name != "__all__" else
                            f"{where}: {' '.join(errors)}")


def _check_results(tournament, seat_where):
    """Every reported table passes the scoring engine's rules (SCORING.md section 2), read as the
    standings read it; then the standings under every formula can be computed."""
    held = {}
    for seat in Seat.objects.filter(table__round__tournament=tournament).exclude(territories=[]):
        held.setdefault(seat.table_id, {})[seat.pk] = seat.territories
    for holdings in held.values():
        try:
            check_held_once(holdings)
        except ScoringError as exc:
            raise TransferError(f"{seat_where.get(exc.player, 'a seat')}.territories: {exc.context['territory']} "
                                "is ticked for two players of the table") from None
    games, _penalties = tournament_games(tournament)
    seats = {(round_, table, reg): pk for pk, round_, table, reg in Seat.objects.filter(
        table__round__tournament=tournament).values_list("pk", "table__round__number", "table__number",
                                                        "registration_id")}
    for game in games:
        try:
            game.placement
        except ScoringError as exc:
            seat = seats.get((game.round, game.table, exc.player))
            where = seat_where.get(seat, f"round {game.round} table {game.table}")
            raise TransferError(f"{where}.{exc.field}: {engine.result_detail(exc)}" if exc.field else
                                f"{where}: {engine.result_detail(exc)}") from None
    try:
        tournament_standings(tournament)
    except ScoringError as exc:
        raise TransferError(f"the standings cannot be computed: {exc}") from None


def tournament_import(*, data, user=None, source=""):
    """Create the tournament of an export document; call inside a transaction (all or nothing).
    The tournament's log gets one entry naming who imported it, from what, and what was created."""
    expect(data, dict, "the file")
    if data.get("format") != FORMAT:
        raise TransferError(f"not a Torneo tournament export (format must be {FORMAT!r})")
    if data.get("version") != VERSION:
        raise TransferError(f"export version {data.get('version')!r} is not supported (expected {VERSION})")
    importer = Importer(owned_models())
    importer.import_users(data.get("users", []))
    importer.import_clubs(data.get("clubs", []))
    importer.import_players(data.get("players", []))
    tournament = importer.import_owned(data.get("models"))
    importer.grant_roles()
    _check_tournament(tournament, importer.where[(Tournament, tournament.pk)])
    _check_results(tournament, {pk: where for (model, pk), where in importer.where.items() if model is Seat})
    audit(user=user, action="tournament.import", obj=tournament, tournament=tournament, after={
        "file": source, "name": tournament.name, "rounds": tournament.rounds.count(),
        "registrations": tournament.registrations.count(),
        "log_entries": AuditLog.objects.filter(tournament=tournament).count(), **importer.created})
    return tournament
