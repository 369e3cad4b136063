"""Export one tournament with everything that belongs to it, and import it into another database.

What belongs to a tournament is read from the models' metadata, not listed by hand: the tournament,
every model with a foreign key to it, every model with a foreign key to those, and so on. A model
added later (teams, end rolls...) travels with no change here.

Users, clubs and players are shared between tournaments: they travel by natural key (username;
club name; name, surname and club), are matched on import or created (users without a usable
password). The tournament's own rows keep their primary keys, so printed QR codes, public links
and the ids that club websites read from the JSON API stay valid after a restore; the import
therefore expects a database without those rows.
"""
import datetime
import json

from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.color import no_style
from django.db import connection, models
from django.db.models import Q

from tournaments.models import AuditLog, Club, Player, Tournament
from tournaments.roles import grant_organiser
from tournaments.rules import is_organiser
from tournaments.services import player_find_duplicate

FORMAT = "torneo.tournament"
VERSION = 1
USER_FIELDS = ("first_name", "last_name", "email", "is_active")
CHUNK = 500


class TransferError(Exception):
    """The file cannot be imported (or the tournament exported); the message names the reason."""


# --- which models belong to a tournament ---------------------------------------------------------

def _shared_models():
    return {get_user_model(), Club, Player}


def _relations(model):
    return [f for f in model._meta.concrete_fields if f.is_relation]


def owned_models():
    """The models whose rows belong to one tournament, each after the models it points to."""
    shared = _shared_models()
    owned = [Tournament]
    grown = True
    while grown:
        grown = False
        for model in apps.get_models():
            if model in owned or model in shared or model._meta.proxy or not model._meta.managed:
                continue
            if any(f.related_model in owned for f in _relations(model)):
                owned.append(model)
                grown = True
    return _dependency_order(owned)


def _dependency_order(owned):
    """Parents first, for a readable file; the database checks foreign keys at commit, so a
    cycle (which only nullable keys could form) needs no special order."""
    edges = {m: {f.related_model for f in _relations(m) if f.related_model in owned and f.related_model is not m}
             for m in owned}
    ordered = []
    progress = True
    while progress:
        progress = False
        for model in owned:
            if model not in ordered and edges[model] <= set(ordered):
                ordered.append(model)
                progress = True
    return ordered + [m for m in owned if m not in ordered]


def _owned_rows(model, tournament, selected):
    if model is Tournament:
        return Tournament._base_manager.filter(pk=tournament.pk)
    q = Q()
    for f in _relations(model):
        if f.related_model in selected and f.related_model is not model:
            q |= Q(**{f"{f.name}__in": selected[f.related_model].values("pk")})
    return model._base_manager.filter(q)


# --- export --------------------------------------------------------------------------------------

def _plain(field, obj):
    value = field.value_from_object(obj)
    if value is None or isinstance(value, (bool, int, float, str)) or isinstance(field, models.JSONField):
        return value
    # Decimals, dates and datetimes as text, at full precision (created_at must come back exact).
    return field.value_to_string(obj)


class _Exporter:
    def __init__(self, owned):
        self.owned = owned
        self.users, self.clubs, self.players = set(), set(), set()
        self.natural = {}  # (model, pk) -> natural key, read once

    def _natural(self, target, pk, read):
        key = (target, pk)
        if key not in self.natural:
            self.natural[key] = read(target._base_manager.get(pk=pk))
        return self.natural[key]

    def ref(self, field, value):
        """A foreign key's value in the file: a pk for the tournament's rows, a natural key otherwise."""
        if value is None:
            return None
        target = field.related_model
        if field.target_field is not target._meta.pk:
            raise TransferError(f"{field.model._meta.label_lower}.{field.name}: only keys to primary keys travel")
        if target in self.owned:
            return value
        if target is get_user_model():
            self.users.add(value)
            return self._natural(target, value, lambda u: u.get_username())
        if target in (Club, Player):
            # Written once in the file's clubs and players, with their natural keys; rows refer to them by pk.
            (self.clubs if target is Club else self.players).add(value)
            return value
        if hasattr(target, "natural_key"):
            return list(self._natural(target, value, lambda o: o.natural_key()))
        raise TransferError(f"{field.model._meta.label_lower}.{field.name}: "
                            f"{target._meta.label_lower} has no natural key to travel by")

    def row(self, obj):
        fields = {}
        for f in obj._meta.concrete_fields:
            if f.primary_key:
                continue
            fields[f.name] = self.ref(f, getattr(obj, f.attname)) if f.is_relation else _plain(f, obj)
        for f in obj._meta.many_to_many:
            if f.remote_field.through._meta.auto_created:
                fields[f.name] = [self.ref(f, pk) for pk in
                                  getattr(obj, f.name).order_by("pk").values_list("pk", flat=True)]
        return {"pk": obj.pk, "fields": fields}


