"""Roles given from the app itself: the organiser role (membership of the "organisers" group, which holds
add_tournament), granted by an administrator; arbiter accounts, created by an organiser."""
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import ValidationError
from django.db import transaction
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _

from tournaments.audit import audit

ORGANISERS_GROUP = "organisers"


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
    if not (user.is_authenticated and user.is_superuser):
        raise ValidationError(_("Only an administrator can grant the organiser role."))
    before = holds_organiser_role(target)
    if granted:
        grant_organiser(target)
    else:
        target.groups.remove(organisers_group())
    audit(user=user, action="user.organiser_role", obj=target,
          before={"username": target.get_username(), "organiser": before},
          after={"username": target.get_username(), "organiser": granted})


@transaction.atomic
def arbiter_account_create(*, user, tournament, username, first_name=""):
    """A new account, arbiter of `tournament`. It has no password: its owner sets one with a one-time link."""
    model = get_user_model()
    username = model.normalize_username(username.strip())
    if not username:
        raise ValidationError({"username": _("Choose a user name.")})
    if model.objects.filter(username__iexact=username).exists():
        raise ValidationError({"username": _("The user name %(u)s is taken: choose another one, or tick the "
                                             "existing account below.") % {"u": username}})
    account = model(username=username, first_name=first_name.strip()[:150])
    account.set_unusable_password()
    account.full_clean(exclude=["password"])
    account.save()
    tournament.arbiters.add(account)
    audit(user=user, action="tournament.arbiter_account", obj=tournament, tournament=tournament,
          after={"username": username, "arbiter": True})
    return account


@transaction.atomic
def arbiter_link_renew(*, user, tournament, account):
    """Only for an account that never chose a password: a link for any other would hand it over."""
    if account.has_usable_password():
        raise ValidationError(_("%(u)s has already chosen a password.") % {"u": account.get_username()})
    audit(user=user, action="tournament.arbiter_link", obj=tournament, tournament=tournament,
          after={"username": account.get_username()})


def password_link(request, account):
    """The one-time link that lets `account` choose its password (valid until used, or for
    PASSWORD_RESET_TIMEOUT seconds)."""
    path = reverse("password_set", args=[urlsafe_base64_encode(force_bytes(account.pk)),
                                         default_token_generator.make_token(account)])
    return request.build_absolute_uri(path)
