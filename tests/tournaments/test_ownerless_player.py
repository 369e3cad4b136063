"""A player whose record nobody owns (made by an import or a command), registered only in one organiser's
draft: the draft is that organiser's business alone, so the player stays out of every other organiser's
lists and their card opens for nobody else, as the draft's own players do. tournaments/rules.py
writes the rule once (`players_visible_to`); every list and every card asks it."""
import pytest
from django.urls import reverse

from tests.factories import OrganiserFactory, PlayerFactory, RegistrationFactory, TournamentFactory, UserFactory
from tests.html import attr
from tournaments import rules
from tournaments.models import Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def ghost(other_organiser):
    """Gina, nobody's record, registered in Otto's draft and nowhere else."""
    draft = TournamentFactory(organiser=other_organiser, name="Bozza di Otto", published=False)
    gina = PlayerFactory(first_name="Gina", last_name="Senzapadrone", created_by=None)
    RegistrationFactory(tournament=draft, player=gina)
    return gina


def _lists(client, user, player):
    """Where an organiser finds players: the players page (whole and searched), and the search and the
    club list of the registrations page of their own tournament. The links and tick boxes naming `player`."""
    own = TournamentFactory(organiser=user, name=f"Torneo di {user.username}")
    client.force_login(user)
    card = reverse("manage:player_edit", args=[player.pk])
    pages = [client.get(reverse("manage:players")),
             client.get(reverse("manage:players"), {"q": "Senzapadrone"}),
             client.get(reverse("manage:registration_search", args=[own.pk]), {"q": "Senzapadrone"}),
             client.get(reverse("manage:registrations", args=[own.pk]))]
    assert [p.status_code for p in pages] == [200] * 4
    found = []
    for page in pages:
        found += [href for href in attr(page, "a[href]", "href") if href.split("#")[0] == card]
        found += [value for value in attr(page, "input[name=players]", "value") if value == str(player.pk)]
    return found, own


def _opens(client, user, player, own):
    """The answers to opening the card and to registering the player in one's own tournament."""
    client.force_login(user)
    return (client.get(reverse("manage:player_edit", args=[player.pk])).status_code,
            client.post(reverse("manage:registration_add", args=[own.pk]), {"player": player.pk}).status_code)


def test_an_ownerless_player_registered_only_in_another_organisers_draft_is_in_nobody_elses_lists(
        client, organiser, ghost):
    third = OrganiserFactory(username="terza")
    for user in (organiser, third):
        found, own = _lists(client, user, ghost)
        assert found == [], user.username
        assert _opens(client, user, ghost, own) == (404, 404), user.username
        assert not own.registrations.filter(player=ghost).exists()
        assert not rules.may_see_player(user, ghost)
        assert ghost not in rules.players_visible_to(user, Player.objects.all())


def test_the_drafts_own_organiser_and_an_administrator_find_and_open_them(client, other_organiser, ghost):
    found, own = _lists(client, other_organiser, ghost)
    assert found != []
    assert _opens(client, other_organiser, ghost, own) == (200, 302)
    admin = UserFactory(username="capo", is_superuser=True)
    client.force_login(admin)
    assert client.get(reverse("manage:player_edit", args=[ghost.pk])).status_code == 200


def test_once_the_draft_is_published_every_organiser_finds_them(client, organiser, ghost):
    draft = ghost.registrations.get().tournament
    draft.published = True
    draft.save()
    found, own = _lists(client, organiser, ghost)
    assert found != []
    assert _opens(client, organiser, ghost, own) == (200, 302)
