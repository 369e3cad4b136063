"""The public sign-up resists abuse: a limit per client address (counted in the database, through
trusted proxies), names without look-alike tricks, an existing player's sign-up flagged for the
organiser, no answer that tells who is registered, a busy database answered with a retry message."""
import re

import pytest
from django.db import OperationalError
from django.urls import reverse

from tests.factories import ClubFactory, PlayerFactory, RegistrationFactory
from tests.html import alerts, messages, select, text, tr
from tournaments import services, views
from tournaments.registration import services as roster
from tournaments.models import AuditLog, LoginThrottle, Player, Registration

pytestmark = pytest.mark.django_db


@pytest.fixture
def open_tournament(tournament):
    tournament.published = True
    tournament.signup_open = True
    tournament.save()
    return tournament


def _form(first="Pia", last="Verdi", **extra):
    return {"first_name": first, "last_name": last, "email": "socio@example.org", "privacy": "on", **extra}


def _signup(client, tournament, data, **headers):
    return client.post(reverse("public:signup", args=[tournament.pk]), data, **headers)


def test_signups_from_one_address_stop_at_the_limit(client, open_tournament, settings):
    settings.SIGNUP_LIMIT = 2
    for name in ("Anna", "Bice"):
        assert _signup(client, open_tournament, _form(first=name), REMOTE_ADDR="198.51.100.7").status_code == 200
    response = _signup(client, open_tournament, _form(first="Carla"), REMOTE_ADDR="198.51.100.7")
    assert response.status_code == 429
    assert response.context["form"].non_field_errors() == [
        "Too many sign-ups from this connection. Try again in 60 minutes."]
    assert not Player.objects.filter(first_name="Carla").exists()
    # Another address is not held back; the count is a database row, shared by every worker.
    assert _signup(client, open_tournament, _form(first="Carla"), REMOTE_ADDR="198.51.100.8").status_code == 200
    assert LoginThrottle.objects.get(key="signup:198.51.100.7").count == 2
    assert Registration.objects.count() == 3


def test_signup_limit_counts_the_client_behind_a_trusted_proxy(client, open_tournament, settings):
    settings.SIGNUP_LIMIT = 1
    settings.TRUSTED_PROXY_COUNT = 1
    proxy = {"REMOTE_ADDR": "10.0.0.2"}
    assert _signup(client, open_tournament, _form(first="Anna"), HTTP_X_FORWARDED_FOR="203.0.113.1",
                   **proxy).status_code == 200
    assert _signup(client, open_tournament, _form(first="Bice"), HTTP_X_FORWARDED_FOR="203.0.113.2",
                   **proxy).status_code == 200
    assert _signup(client, open_tournament, _form(first="Carla"), HTTP_X_FORWARDED_FOR="203.0.113.1",
                   **proxy).status_code == 429


def test_signup_limit_ignores_a_forged_forwarded_header_without_a_trusted_proxy(client, open_tournament, settings):
    settings.SIGNUP_LIMIT = 1
    _signup(client, open_tournament, _form(first="Anna"), HTTP_X_FORWARDED_FOR="203.0.113.1")
    response = _signup(client, open_tournament, _form(first="Bice"), HTTP_X_FORWARDED_FOR="203.0.113.2")
    assert response.status_code == 429


@pytest.mark.parametrize("first, last", [("Mаrco", "Rossi"),       # Cyrillic а
                                         ("Marco", "Rοssi"),       # Greek ο
                                         ("Marco", "Rossі")])      # Ukrainian і
def test_signup_refuses_names_mixing_look_alike_alphabets(client, open_tournament, first, last):
    response = _signup(client, open_tournament, _form(first=first, last=last))
    errors = response.context["form"].errors
    field = "first_name" if first != "Marco" else "last_name"
    assert errors[field] == ["Write the name in one alphabet: it mixes letters of different alphabets that "
                             "look alike."]
    assert Registration.objects.count() == 0


def test_signup_stores_names_without_invisible_or_direction_characters(client, open_tournament):
    response = _signup(client, open_tournament, _form(first="Ｐｉａ\u200b", last="Ver\u202edi\u2066 "))
    assert response.status_code == 200
    assert list(Player.objects.values_list("first_name", "last_name")) == [("Pia", "Verdi")]


def test_names_in_one_other_alphabet_are_accepted(client, open_tournament):
    _signup(client, open_tournament, _form(first="Νίκος", last="Παπαδόπουλος"))
    _signup(client, open_tournament, _form(first="Олег", last="Петров"))
    assert Registration.objects.count() == 2


def test_signup_naming_an_existing_player_is_flagged_on_the_pending_list(client, client_for, organiser,
                                                                         open_tournament):
    club = ClubFactory(name="Lario")
    existing = PlayerFactory(first_name="Marco", last_name="Rossi", club=club, email="marco@example.org")
    # Fullwidth letters and a zero-width space are the same name once normalised.
    _signup(client, open_tournament, _form(first="Ｍａｒｃｏ\u200b", last="ROSSI", club=club.pk,
                                           email="impostor@example.org"))
    _signup(client, open_tournament, _form(first="Pia", last="Verdi"))
    regs = {r.player.last_name: r for r in Registration.objects.select_related("player")}
    assert regs["Rossi"].player == existing
    assert (regs["Rossi"].existing_player, regs["Verdi"].existing_player) == (True, False)
    existing.refresh_from_db()
    assert existing.email == "marco@example.org"
    entry = AuditLog.objects.get(action="registration.signup", player=existing)
    assert entry.after["existing_player"] is True
    page = client_for(organiser).get(reverse("manage:registrations", args=[open_tournament.pk]))
    [flag] = select(page, "[data-existing-player]")
    assert flag.find_parent("tr")["id"] == f'reg-{regs["Rossi"].pk}'
    assert text(flag) == tr("matches existing player")


