"""Refusals the tournaments pages catch, reached through the pages: the message shown, nothing saved."""
from django.core.exceptions import ValidationError
from django.urls import reverse

from tournaments.registration import services as roster
from tournaments.models import Player, Registration
from tests.html import attr, texts, tr


def test_a_confirmed_player_csv_with_an_error_shows_the_preview_and_imports_nothing(client, organiser):
    client.force_login(organiser)
    response = client.post(reverse("manage:player_import"),
                           {"confirm": "1", "csv_text": "name,surname\nMarco,Rossi\n,Neri\n"})
    assert response.status_code == 400
    assert response.context["preview"].ok is False
    assert attr(response, "tr[data-row-error]", "data-line") == ["3"]
    assert texts(response, "tr[data-line='3'] .field-error") == [tr("name is empty")]
    assert Player.objects.count() == 0


def test_a_confirmed_registration_list_with_an_error_shows_the_preview_and_registers_nobody(client, organiser,
                                                                                           tournament):
    client.force_login(organiser)
    response = client.post(reverse("manage:registration_import", args=[tournament.pk]),
                           {"confirm": "1", "csv_text": "name,surname\nMarco,Rossi\n,Neri\n"})
    assert response.status_code == 400
    assert response.context["preview"].ok is False
    assert [str(m) for m in response.context["messages"]] == ["The list has errors: nothing was registered."]
    assert tournament.registrations.count() == 0
    assert Player.objects.count() == 0


def test_a_sign_up_refused_by_the_service_is_said_on_the_form(client, tournament, monkeypatch):
    # The page checks that sign-up is open; an organiser closing it while the form is filled in is
    # answered by the service, and the form says so.
    tournament.published = tournament.signup_open = True
    tournament.save()

    def closed(**kwargs):
        raise ValidationError("Sign-up for this tournament is closed.")
    monkeypatch.setattr(roster, "registration_signup", closed)
    response = client.post(reverse("public:signup", args=[tournament.pk]), {
        "first_name": "Pia", "last_name": "Verdi", "email": "socio@example.org", "privacy": "on"})
    assert response.status_code == 200
    assert response.context["form"].non_field_errors() == ["Sign-up for this tournament is closed."]
    assert Registration.objects.count() == 0