def tournament_export(*, tournament):
    """The whole tournament as a JSON-ready document (see the module docstring)."""
    order = owned_models()
    exporter = _Exporter(order)
    selected, sections = {}, []
    for model in order:
        selected[model] = _owned_rows(model, tournament, selected)
        sections.append({"model": model._meta.label_lower,
                         "rows": [exporter.row(obj) for obj in selected[model].order_by("pk")]})
    # A merged player names the one it was merged into, who then travels too.
    players, written = [], set()
    while exporter.players - written:
        batch = sorted(exporter.players - written)
        written.update(batch)
        players += [exporter.row(p) for p in Player._base_manager.filter(pk__in=batch).order_by("pk")]
    players.sort(key=lambda row: row["pk"])
    clubs = [exporter.row(c) for c in Club._base_manager.filter(pk__in=exporter.clubs).order_by("pk")]
    users = []
    for user in get_user_model()._base_manager.filter(pk__in=exporter.users).order_by("pk"):
        entry = {"username": user.get_username(), "organiser": is_organiser(user)}
        entry.update({name: getattr(user, name) for name in USER_FIELDS if hasattr(user, name)})
        users.append(entry)
    return {"format": FORMAT, "version": VERSION, "tournament": tournament.pk,
            "exported_at": datetime.datetime.now(datetime.timezone.utc).isoformat(),
            "users": users, "clubs": clubs, "players": players, "models": sections}


def tournament_export_json(*, tournament):
    """The export as text: what export_tournament prints and the organiser's download gives."""
    return json.dumps(tournament_export(tournament=tournament), ensure_ascii=False, indent=1)


# --- import --------------------------------------------------------------------------------------

def _expect(value, kind, where):
    if not isinstance(value, kind) or kind is int and isinstance(value, bool):
        names = {dict: "an object", list: "a list", str: "a string", int: "a whole number"}
        raise TransferError(f"{where} must be {names.get(kind, kind.__name__)}")
    return value


def _value(field, raw, where):
    """Turn a file value into the field's value, checked as the field would check it."""
    if isinstance(field, (models.CharField, models.TextField)) and raw is not None and not isinstance(raw, str):
        # to_python would turn ["Marco"] into the text "['Marco']".
        raise TransferError(f"{where}.{field.name}: must be a string")
    try:
        value = field.to_python(raw)
        if value is None:
            if not field.null:
                raise ValidationError("cannot be empty")
            return None
        if not field.blank and value in field.empty_values:
            raise ValidationError("cannot be empty")
        if field.choices and not (field.blank and value == "") and \
                value not in {k for k, _label in field.flatchoices}:
            raise ValidationError(f"{value!r} is not one of the choices")
        field.run_validators(value)
    except ValidationError as exc:
        raise TransferError(f"{where}.{field.name}: {' '.join(exc.messages)}") from None
    except (TypeError, ValueError, ArithmeticError) as exc:
        raise TransferError(f"{where}.{field.name}: {exc}") from None
    return value


def _key(entry, model, where):
    """A row's pk from the file, checked against the pk field's range."""
    return _value(model._meta.pk, _expect(entry.get("pk"), int, f"{where}.pk"), where)


