"""The export: the tournament's rows by pk, users, clubs and players by natural key."""
import datetime
import json

from django.contrib.auth import get_user_model
from django.db import models

from tournaments.models import Club, Player
from tournaments.rules import is_organiser, is_own_tournament, may_export_player_email
from transfer.owned import FORMAT, USER_FIELDS, VERSION, TransferError, owned_rows, owned_models


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
        selected[model] = owned_rows(model, tournament, selected)
        sections.append({"model": model._meta.label_lower,
                         "rows": [exporter.row(obj) for obj in selected[model].order_by("pk")]})
    # A merged player names the one it was merged into, who then travels too.
    players, written = [], set()
    while exporter.players - written:
        batch = sorted(exporter.players - written)
        written.update(batch)
        for player in Player._base_manager.filter(pk__in=batch).order_by("pk"):
            row = exporter.row(player)
            if not may_export_player_email(player, tournament):
                # another organiser's player: their e-mail and national ID stay on their card
                row["fields"]["email"] = ""
                if "national_id" in row["fields"]:
                    row["fields"]["national_id"] = ""
            players.append(row)
    players.sort(key=lambda row: row["pk"])
    clubs = [exporter.row(c) for c in Club._base_manager.filter(pk__in=exporter.clubs).order_by("pk")]
    users = []
    for user in get_user_model()._base_manager.filter(pk__in=exporter.users).order_by("pk"):
        entry = {"username": user.get_username(), "organiser": is_organiser(user)}
        entry.update({name: getattr(user, name) for name in USER_FIELDS if hasattr(user, name)})
        if "email" in entry and not is_own_tournament(user, tournament):
            # An organiser's download names other people (arbiters, another club's organiser in a shared
            # player's log entry): their e-mail is theirs, not the file's.
            entry["email"] = ""
        users.append(entry)
    return {"format": FORMAT, "version": VERSION, "tournament": tournament.pk,
            "exported_at": datetime.datetime.now(datetime.timezone.utc).isoformat(),
            "users": users, "clubs": clubs, "players": players, "models": sections}


def tournament_export_json(*, tournament):
    """The export as text: what export_tournament prints and the organiser's download gives."""
    return json.dumps(tournament_export(tournament=tournament), ensure_ascii=False, indent=1)
