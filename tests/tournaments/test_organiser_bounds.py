"""What an organiser does to others' data is bounded and logged: a player's card and a club are
changed by their creator alone (another organiser reads them, or gets 404 for a player seen only in
their drafts), a change is logged in every tournament that shows it, the arbiter picker offers no administrator, and taking the organiser role back takes the
tournaments with it."""
import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.factories import ClubFactory, PlayerFactory, RegistrationFactory, UserFactory
from tests.html import attr, one, parse, text, tr
from tournaments.accounts import services as roles
from tournaments.accounts.selectors import arbiter_candidates
from tournaments.models import AccountOwner, AuditLog, Club, Player

pytestmark = pytest.mark.django_db

@pytest.fixture
def ottos_tournament(other_organiser):
    return other_organiser.organised_tournaments.get()


def _player_form(player, **changes):
    data = {"first_name": player.first_name, "last_name": player.last_name, "nickname": player.nickname,
            "club": player.club_id or "", "city": player.city, "email": player.email}
    return {**data, **changes}


def _ottos_player(ottos_tournament, published=True):
    ottos_tournament.published = published
    ottos_tournament.save()
    return RegistrationFactory(tournament=ottos_tournament, player__first_name="Marco",
                               player__created_by=ottos_tournament.organiser).player


def test_organiser_cannot_open_a_player_only_in_another_organisers_draft(client_for, organiser, ottos_tournament):
    player = _ottos_player(ottos_tournament, published=False)
    client = client_for(organiser)
    assert client.get(reverse("manage:player_edit", args=[player.pk])).status_code == 404
    response = client.post(reverse("manage:player_edit", args=[player.pk]), _player_form(player, first_name="Mallory"))
    assert response.status_code == 404
    assert Player.objects.get(pk=player.pk).first_name == "Marco"
    assert not AuditLog.objects.filter(action="player.update").exists()


def test_another_organisers_published_player_is_read_not_changed(client_for, organiser, ottos_tournament):
    player = _ottos_player(ottos_tournament)
    client = client_for(organiser)
    page = client.get(reverse("manage:player_edit", args=[player.pk]))
    assert page.status_code == 200
    assert one(page, "[data-read-only]") is not None
    assert "email" not in page.context["form"].fields
    response = client.post(reverse("manage:player_edit", args=[player.pk]), _player_form(player, first_name="Mallory"))
    assert response.status_code == 403
    assert Player.objects.get(pk=player.pk).first_name == "Marco"
    assert not AuditLog.objects.filter(action="player.update").exists()


def test_organiser_cannot_merge_away_another_organisers_player(client_for, organiser, ottos_tournament):
    theirs = _ottos_player(ottos_tournament)
    mine = PlayerFactory(first_name="Marco", last_name=theirs.last_name, created_by=organiser)
    client = client_for(organiser)
    for drop, keep in ((theirs, mine), (mine, theirs)):
        response = client.post(reverse("manage:player_merge", args=[drop.pk]), {"into": keep.pk}, follow=True)
        assert [str(m) for m in response.context["messages"]] == [tr(
            "%(drop)s and %(keep)s were created by different organisers: only an administrator can merge them.",
            drop=drop, keep=keep)]
    assert Player.objects.filter(pk__in=[theirs.pk, mine.pk]).count() == 2
    assert theirs.registrations.count() == 1


def test_the_owners_rename_is_logged_in_every_tournament_showing_the_player(client_for, organiser, tournament,
                                                                           ottos_tournament):
    player = _ottos_player(ottos_tournament)
    RegistrationFactory(tournament=tournament, player=player)   # olga invited otto's player
    response = client_for(ottos_tournament.organiser).post(reverse("manage:player_edit", args=[player.pk]),
                                                           _player_form(player, first_name="Marcello"))
    assert response.status_code == 302
    entries = AuditLog.objects.filter(action="player.update").order_by("tournament_id")
    assert [(e.tournament_id, e.before["first_name"], e.after["first_name"], e.user) for e in entries] == [
        (tournament.pk, "Marco", "Marcello", ottos_tournament.organiser),
        (ottos_tournament.pk, "Marco", "Marcello", ottos_tournament.organiser)]


def test_an_email_change_is_logged_only_where_the_owner_reads_it(client_for, organiser, tournament, ottos_tournament):
    player = _ottos_player(ottos_tournament)
    RegistrationFactory(tournament=tournament, player=player)
    client_for(ottos_tournament.organiser).post(reverse("manage:player_edit", args=[player.pk]),
                                                _player_form(player, email="marco@example.org"))
    entries = {e.tournament_id: e for e in AuditLog.objects.filter(action="player.update")}
    assert entries[ottos_tournament.pk].after["email"] == "marco@example.org"
    assert "email" not in entries[tournament.pk].after and "email" not in entries[tournament.pk].before