class _Importer:
    def __init__(self, order):
        self.order = order
        self.users = {}  # username -> user
        self.shared = {Club: {}, Player: {}}  # file pk -> row in this database
        self.in_file = {}  # owned model -> pks of its rows in the file
        self.where = {}  # (owned model, pk) -> "label[i]", for the messages of the whole-object checks
        self.user_entries = {}  # username -> (where, wants the organiser role, created by this import)
        self.named_users = set()  # usernames some row of the file refers to

    # shared rows

    def import_users(self, entries):
        User = get_user_model()
        for i, entry in enumerate(_expect(entries, list, "users")):
            where = f"users[{i}]"
            entry = _expect(entry, dict, where)
            username = _value(User._meta.get_field(User.USERNAME_FIELD),
                              _expect(entry.get("username"), str, f"{where}.username"), where)
            if username in self.users:
                raise TransferError(f"{where}.username: {username!r} appears twice")
            organiser = entry.get("organiser", False)
            if not isinstance(organiser, bool):
                raise TransferError(f"{where}.organiser: must be true or false")
            user = User._base_manager.filter(**{User.USERNAME_FIELD: username}).first()
            created = user is None
            if created:
                user = User(**{User.USERNAME_FIELD: username})
                for name in USER_FIELDS:
                    if name in entry and hasattr(user, name):
                        setattr(user, name, _value(User._meta.get_field(name), entry[name], where))
                _full_clean(user, where, exclude=["password"])
                user.set_unusable_password()
                _save(user)
            self.users[username] = user
            self.user_entries[username] = (where, organiser, created)

    def grant_roles(self):
        """Every user of the file is named by one of its rows; a user this import created gets the
        organiser role when the file says so (an account already in the database keeps its roles)."""
        for username, (where, organiser, created) in self.user_entries.items():
            if username not in self.named_users:
                raise TransferError(f"{where}: user {username!r} is named by no row of the file")
            if organiser and created:
                grant_organiser(self.users[username])

    def import_clubs(self, entries):
        for i, entry in enumerate(_expect(entries, list, "clubs")):
            where = f"clubs[{i}]"
            entry = _expect(entry, dict, where)
            key = _key(entry, Club, where)
            club = self.build(Club, entry, where)
            if not club.name.strip():
                raise TransferError(f"{where}.name: cannot be empty")
            self.shared[Club][key] = Club._base_manager.filter(name__iexact=club.name.strip()).first() \
                or _save(club)

    def import_players(self, entries):
        existing = set(Player._base_manager.values_list("pk", flat=True))
        merged = []  # (player, file key it was merged into, where): linked once every player is read
        for i, entry in enumerate(_expect(entries, list, "players")):
            where = f"players[{i}]"
            entry = _expect(entry, dict, where)
            key = _key(entry, Player, where)
            fields = _expect(entry.get("fields"), dict, f"{where}.fields")
            into = fields.get("merged_into")
            player = self.build(Player, {**entry, "fields": {k: v for k, v in fields.items() if k != "merged_into"}},
                                where)
            for name in ("first_name", "last_name"):  # as the player form: spaces are no name
                if not getattr(player, name).strip():
                    raise TransferError(f"{where}.{name}: cannot be empty")
            match = player_find_duplicate(first_name=player.first_name, last_name=player.last_name,
                                          club=player.club) if not player.removed else None
            # Only players already in the database are matched: two namesakes in the file stay two.
            self.shared[Player][key] = match if match is not None and match.pk in existing else _save(player)
            if into is not None and self.shared[Player][key] is player:
                merged.append((player, into, where))
        field = Player._meta.get_field("merged_into")
        for player, into, where in merged:
            player.merged_into_id = self.resolve(field, into, where)
            player.save(update_fields=["merged_into"])

    # rows of any model

    def resolve(self, field, raw, where):
        if raw is None:
            return None
        target = field.related_model
        name = f"{where}.{field.name}"
        if target in self.order:
            if not isinstance(raw, int) or isinstance(raw, bool) or raw not in self.in_file[target]:
                raise TransferError(f"{name}: {target._meta.label_lower} {raw!r} is not in the file")
            return raw
        if target is get_user_model():
            if not isinstance(raw, str) or raw not in self.users:
                raise TransferError(f"{name}: user {raw!r} is not in the file's users")
            self.named_users.add(raw)
            return self.users[raw].pk
        if target in self.shared:
            if isinstance(raw, (list, dict)) or raw not in self.shared[target]:
                raise TransferError(f"{name}: {target._meta.label_lower} {raw!r} is not in the file")
            return self.shared[target][raw].pk
        try:
            return target._default_manager.get_by_natural_key(*_expect(raw, list, name)).pk
        except (AttributeError, TypeError, target.DoesNotExist):
            raise TransferError(f"{name}: no {target._meta.label_lower} {raw!r}") from None

    def build(self, model, entry, where):
        fields = _expect(entry.get("fields"), dict, f"{where}.fields")
        known = {f.name for f in model._meta.concrete_fields if not f.primary_key}
        known |= {f.name for f in model._meta.many_to_many}
        unknown = sorted(set(fields) - known)
        if unknown:
            raise TransferError(f"{where}: {model._meta.label_lower} has no field {unknown[0]!r}")
        obj = model()
        for f in model._meta.concrete_fields:
            if f.primary_key:
                continue
            if f.name not in fields:
                # A field added after the export: its default, when it has one.
                if not (f.has_default() or f.null or getattr(f, "auto_now_add", False)):
                    raise TransferError(f"{where}: field {f.name!r} is missing")
                continue
            raw = fields[f.name]
            if f.is_relation:
                value = self.resolve(f, raw, where)
                if value is None and not f.null:
                    raise TransferError(f"{where}.{f.name}: cannot be empty")
                setattr(obj, f.attname, value)
            else:
                setattr(obj, f.attname, _value(f, raw, where))
        _full_clean(obj, where, exclude=[f.name for f in model._meta.concrete_fields if f.is_relation])
        _check_shape(obj, where)
        return obj

    # the tournament's rows

    def import_owned(self, sections):
        by_label = {}
        for i, section in enumerate(_expect(sections, list, "models")):
            section = _expect(section, dict, f"models[{i}]")
            label = _expect(section.get("model"), str, f"models[{i}].model")
            if label in by_label:
                raise TransferError(f"models[{i}]: {label} appears twice")
            by_label[label] = _expect(section.get("rows"), list, f"models[{i}].rows")
        labels = {m._meta.label_lower for m in self.order}
        unknown = sorted(set(by_label) - labels)
        if unknown:
            raise TransferError(f"model {unknown[0]!r} does not exist in this version of Torneo")
        if len(by_label.get(Tournament._meta.label_lower, [])) != 1:
            raise TransferError("the file must hold exactly one tournament")
        rows = {}
        for model in self.order:
            label = model._meta.label_lower
            rows[model] = []
            for i, row in enumerate(by_label.get(label, [])):
                where = f"{label}[{i}]"
                row = _expect(row, dict, where)
                rows[model].append((where, _key(row, model, where), row))
            self.where.update(((model, pk), where) for where, pk, _row in rows[model])
            pks = [pk for _where, pk, _row in rows[model]]
            if len(set(pks)) != len(pks):
                raise TransferError(f"{label}: the same pk appears twice")
            self.in_file[model] = set(pks)
            _refuse_existing(model, pks)
        many = []
        # Foreign keys are checked at commit, so rows may point to rows inserted after them.
        for model in self.order:
            for where, pk, row in rows[model]:
                obj = self.build(model, row, where)
                obj.pk = pk
                self._fix_audit_object(obj)
                _save(obj)
                many.extend((obj, f, row["fields"][f.name], where) for f in model._meta.many_to_many
                            if f.name in row["fields"] and f.remote_field.through._meta.auto_created)
        for obj, f, raws, where in many:
            getattr(obj, f.name).set([self.resolve(f, raw, where) for raw in _expect(raws, list, f"{where}.{f.name}")])
        with connection.cursor() as cursor:
            for sql in connection.ops.sequence_reset_sql(no_style(), self.order):
                cursor.execute(sql)
        return Tournament._base_manager.get(pk=rows[Tournament][0][1])

    def _fix_audit_object(self, entry):
        """Audit entries about a club or player name it by pk, which is new in this database."""
        if isinstance(entry, AuditLog):
            for model in self.shared:
                if entry.object_type == model.__name__.lower() and entry.object_id.isdecimal():
                    row = self.shared[model].get(int(entry.object_id))
                    entry.object_id = str(row.pk) if row is not None else entry.object_id


