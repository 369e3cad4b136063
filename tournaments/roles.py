"""Granting the organiser role: membership of the "organisers" group, which holds add_tournament."""
from django.contrib.auth.models import Group, Permission

ORGANISERS_GROUP = "organisers"


def organisers_group():
    group, _ = Group.objects.get_or_create(name=ORGANISERS_GROUP)
    perm = Permission.objects.get(codename="add_tournament", content_type__app_label="tournaments")
    group.permissions.add(perm)
    return group


def grant_organiser(user):
    user.groups.add(organisers_group())