def test_a_player_nobody_owns_is_changed_by_an_administrator_alone(client_for, organiser):
    player = PlayerFactory(first_name="Marco")
    response = client_for(organiser).post(reverse("manage:player_edit", args=[player.pk]),
                                          _player_form(player, first_name="Marcello"))
    assert response.status_code == 403
    assert Player.objects.get(pk=player.pk).first_name == "Marco"
    admin = UserFactory(username="admin", is_superuser=True)
    client_for(admin).post(reverse("manage:player_edit", args=[player.pk]), _player_form(player, first_name="Marcello"))
    assert Player.objects.get(pk=player.pk).first_name == "Marcello"
    assert list(AuditLog.objects.filter(action="player.update").values_list("tournament_id", flat=True)) == [None]


def test_an_administrator_renames_any_player(client_for, ottos_tournament):
    admin = UserFactory(username="admin", is_superuser=True)
    player = _ottos_player(ottos_tournament, published=False)
    client_for(admin).post(reverse("manage:player_edit", args=[player.pk]), _player_form(player, first_name="Mario"))
    assert Player.objects.get(pk=player.pk).first_name == "Mario"
    assert AuditLog.objects.get(action="player.update").tournament == ottos_tournament


@pytest.mark.parametrize("through", ["organising", "player", "nothing"])
def test_organiser_cannot_rename_another_organisers_club(client_for, organiser, ottos_tournament, through):
    club = ClubFactory(name="Lario", created_by=ottos_tournament.organiser)
    if through == "organising":
        ottos_tournament.club = club
        ottos_tournament.save()
    elif through == "player":
        RegistrationFactory(tournament=ottos_tournament, player__club=club)
    client = client_for(organiser)
    page = client.get(reverse("manage:club_edit", args=[club.pk]))
    assert (page.status_code, one(page, "[data-read-only]") is not None) == (200, True)
    response = client.post(reverse("manage:club_edit", args=[club.pk]), {"name": "Impostori", "city": ""})
    assert response.status_code == 403
    assert client.post(reverse("manage:club_delete", args=[club.pk])).status_code == 403
    assert Club.objects.get(pk=club.pk).name == "Lario"


def test_club_rename_is_logged_in_every_tournament_showing_the_club(client_for, organiser, tournament,
                                                                   ottos_tournament):
    club = ClubFactory(name="Lario", created_by=organiser)
    tournament.club = club
    tournament.save()
    RegistrationFactory(tournament=ottos_tournament, player__club=club)
    client_for(organiser).post(reverse("manage:club_edit", args=[club.pk]), {"name": "Lario Club", "city": ""})
    assert sorted(AuditLog.objects.filter(action="club.update").values_list("tournament_id", flat=True)) == \
        [tournament.pk, ottos_tournament.pk]


def test_arbiter_picker_does_not_list_administrators(client_for, organiser, tournament):
    root = UserFactory(username="root", is_superuser=True)
    bruno = UserFactory(username="bruno")
    for account in (root, bruno):
        AccountOwner.objects.create(account=account, owner=organiser)
    choices = list(arbiter_candidates(tournament).values_list("username", flat=True))
    assert "root" not in choices and "bruno" in choices
    page = client_for(organiser).get(reverse("manage:arbiters", args=[tournament.pk]))
    offered = attr(page, "input[name=arbiters]", "value")
    assert str(bruno.pk) in offered and str(root.pk) not in offered
    assert "root" not in text(parse(page))


def test_an_administrator_cannot_be_ticked_as_arbiter(client_for, organiser, tournament):
    root = UserFactory(username="root", is_superuser=True)
    response = client_for(organiser).post(reverse("manage:arbiters", args=[tournament.pk]), {"arbiters": [root.pk]})
    assert response.status_code == 400
    assert not tournament.arbiters.filter(pk=root.pk).exists()


def test_taking_the_organiser_role_back_takes_the_tournaments_too(client, organiser, tournament):
    admin = UserFactory(username="admin", is_superuser=True)
    url = reverse("manage:tournament", args=[tournament.pk])
    client.force_login(organiser)
    assert client.get(url).status_code == 200
    roles.organiser_role_set(user=admin, target=get_user_model().objects.get(pk=organiser.pk), granted=False)
    client.force_login(get_user_model().objects.get(pk=organiser.pk))
    assert client.get(url).status_code == 404
    assert list(client.get(reverse("manage:home")).context["organised"]) == []
    roles.organiser_role_set(user=admin, target=get_user_model().objects.get(pk=organiser.pk), granted=True)
    client.force_login(get_user_model().objects.get(pk=organiser.pk))
    assert client.get(url).status_code == 200


def test_an_administrator_runs_every_tournament_an_outsider_none(tournament):
    from tournaments.rules import staff_role
    assert staff_role(UserFactory(username="admin", is_superuser=True), tournament) == "organiser"
    assert staff_role(UserFactory(username="nobody"), tournament) is None