def _full_clean(obj, where, exclude):
    """The model's own validation, as its forms run it (uniqueness is left to the database)."""
    try:
        obj.full_clean(exclude=exclude, validate_unique=False, validate_constraints=False)
    except ValidationError as exc:
        if hasattr(exc, "error_dict"):
            name, errors = next(iter(exc.message_dict.items()))
            raise TransferError(f"{where}.{name}: {' '.join(errors)}" if name != "__all__" else
                                f"{where}: {' '.join(errors)}") from None
        raise TransferError(f"{where}: {' '.join(exc.messages)}") from None


# --- whole objects: what the forms and the scoring engine check, on the imported rows ---------------

def _check_shape(obj, where):
    """JSON fields hold what the pages that read them expect."""
    from scoring.errors import ScoringError
    from scoring.territories import territory
    from tables.firenze import COUNTS
    from tables.models import Seat

    label = obj._meta.label_lower
    if label == "tournaments.phase" and not isinstance(obj.settings, dict):
        raise TransferError(f"{where}.settings: must be an object")
    if not isinstance(obj, Seat):
        return
    if not isinstance(obj.territories, list) or not all(isinstance(n, str) for n in obj.territories):
        raise TransferError(f"{where}.territories: must be a list of territory names")
    try:
        names = [territory(name).name for name in obj.territories]
    except ScoringError as exc:
        raise TransferError(f"{where}.territories: {exc.detail}") from None
    if len(set(names)) != len(names):
        raise TransferError(f"{where}.territories: a territory is listed twice")
    sheet = obj.firenze
    if sheet is None:
        return
    # What tables.firenze stores: the counts, the sheet's total ("points") and whether a lot decided.
    if not isinstance(sheet, dict) or set(sheet) - set(COUNTS) - {"points", "lot"} or not all(
            isinstance(sheet[k], int) and not isinstance(sheet[k], bool) and sheet[k] >= 0
            for k in COUNTS if k in sheet):
        raise TransferError(f"{where}.firenze: must map the sheet's counts ({', '.join(COUNTS)}) to whole "
                            "numbers from 0")
    if not isinstance(sheet.get("lot", False), bool) or not isinstance(sheet.get("points", "0"), str):
        raise TransferError(f"{where}.firenze: 'lot' must be true or false and 'points' a number as text")


