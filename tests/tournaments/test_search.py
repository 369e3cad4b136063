"""Accents and case aside: "Forli" finds "Forlì", "Niccolo" finds "Niccolò"; a look-alike is a duplicate."""
import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from tests.factories import ClubFactory, PlayerFactory, RegistrationFactory, seat_round
from tests.html import select, text
from tournaments import services
from tournaments.models import Player
from tournaments.text import fold

pytestmark = pytest.mark.django_db


def test_fold():
    assert fold("  Niccolò  FORLÌ ") == "niccolo forli"
    assert fold("D’Amico Ñandú Straße") == "d'amico nandu strasse"


@pytest.mark.parametrize("query", ["Forli", "forlì", "FORLI", "niccolo forli", "Niccolo", "club cesena"])
def test_organiser_search_ignores_accents_and_case(client, organiser, query):
    club = ClubFactory(name="Club Cesena")
    PlayerFactory(first_name="Niccolò", last_name="Forlì", club=club)
    PlayerFactory(first_name="Marco", last_name="Rossi")
    client.force_login(organiser)
    response = client.get(reverse("manage:players"), {"q": query})
    assert [p.full_name for p in response.context["page"]] == ["Niccolò Forlì"]


def test_registration_search_ignores_accents(client, organiser, tournament):
    player = PlayerFactory(first_name="Niccolò", last_name="Forlì")
    client.force_login(organiser)
    response = client.get(reverse("manage:registration_search", args=[tournament.pk]), {"q": "niccolo"})
    [found] = select(response, "#search-results input[name=players]")
    assert found["value"] == str(player.pk) and text(found.parent).startswith("Niccolò Forlì")


def test_club_search_ignores_accents(client, organiser):
    ClubFactory(name="RisiKo Club Forlì")
    ClubFactory(name="Lario")
    client.force_login(organiser)
    response = client.get(reverse("manage:clubs"), {"q": "forli"})
    assert [c.name for c in response.context["clubs"]] == ["RisiKo Club Forlì"]


def test_public_find_your_table_ignores_accents(client, tournament):
    regs = [RegistrationFactory(tournament=tournament, player=PlayerFactory(first_name="Niccolò", last_name="Forlì"))]
    regs += [RegistrationFactory(tournament=tournament) for _ in range(3)]
    other = [RegistrationFactory(tournament=tournament) for _ in range(4)]
    seat_round(tournament, [other, regs])
    response = client.get(reverse("public:round", args=[tournament.pk, 1]), {"q": "niccolo FORLI"})
    assert [t.number for t in response.context["tables"] if t.match] == [2]


def test_look_alike_of_the_same_club_is_a_duplicate(organiser):
    club = ClubFactory()
    PlayerFactory(first_name="Pietro", last_name="Forlì", club=club)
    with pytest.raises(ValidationError) as exc:
        services.player_save(user=organiser, data={"first_name": "pietro", "last_name": "Forli", "club": club})
    assert exc.value.message_dict == {"last_name": ["A player with this name and club already exists: Pietro Forlì."]}
    services.player_save(user=organiser, data={"first_name": "Pietro", "last_name": "Forli", "club": None})
    assert Player.objects.count() == 2


def test_keys_follow_a_rename(organiser):
    player = PlayerFactory(first_name="Niccolò", last_name="Forlì")
    services.player_save(user=organiser, player=player, data={"last_name": "Bertè"})
    player.refresh_from_db()
    assert (player.name_key, player.search_key.startswith("niccolo berte")) == ("niccolo berte", True)


@pytest.mark.parametrize("url_name, status", [("manage:player_create", 200), ("manage:registration_add_new", 400)])
def test_creating_a_look_alike_of_the_same_club_on_the_page_is_refused_as_a_duplicate(client, organiser, tournament,
                                                                                      url_name, status):
    """"Pietro Forli" next to "Pietro Forlì" of the same club: the player form (and the tournament's
    "New player") names the existing player and saves nothing; of another club it is a new player."""
    club, other = ClubFactory(), ClubFactory()
    PlayerFactory(first_name="Pietro", last_name="Forlì", club=club)
    client.force_login(organiser)
    url = reverse(url_name, args=[tournament.pk] if url_name.startswith("manage:registration") else [])
    response = client.post(url, {"first_name": "PIETRO", "last_name": "Forli", "club": club.pk})
    assert response.status_code == status
    form = response.context["form" if url_name == "manage:player_create" else "player_form"]
    assert form.errors["last_name"] == ["A player with this name and club already exists: Pietro Forlì."]
    assert Player.objects.count() == 1
    response = client.post(url, {"first_name": "Pietro", "last_name": "Forli", "club": other.pk})
    assert response.status_code == 302
    assert Player.objects.count() == 2
