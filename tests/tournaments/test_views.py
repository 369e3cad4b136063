from decimal import Decimal

import pytest
from django.urls import reverse

from tests.factories import ClubFactory, RegistrationFactory
from tests.html import attr, messages, one, parse, text, texts, tr
from tournaments.models import AuditLog, Player, Registration, Tournament

TOURNAMENT_FORM = {
    "name": "Coppa Lario", "start_date": "2026-12-01", "formula": "conversione150", "bonus": "50",
    "spartaco_malus": "14", "discard_worst": "0", "table_size": "4", "rounds_planned": "3", "entry_fee": "8",
    "dispute_window_minutes": "120", "tiebreak_1": "best_results", "tiebreak_2": "wins",
}


def test_organiser_creates_tournament(client, organiser):
    client.force_login(organiser)
    response = client.post(reverse("manage:tournament_create"), TOURNAMENT_FORM)
    t = Tournament.objects.get(name="Coppa Lario")
    assert response.status_code == 302
    assert (t.organiser, t.tiebreak_chain, t.entry_fee) == (organiser, ("best_results", "wins"), Decimal("8"))
    assert AuditLog.objects.filter(action="tournament.create", tournament=t).count() == 1


def test_fee_above_official_maximum_warns_but_saves(client, organiser):
    client.force_login(organiser)
    response = client.post(reverse("manage:tournament_create"), {**TOURNAMENT_FORM, "entry_fee": "12"}, follow=True)
    assert Tournament.objects.filter(entry_fee=12).count() == 1
    assert tr("The entry fee is above %(max)s EUR, the official maximum of the R.T.U.", max="10") in messages(response)


@pytest.mark.parametrize("field, value, message", [
    ("entry_fee", "-5", "Ensure this value is greater than or equal to 0."),
    ("name", "   ", "This field is required."),
    ("start_date", "31/02/2026", "Enter a valid date."),
    ("rounds_planned", "0", "Ensure this value is greater than or equal to 1."),
    ("table_size", "6", "Select a valid choice. 6 is not one of the available choices."),
])
def test_tournament_form_bad_input_shows_field_error_and_saves_nothing(client, organiser, field, value, message):
    client.force_login(organiser)
    response = client.post(reverse("manage:tournament_create"), {**TOURNAMENT_FORM, field: value})
    assert response.status_code == 200
    assert response.context["form"].errors[field] == [message]
    assert Tournament.objects.count() == 0


def test_tournament_form_refuses_repeated_tiebreak(client, organiser):
    client.force_login(organiser)
    response = client.post(reverse("manage:tournament_create"), {**TOURNAMENT_FORM, "tiebreak_2": "best_results"})
    assert response.context["form"].errors["tiebreak_2"] == ["Each tie-break can appear only once."]


def test_new_player_with_empty_name_shows_error(client, organiser, tournament):
    client.force_login(organiser)
    response = client.post(reverse("manage:registration_add_new", args=[tournament.pk]),
                           {"first_name": "", "last_name": "Rossi"})
    assert response.status_code == 400
    assert response.context["player_form"].errors["first_name"] == ["This field is required."]
    assert Player.objects.count() == 0


def test_a_known_player_of_another_organisers_draft_is_not_matched(client, organiser, tournament, other_organiser):
    """Namesakes are looked for among the players the organiser may see: one registered only in another
    organiser's draft stays unseen, and the form makes a new record."""
    draft = other_organiser.organised_tournaments.get()
    draft.published = False
    draft.save()
    club = ClubFactory()
    hidden = RegistrationFactory(tournament=draft, player__first_name="Marco", player__last_name="Rossi",
                                 player__club=club, player__created_by=other_organiser).player
    client.force_login(organiser)
    response = client.post(reverse("manage:registration_add_new", args=[tournament.pk]),
                           {"first_name": "Marco", "last_name": "Rossi"})
    assert response.status_code == 302
    registered = Registration.objects.get(tournament=tournament).player
    assert registered != hidden and registered.created_by == organiser


def test_checkin_toggle_via_htmx_returns_the_row(client, organiser, tournament):
    reg = RegistrationFactory(tournament=tournament)
    client.force_login(organiser)
    response = client.post(reverse("manage:registration_action", args=[tournament.pk, reg.pk, "checkin"]),
                           {"value": "1"}, HTTP_HX_REQUEST="true")
    reg.refresh_from_db()
    assert reg.present is True
    assert parse(response).find(True) == one(response, f"tr#reg-{reg.pk}")   # the row, first


def test_public_signup_form_requires_email_and_consent(client, tournament):
    tournament.signup_open = True
    tournament.save()
    response = client.post(reverse("public:signup", args=[tournament.pk]), {"first_name": "Pia", "last_name": "Verdi"})
    errors = response.context["form"].errors
    assert sorted(errors) == ["email", "privacy"]
    assert Registration.objects.count() == 0


def test_public_signup_closed_answers_403(client, tournament):
    response = client.get(reverse("public:signup", args=[tournament.pk]))
    assert response.status_code == 403


def test_csv_upload_with_broken_row_shows_errors_and_imports_nothing(client, organiser):
    from django.core.files.uploadedfile import SimpleUploadedFile
    client.force_login(organiser)
    upload = SimpleUploadedFile("p.csv", b"name,surname\nMarco,Rossi\n,Neri\n", content_type="text/csv")
    response = client.post(reverse("manage:player_import"), {"file": upload})
    assert response.status_code == 400
    assert attr(response, "tr[data-row-error]", "data-line") == ["3"]
    assert texts(response, "tr[data-line='3'] .field-error") == [tr("name is empty")]
    assert Player.objects.count() == 0


def test_csv_confirm_imports_all_rows(client, organiser):
    client.force_login(organiser)
    response = client.post(reverse("manage:player_import"), {"confirm": "1", "csv_text": "name,surname\nMarco,Rossi\n"})
    assert response.status_code == 302
    assert list(Player.objects.values_list("last_name", flat=True)) == ["Rossi"]


def test_every_page_carries_the_trademark_notice(client, tournament):
    for url in [reverse("public:home"), reverse("public:tournament", args=[tournament.pk]), reverse("login")]:
        assert text(one(client.get(url), "[data-trademark]")) == \
            "RisiKo! è un marchio registrato ® Editrice Giochi Srl - Tutti i diritti riservati."


def test_pages_are_italian_by_default_and_english_on_request(client, settings, db):
    settings.LANGUAGE_CODE = "it"
    assert one(client.get(reverse("public:home")), "html")["lang"] == "it"
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    assert one(client.get(reverse("public:home")), "html")["lang"] == "en"


def test_htmx_request_needing_login_gets_hx_redirect(client, tournament):
    response = client.get(reverse("manage:registrations", args=[tournament.pk]), HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert response["HX-Redirect"].startswith(reverse("login"))
