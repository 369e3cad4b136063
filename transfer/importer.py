"""Reading an export document's users, clubs, players and the tournament's rows."""
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.color import no_style
from django.db import connection

from tournaments.models import AuditLog, Club, Player, Tournament
from tournaments.accounts.services import grant_organiser, username_clean
from tournaments.services import player_find_duplicate
from tournaments.text import checked_name, clean_name
from transfer.owned import USER_FIELDS, TransferError
from transfer.shapes import check_shape
from transfer.values import expect, full_clean, row_key, refuse_existing, save_raw, field_value

# Models that moved to another app since a file could have been exported: the file's label, today's.
MOVED = {"tournaments.teampenalty": "tables.teampenalty", "tournaments.teamdispute": "tables.teamdispute"}

# The player's names as the player form writes them (tournaments.forms.PlayerForm).
PLAYER_NAMES = ("first_name", "last_name", "nickname", "city")
PLAYER_REQUIRED = ("first_name", "last_name")


class Importer:
    def __init__(self, order):
        self.order = order
        self.users = {}  # username -> user
        self.shared = {Club: {}, Player: {}}  # file pk -> row in this database
        self.in_file = {}  # owned model -> pks of its rows in the file
        self.where = {}  # (owned model, pk) -> "label[i]", for the messages of the whole-object checks
        self.user_entries = {}  # username -> (where, wants the organiser role, created by this import)
        self.named_users = set()  # usernames some row of the file refers to
        self.created = {"users_created": [], "organisers": [], "clubs_created": [], "players_created": 0}

    # shared rows

    def import_users(self, entries):
        User = get_user_model()
        for i, entry in enumerate(expect(entries, list, "users")):
            where = f"users[{i}]"
            entry = expect(entry, dict, where)
            username = field_value(User._meta.get_field(User.USERNAME_FIELD),
                              expect(entry.get("username"), str, f"{where}.username"), where)
            if username in self.users:
                raise TransferError(f"{where}.username: {username!r} appears twice")
            organiser = entry.get("organiser", False)
            if not isinstance(organiser, bool):
                raise TransferError(f"{where}.organiser: must be true or false")
            user = User._base_manager.filter(**{User.USERNAME_FIELD: username}).first()
            created = user is None
            if created:
                # A new account's name under the sign-up's rules, as on the "Arbitri" page.
                try:
                    stored = username_clean(username)
                except ValidationError as exc:
                    raise TransferError(f"{where}.username: {' '.join(exc.messages)}") from None
                user = User(**{User.USERNAME_FIELD: stored})
                for name in USER_FIELDS:
                    if name in entry and hasattr(user, name):
                        setattr(user, name, field_value(User._meta.get_field(name), entry[name], where))
                full_clean(user, where, exclude=["password"])
                user.set_unusable_password()
                save_raw(user)
                self.created["users_created"].append(username)
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
                self.created["organisers"].append(username)

    def import_clubs(self, entries):
        for i, entry in enumerate(expect(entries, list, "clubs")):
            where = f"clubs[{i}]"
            entry = expect(entry, dict, where)
            key = row_key(entry, Club, where)
            club = self.build(Club, entry, where)
            if not club.name.strip():
                raise TransferError(f"{where}.name: cannot be empty")
            existing = Club._base_manager.filter(name__iexact=club.name.strip()).first()
            if existing is None:
                save_raw(club)
                self.created["clubs_created"].append(club.name)
            self.shared[Club][key] = existing or club

    def import_players(self, entries):
        existing = set(Player._base_manager.values_list("pk", flat=True))
        merged = []  # (player, file key it was merged into, where): linked once every player is read
        for i, entry in enumerate(expect(entries, list, "players")):
            where = f"players[{i}]"
            entry = expect(entry, dict, where)
            key = row_key(entry, Player, where)
            fields = expect(entry.get("fields"), dict, f"{where}.fields")
            into = fields.get("merged_into")
            player = self.build(Player, {**entry, "fields": {k: v for k, v in fields.items() if k != "merged_into"}},
                                where)
            for name in PLAYER_NAMES:  # as the player form: NFKC, one alphabet, spaces are no name
                if name in PLAYER_REQUIRED and not clean_name(getattr(player, name)):
                    raise TransferError(f"{where}.{name}: cannot be empty")
                try:
                    setattr(player, name, checked_name(getattr(player, name), required=False))
                except ValidationError as exc:
                    raise TransferError(f"{where}.{name}: {' '.join(exc.messages)}") from None
            match = player_find_duplicate(first_name=player.first_name, last_name=player.last_name,
                                          club=player.club) if not player.removed else None
            # Only players already in the database are matched: two namesakes in the file stay two.
            if match is not None and match.pk in existing:
                self.shared[Player][key] = match
            else:
                self.shared[Player][key] = save_raw(player)
                self.created["players_created"] += 1
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
            return target._default_manager.get_by_natural_key(*expect(raw, list, name)).pk
        except (AttributeError, TypeError, target.DoesNotExist):
            raise TransferError(f"{name}: no {target._meta.label_lower} {raw!r}") from None

    def build(self, model, entry, where):
        fields = expect(entry.get("fields"), dict, f"{where}.fields")
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
                setattr(obj, f.attname, field_value(f, raw, where))
        full_clean(obj, where, exclude=[f.name for f in model._meta.concrete_fields if f.is_relation])
        check_shape(obj, where)
        return obj

    # the tournament's rows

    def import_owned(self, sections):
        by_label = {}
        for i, section in enumerate(expect(sections, list, "models")):
            section = expect(section, dict, f"models[{i}]")
            label = expect(section.get("model"), str, f"models[{i}].model")
            label = MOVED.get(label, label)
            if label in by_label:
                raise TransferError(f"models[{i}]: {label} appears twice")
            by_label[label] = expect(section.get("rows"), list, f"models[{i}].rows")
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
                row = expect(row, dict, where)
                rows[model].append((where, row_key(row, model, where), row))
            self.where.update(((model, pk), where) for where, pk, _row in rows[model])
            pks = [pk for _where, pk, _row in rows[model]]
            if len(set(pks)) != len(pks):
                raise TransferError(f"{label}: the same pk appears twice")
            self.in_file[model] = set(pks)
            refuse_existing(model, pks)
        many = []
        # Foreign keys are checked at commit, so rows may point to rows inserted after them.
        for model in self.order:
            for where, pk, row in rows[model]:
                obj = self.build(model, row, where)
                obj.pk = pk
                self._fix_audit_object(obj)
                save_raw(obj)
                many.extend((obj, f, row["fields"][f.name], where) for f in model._meta.many_to_many
                            if f.name in row["fields"] and f.remote_field.through._meta.auto_created)
        for obj, f, raws, where in many:
            getattr(obj, f.name).set([self.resolve(f, raw, where) for raw in expect(raws, list, f"{where}.{f.name}")])
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
