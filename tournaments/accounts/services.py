"""Roles given from the app itself: the organiser role (membership of the "organisers" group, which holds
add_tournament), granted by an administrator; arbiter accounts, created by an organiser."""
import re

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import ValidationError
from django.db import transaction
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _

from tournaments.accounts.selectors import ORGANISERS_GROUP
from tournaments.audit.services import audit
from tournaments.models import AccountOwner
from tournaments.rules import is_administrator, may_be_added_as_arbiter, owns_account
from tournaments.text import clean_name, mixes_look_alike_letters, name_skeleton


def organisers_group():
    group, _created = Group.objects.get_or_create(name=ORGANISERS_GROUP)
    perm = Permission.objects.get(codename="add_tournament", content_type__app_label="tournaments")
    group.permissions.add(perm)
    return group


def grant_organiser(user):
    user.groups.add(organisers_group())


def holds_organiser_role(user):
    return user.groups.filter(name=ORGANISERS_GROUP).exists()


@transaction.atomic
def organiser_role_set(*, user, target, granted):
    """An administrator grants or takes back the organiser role; logged."""
    if not is_administrator(user):
        raise ValidationError(_("Only an administrator can grant the organiser role."))
    before = holds_organiser_role(target)
    if granted:
        grant_organiser(target)
    else:
        target.groups.remove(organisers_group())
    audit(user=user, action="user.organiser_role", obj=target,
          before={"username": target.get_username(), "organiser": before},
          after={"username": target.get_username(), "organiser": granted})


def username_clean(raw, *, exclude_pk=None):
    """A user name made in the app (arbiter accounts, organisers of an imported file) under the sign-up's
    rules for names: NFKC without invisible characters, one alphabet, and refused when it looks like a
    name already taken ("аrbitro" with a Cyrillic "а" beside "arbitro"). Raises ValidationError."""
    model = get_user_model()
    username = model.normalize_username(clean_name(raw))
    if not username:
        raise ValidationError(_("Choose a user name."))
    if not re.fullmatch(r"[\w.@+-]+", username) or len(username) > 150:
        raise ValidationError(_("Letters, digits and @/./+/-/_ only."))
    if mixes_look_alike_letters(username):
        raise ValidationError(_("Write the user name in one alphabet: it mixes letters of different alphabets "
                                "that look alike."))
    others = model._default_manager.exclude(pk=exclude_pk) if exclude_pk else model._default_manager.all()
    if others.filter(username__iexact=username).exists():
        raise ValidationError(_("The user name %(u)s is taken: choose another one.") % {"u": username})
    looks = name_skeleton(username)
    for other in others.values_list("username", flat=True).iterator():
        if name_skeleton(other) == looks:
            raise ValidationError(_("The user name %(u)s looks like one already taken: choose another one.")
                                  % {"u": username})
    return username


@transaction.atomic
def arbiter_account_create(*, user, tournament, username, first_name=""):
    """A new account, arbiter of `tournament`, owned by `user`. It has no password: its owner gives it a
    one-time link to choose one."""
    model = get_user_model()
    try:
        username = username_clean(username)
    except ValidationError as exc:
        raise ValidationError({"username": exc.messages}) from None
    account = model(username=username, first_name=clean_name(first_name)[:150])
    account.set_unusable_password()
    account.full_clean(exclude=["password"])
    account.save()
    AccountOwner.objects.create(account=account, owner=user)
    tournament.arbiters.add(account)
    audit(user=user, action="tournament.arbiter_account", obj=tournament, tournament=tournament,
          after={"username": username, "arbiter": True})
    return account


@transaction.atomic
def arbiter_add_by_name(*, user, tournament, username):
    """A colleague (another club's arbiter) made arbiter of `tournament` by their exact user name. Only an
    account with a password already chosen: a link is never given for someone else's account. The refusal
    is the same whether the name exists or not, so the form tells nobody who has an account."""
    model = get_user_model()
    account = model._default_manager.filter(username=(username or "").strip()).first()
    if account is None or not may_be_added_as_arbiter(account, tournament):
        raise ValidationError({"username": _("No account with this exact user name has chosen its password: "
                                             "ask its owner for the exact name, once they have logged in.")})
    if tournament.arbiters.filter(pk=account.pk).exists():
        raise ValidationError({"username": _("%(u)s is already an arbiter of this tournament.")
                                           % {"u": account.get_username()}})
    tournament.arbiters.add(account)
    audit(user=user, action="tournament.arbiter_add", obj=tournament, tournament=tournament,
          after={"username": account.get_username(), "arbiter": True})
    return account


@transaction.atomic
def arbiter_link_renew(*, user, tournament, account):
    """A new one-time link, only from the account's owner and only while it never chose a password (a link
    for any other would hand it over). Every earlier link stops working: the account gets a new unusable
    password, which the links' signature covers."""
    account = get_user_model()._default_manager.select_for_update().get(pk=account.pk)
    if not owns_account(user, account):
        raise ValidationError(_("Only the organiser who made %(u)s can give it a link.")
                              % {"u": account.get_username()})
    if account.has_usable_password():
        raise ValidationError(_("%(u)s has already chosen a password.") % {"u": account.get_username()})
    account.set_unusable_password()
    account.save(update_fields=["password"])
    audit(user=user, action="tournament.arbiter_link", obj=tournament, tournament=tournament,
          after={"username": account.get_username()})
    return account


def password_link(request, account):
    """The one-time link that lets `account` choose its password (valid until used, renewed, or for
    PASSWORD_LINK_HOURS hours)."""
    path = reverse("password_set", args=[urlsafe_base64_encode(force_bytes(account.pk)),
                                         default_token_generator.make_token(account)])
    return request.build_absolute_uri(path)