def test_signup_without_a_club_registers_the_one_known_player_by_that_name(client, open_tournament):
    known = PlayerFactory(first_name="Marco", last_name="Rossi", club=ClubFactory(name="Lario"))
    _signup(client, open_tournament, _form(first="marco ", last="Rossì"))
    reg = Registration.objects.get()
    assert (reg.player, reg.existing_player) == (known, True)
    assert Player.objects.count() == 1


def test_signup_with_an_existing_players_name_in_another_club_is_flagged_too(client, open_tournament):
    PlayerFactory(first_name="Marco", last_name="Rossi", club=ClubFactory(name="Lario"))
    other = ClubFactory(name="Tana")
    _signup(client, open_tournament, _form(first="Marco", last="Rossì", club=other.pk))
    reg = Registration.objects.get()
    assert (reg.player.club, reg.existing_player) == (other, True)
    assert Player.objects.count() == 2


def test_pending_list_says_matches_existing_player_in_italian(client, client_for, organiser, open_tournament,
                                                              settings):
    settings.LANGUAGE_CODE = "it"
    PlayerFactory(first_name="Marco", last_name="Rossi", club=None)
    _signup(client, open_tournament, _form(first="Marco", last="Rossi"))
    page = client_for(organiser).get(reverse("manage:registrations", args=[open_tournament.pk]),
                                     HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "corrisponde a un giocatore esistente" in page


def _without_csrf(page):
    return re.sub(r'("X-CSRFToken": "|name="csrfmiddlewaretoken" value=")[^"]+"', "", page)


def test_already_registered_answers_like_any_signup(client, open_tournament):
    RegistrationFactory(tournament=open_tournament, player=PlayerFactory(first_name="Marco", last_name="Rossi",
                                                                         club=None))
    again = _signup(client, open_tournament, _form(first="Marco", last="Rossi"))
    fresh = _signup(client, open_tournament, _form(first="Pia", last="Verdi"))
    assert (again.status_code, fresh.status_code) == (200, 200)
    assert [t.name for t in again.templates][0] == [t.name for t in fresh.templates][0] == \
        "tournaments/signup_done.html"
    assert (alerts(again), messages(again)) == ([], [])   # nothing said about who was registered
    page = again.content.decode()
    assert _without_csrf(page.replace("Marco Rossi", "Pia Verdi")) == _without_csrf(fresh.content.decode())
    assert Registration.objects.count() == 2


def test_busy_database_gives_a_retry_message_not_a_500(client, open_tournament, monkeypatch):
    def locked(**kwargs):
        raise OperationalError("database is locked")
    monkeypatch.setattr(roster, "registration_signup", locked)
    response = _signup(client, open_tournament, _form())
    assert response.status_code == 503
    assert response.context["form"].non_field_errors() == [
        "Too many sign-ups at this moment: nothing was saved. Send the form again."]
    assert Registration.objects.count() == 0


def test_busy_database_while_counting_the_limit_gives_the_retry_message(client, open_tournament, monkeypatch):
    def locked(request):
        raise OperationalError("database is locked")
    monkeypatch.setattr(views, "signup_take", locked)
    response = _signup(client, open_tournament, _form())
    assert response.status_code == 503
    assert Registration.objects.count() == 0


def test_service_refuses_a_second_registration_of_a_player(organiser, open_tournament):
    reg = RegistrationFactory(tournament=open_tournament)
    with pytest.raises(services.AlreadyRegistered):
        services.registration_add(user=organiser, tournament=open_tournament, player=reg.player)


def test_player_lists_are_read_with_the_same_name_rules(organiser, open_tournament):
    from tournaments.registration import imports
    preview = imports.players_csv_preview("name;surname;club\nMаrco;Rossi;Lario\nＰｉａ\u200b;Ver\u202edi;\n")
    assert [(r.values["name"], r.values["surname"], r.errors) for r in preview.rows] == [
        ("Mаrco", "Rossi", ["name mixes letters of different alphabets that look alike"]),
        ("Pia", "Verdi", [])]
    registered, created = imports.registrations_import(user=organiser, tournament=open_tournament,
                                                       text="name;surname\nＰｉａ\u200b;Ver\u202edi\n")
    assert list(Player.objects.values_list("first_name", "last_name")) == [("Pia", "Verdi")]


def test_signup_with_the_name_of_several_players_asks_for_the_club(client, open_tournament):
    lario, tana = ClubFactory(name="Lario"), ClubFactory(name="Tana dei Goblin")
    PlayerFactory(first_name="Marco", last_name="Rossi", club=lario)
    theirs = PlayerFactory(first_name="Marco", last_name="Rossi", club=tana)
    response = _signup(client, open_tournament, _form(first="Marco", last="Rossi"))
    assert response.status_code == 200
    assert response.context["form"].errors["club"] == [tr(
        "Several players are called %(name)s (%(clubs)s): choose your club.", name="Marco Rossi",
        clubs="Lario, Tana dei Goblin")]
    assert not Registration.objects.exists()
    _signup(client, open_tournament, _form(first="Marco", last="Rossi", club=tana.pk))
    assert (Registration.objects.get().player, Player.objects.count()) == (theirs, 2)