def _check_tournament(tournament, where):
    """The tournament's settings pass the scoring engine's parameters and the organiser's form."""
    from scoring.errors import ScoringError
    from tables import engine
    from tournaments.forms import TournamentForm

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
    form = TournamentForm(data=data)
    if not form.is_valid():
        name, errors = next(iter(form.errors.items()))
        name = "tiebreak" if name.startswith("tiebreak_") else name
        raise TransferError(f"{where}.{name}: {' '.join(errors)}" if name != "__all__" else
                            f"{where}: {' '.join(errors)}")


def _check_results(tournament, seat_where):
    """Every reported table passes the scoring engine's rules (SCORING.md section 2), read as the
    standings read it; then the standings under every formula can be computed."""
    from scoring.errors import ScoringError
    from scoring.territories import check_held_once
    from tables import engine
    from tables.models import Seat
    from tables.selectors import standings_by_formula, tournament_games

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
        standings_by_formula(tournament)
    except ScoringError as exc:
        raise TransferError(f"the standings cannot be computed: {exc}") from None


def _refuse_existing(model, pks):
    for start in range(0, len(pks), CHUNK):
        clash = model._base_manager.filter(pk__in=pks[start:start + CHUNK]).order_by("pk").first()
        if clash is not None:
            raise TransferError(f"the database already holds {model._meta.label_lower} {clash.pk}: "
                                "import into an empty database")


def _save(obj):
    # raw=True, as loaddata does: created_at and the other automatic dates keep the file's values,
    # and no save() override runs (the audit log takes its entries back unchanged).
    obj.save_base(raw=True)
    return obj


def tournament_import(*, data):
    """Create the tournament of an export document; call inside a transaction (all or nothing)."""
    _expect(data, dict, "the file")
    if data.get("format") != FORMAT:
        raise TransferError(f"not a Torneo tournament export (format must be {FORMAT!r})")
    if data.get("version") != VERSION:
        raise TransferError(f"export version {data.get('version')!r} is not supported (expected {VERSION})")
    importer = _Importer(owned_models())
    importer.import_users(data.get("users", []))
    importer.import_clubs(data.get("clubs", []))
    importer.import_players(data.get("players", []))
    tournament = importer.import_owned(data.get("models"))
    importer.grant_roles()
    _check_tournament(tournament, importer.where[(Tournament, tournament.pk)])
    from tables.models import Seat
    _check_results(tournament, {pk: where for (model, pk), where in importer.where.items() if model is Seat})
    return tournament
