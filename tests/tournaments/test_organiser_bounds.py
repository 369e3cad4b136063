"""What an organiser does to others' data is bounded and logged: players and clubs shown only by
another organiser's tournaments are theirs to change, a change is logged in every tournament that
shows it, the arbiter picker offers no administrator, and taking the organiser role back takes the
tournaments with it."""
import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.factories import ClubFactory, PlayerFactory, RegistrationFactory, UserFactory
from tests.html import attr, parse, text
from tournaments.accounts import services as roles
from tournaments.accounts.selectors import arbiter_candidates
from tournaments.models import AccountOwner, AuditLog, Club, Player

pytestmark = pytest.mark.django_db

REFUSED = "appears only in tournaments of other organisers: ask their organiser (or an administrator) to change it."


@pytest.fixture
def ottos_tournament(other_organiser):
    return other_organiser.organised_tournaments.get()


def _player_form(player, **changes):
    data = {"first_name": player.first_name, "last_name": player.last_name, "nickname": player.nickname,
            "club": player.club_id or "", "city": player.city, "email": player.email}
    return {**data, **changes}


def test_organiser_cannot_open_a_player_only_in_another_organisers_tournament(client_for, organiser,
                                                                               ottos_tournament):
    player = RegistrationFactory(tournament=ottos_tournament, player__first_name="Marco").player
    client = client_for(organiser)
    assert client.get(reverse("manage:player_edit", args=[player.pk])).status_code == 404
    response = client.post(reverse("manage:player_edit", args=[player.pk]), _player_form(player, first_name="Mallory"))
    assert response.status_code == 404
    assert Player.objects.get(pk=player.pk).first_name == "Marco"
    assert not AuditLog.objects.filter(action="player.update").exists()


def test_organiser_cannot_merge_away_a_player_only_in_another_organisers_tournament(client_for, organiser,
                                                                                     ottos_tournament):
    theirs = RegistrationFactory(tournament=ottos_tournament, player__first_name="Marco").player
    mine = PlayerFactory(first_name="Marco", last_name=theirs.last_name)
    response = client_for(organiser).post(reverse("manage:player_merge", args=[theirs.pk]), {"into": mine.pk})
    assert response.status_code == 404
    assert Player.objects.filter(pk=theirs.pk).exists()


def test_rename_of_a_player_in_both_organisers_tournaments_is_logged_in_each(client_for, organiser, tournament,
                                                                            ottos_tournament):
    player = RegistrationFactory(tournament=ottos_tournament, player__first_name="Marco").player
    RegistrationFactory(tournament=tournament, player=player)
    response = client_for(organiser).post(reverse("manage:player_edit", args=[player.pk]),
                                          _player_form(player, first_name="Marcello"))
    assert response.status_code == 302
    entries = AuditLog.objects.filter(action="player.update").order_by("tournament_id")
    assert [(e.tournament_id, e.before["first_name"], e.after["first_name"], e.user) for e in entries] == [
        (tournament.pk, "Marco", "Marcello", organiser), (ottos_tournament.pk, "Marco", "Marcello", organiser)]


def test_a_player_in_no_tournament_is_anyones_to_edit(client_for, organiser):
    player = PlayerFactory(first_name="Marco")
    client_for(organiser).post(reverse("manage:player_edit", args=[player.pk]),
                               _player_form(player, first_name="Marcello"))
    assert Player.objects.get(pk=player.pk).first_name == "Marcello"
    assert list(AuditLog.objects.filter(action="player.update").values_list("tournament_id", flat=True)) == [None]


def test_an_administrator_renames_any_player(client_for, ottos_tournament):
    admin = UserFactory(username="admin", is_superuser=True)
    player = RegistrationFactory(tournament=ottos_tournament, player__first_name="Marco").player
    client_for(admin).post(reverse("manage:player_edit", args=[player.pk]), _player_form(player, first_name="Mario"))
    assert Player.objects.get(pk=player.pk).first_name == "Mario"
    assert AuditLog.objects.get(action="player.update").tournament == ottos_tournament


@pytest.mark.parametrize("through", ["organising", "player"])
def test_organiser_cannot_rename_a_club_only_in_another_organisers_tournament(client_for, organiser,
                                                                              ottos_tournament, through):
    club = ClubFactory(name="Lario")
    if through == "organising":
        ottos_tournament.club = club
        ottos_tournament.save()
    else:
        RegistrationFactory(tournament=ottos_tournament, player__club=club)
    response = client_for(organiser).post(reverse("manage:club_edit", args=[club.pk]), {"name": "Impostori",
                                                                                       "city": ""})
    assert response.context["form"].non_field_errors() == [f"Lario {REFUSED}"]
    assert Club.objects.get(pk=club.pk).name == "Lario"


def test_club_rename_is_logged_in_every_tournament_showing_the_club(client_for, organiser, tournament,
                                                                   ottos_tournament):
    club = ClubFactory(name="Lario")
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
