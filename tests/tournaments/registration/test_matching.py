"""One person, one record: every entry point matches a person with `match_person` (a national ID, then
name and club, then the near misses found by rapidfuzz) and asks instead of making a second person."""
import pytest

from tests.factories import ClubFactory, OrganiserFactory, PlayerFactory
from tournaments.registration import imports
from tournaments.registration.selectors import match_person
from tournaments.models import Player
from tournaments.text import posted_id

pytestmark = pytest.mark.django_db


@pytest.fixture
def giulia(organiser):
    return PlayerFactory(first_name="Giulia", last_name="Bianchi", club=ClubFactory(name="Il Gufo"),
                         created_by=organiser)


def preview(text, tournament, picks=None):
    return imports.players_csv_preview(imports.pasted_list_to_csv(text), user=tournament.organiser,
                                       tournament=tournament, pasted=True, picks=picks)


@pytest.mark.parametrize("typed, club", [
    (("Giulia", "Bianci"), ""),            # a one-letter typo
    (("Giulia", "Bianchi"), "Gufo"),       # the club written differently
    (("Bianchi", "Giulia"), ""),           # surname first
    (("Giulia", "Biamchi"), "Il Gufo"),    # a typo, the club right
])
def test_a_near_miss_asks_did_you_mean_instead_of_making_a_second_person(typed, club, giulia, organiser):
    found = match_person(viewer=organiser, first_name=typed[0], last_name=typed[1], club_name=club)
    assert found.player is None
    assert (found.question, found.near) == ("near", [giulia])


def test_accents_case_and_spacing_are_the_same_name(giulia, organiser):
    found = match_person(viewer=organiser, first_name="GIÙLIA ", last_name=" bianchi", club_name="il gufo")
    assert found.player == giulia and found.question == ""


def test_a_different_person_is_not_suggested(giulia, organiser):
    found = match_person(viewer=organiser, first_name="Paolo", last_name="Verdi")
    assert (found.player, found.question, found.near) == (None, "", [])


def test_a_near_miss_among_players_the_organiser_may_not_see_is_never_suggested(other_organiser):
    PlayerFactory(first_name="Giulia", last_name="Bianchi", club=None, created_by=other_organiser)
    stranger = OrganiserFactory(username="sandro")
    found = match_person(viewer=stranger, first_name="Giulia", last_name="Bianci")
    assert found.near == [] and found.player is None


def test_a_national_id_held_by_a_player_out_of_sight_never_attaches_nor_shows(other_organiser):
    hidden = PlayerFactory(first_name="Anna", last_name="Neri", club=None, national_id="IT-77",
                           created_by=other_organiser)
    stranger = OrganiserFactory(username="sandro")
    found = match_person(viewer=stranger, first_name="Zoe", last_name="Blu", national_id="IT-77")
    assert found.player is None and hidden not in found.asked and not found.refusal


def test_a_pasted_typo_asks_and_the_answer_registers_the_known_player(giulia, tournament, organiser):
    first = preview("Giulia Bianci", tournament)
    assert (first.rows[0].question, first.rows[0].candidates) == ("near", [giulia])
    text = imports.pasted_list_to_csv("Giulia Bianci")
    registered, created = imports.registrations_import(user=organiser, tournament=tournament, text=text,
                                                       pasted=True, picks={1: str(giulia.pk)})
    assert (registered, created) == (1, 0)
    assert list(tournament.registrations.values_list("player_id", flat=True)) == [giulia.pk]
    assert Player.objects.filter(last_name__startswith="Bianc").count() == 1


def test_a_known_name_at_another_club_is_one_question_then_one_person(tournament, organiser):
    """"Marco Rossi; Spartaco Roma" when Marco Rossi is known at Il Gufo: the same person, now at Spartaco
    Roma, or someone else? Answered "the same", he moves, and no later list asks "which one?"."""
    marco = PlayerFactory(first_name="Marco", last_name="Rossi", club=ClubFactory(name="Il Gufo"),
                          created_by=organiser)
    first = preview("Marco Rossi; Spartaco Roma", tournament)
    assert (first.rows[0].question, first.rows[0].candidates) == ("elsewhere", [marco])
    text = imports.pasted_list_to_csv("Marco Rossi; Spartaco Roma")
    assert imports.registrations_import(user=organiser, tournament=tournament, text=text, pasted=True,
                                        picks={1: str(marco.pk)}) == (1, 0)
    marco.refresh_from_db()
    assert marco.club.name == "Spartaco Roma"
    assert Player.objects.filter(name_key="marco rossi").count() == 1
    for later in ("Marco Rossi", "Marco Rossi; Spartaco Roma"):
        row = preview(later, tournament).rows[0]
        assert (row.question, row.player) == ("", marco)


def test_someone_else_at_another_club_is_a_new_player(tournament, organiser):
    marco = PlayerFactory(first_name="Marco", last_name="Rossi", club=ClubFactory(name="Il Gufo"),
                          created_by=organiser)
    text = imports.pasted_list_to_csv("Marco Rossi; Spartaco Roma")
    assert imports.registrations_import(user=organiser, tournament=tournament, text=text, pasted=True,
                                        picks={1: "new"}) == (1, 1)
    marco.refresh_from_db()
    assert marco.club.name == "Il Gufo"


def test_an_unanswered_question_is_an_error_at_the_confirmation(giulia, tournament, organiser):
    row = preview("Giulia Bianci", tournament, picks={}).rows[0]
    assert row.errors and row.question == "near"


@pytest.mark.parametrize("text, expected", [("12", 12), (12, 12), (" 7 ", 7), ("²", None), ("١٢", None),
                                            ("1" * 19, None), ("-1", None), ("", None), (None, None), ("0x1", None)])
def test_a_posted_id_is_read_one_way_everywhere(text, expected):
    assert posted_id(text) == expected


def test_the_new_player_form_asks_about_a_near_miss_before_saving(client, organiser, giulia):
    from django.urls import reverse
    from tests.html import attr, tr
    client.force_login(organiser)
    url = reverse("manage:player_create")
    response = client.post(url, {"first_name": "Giulia", "last_name": "Bianci"})
    assert response.status_code == 200
    assert response.context["form"].errors["same_as"] == [tr(
        "Did you mean %(players)s? Choose them, or tell us it is someone else.", players="Giulia Bianchi, Il Gufo")]
    assert attr(response, "input[name=same_as]", "value") == [str(giulia.pk), "new"]
    assert Player.objects.count() == 1
    response = client.post(url, {"first_name": "Giulia", "last_name": "Bianci", "same_as": "new"})
    assert response.status_code == 302 and Player.objects.count() == 2


def test_names_typed_in_capitals_are_stored_as_people_write_them(tournament, organiser):
    text = imports.pasted_list_to_csv("MARCO DE LUCA\nanna d'amico; Il Gufo\nDi Maio Luca")
    imports.registrations_import(user=organiser, tournament=tournament, text=text, pasted=True)
    assert sorted(Player.objects.values_list("first_name", "last_name")) == [
        ("Anna", "D'Amico"), ("Di Maio", "Luca"), ("Marco", "De Luca")]
