"""Which models belong to a tournament: read from the models' metadata, not listed by hand."""
from django.apps import apps
from django.contrib.auth import get_user_model
from django.db.models import Q

from tournaments.models import Club, Player, Tournament

FORMAT = "torneo.tournament"
VERSION = 1
USER_FIELDS = ("first_name", "last_name", "email", "is_active")


class TransferError(Exception):
    """The file cannot be imported (or the tournament exported); the message names the reason."""



# A season circuit groups several tournaments: it belongs to none of them, and a tournament leaves
# its circuits behind when exported (the circuit's organiser adds the imported copy if they wish).
NOT_OWNED_APPS = {"circuits"}
# A phone's push subscription (tables.push) is the phone's, not the tournament's: an export carries
# none (its address lets whoever holds it switch the notifications off; another site's keys could not use it).
NOT_OWNED_MODELS = {"tables.pushsubscription"}


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
            if (model in owned or model in shared or model._meta.proxy or not model._meta.managed
                    or model._meta.app_label in NOT_OWNED_APPS or model._meta.label_lower in NOT_OWNED_MODELS):
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


def owned_rows(model, tournament, selected):
    if model is Tournament:
        return Tournament._base_manager.filter(pk=tournament.pk)
    q = Q()
    for f in _relations(model):
        if f.related_model in selected and f.related_model is not model:
            q |= Q(**{f"{f.name}__in": selected[f.related_model].values("pk")})
    return model._base_manager.filter(q)
