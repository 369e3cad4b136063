"""A phase's name is shown in the reader's language, whatever the language of the organiser who
applied the format, and also when it was stored in another language before."""
import pytest
from django.urls import reverse
from django.utils import translation

from tests.html import one, text
from tournaments.models import Phase
from tournaments.models.phase_names import label, same


@pytest.mark.parametrize("stored, language, shown", [
    ("Qualifying rounds", "it", "Turni di qualificazione"),
    ("Turni di qualificazione", "en", "Qualifying rounds"),
    ("Knockout game 3", "it", "Eliminazione diretta, partita 3"),
    ("Eliminazione diretta, partita 12", "en", "Knockout game 12"),
    ("4 finali parallele", "en", "4 parallel finals"),
    ("Finalina (5°-8°)", "en", "Finalina (5th-8th)"),
    ("Final", "it", "Finale"),
    ("Finals", "it", "Finali"),
    ("Gran finale del lago", "en", "Gran finale del lago"),   # a name outside the list, as stored
    ("Knockout game x", "it", "Knockout game x"),
])
def test_a_stored_name_in_the_current_language(stored, language, shown):
    with translation.override(language):
        assert label(stored) == shown


def test_the_same_phase_in_two_languages():
    assert same("Knockout game 2", "Eliminazione diretta, partita 2")
    assert not same("Knockout game 2", "Eliminazione diretta, partita 3")
    assert not same("Final", "Finals")
    assert same("Gran finale", "Gran finale") and not same("Gran finale", "Finale")


@pytest.mark.django_db
def test_a_format_applied_in_english_reads_in_italian(client_for, tournament, organiser, client):
    english = client_for(organiser)
    english.cookies["django_language"] = "en"
    response = english.post(reverse("manage:formats", args=[tournament.pk]),
                            {"form": "format", "preset": "evenings_final", "games": "4", "finalina": "on"})
    assert response.status_code == 302
    assert list(tournament.phases.order_by("order").values_list("name", flat=True)) == [
        "Qualifying rounds", "Final", "Finalina (5th-8th)"]
    tournament.published = True
    tournament.save()
    client.cookies["django_language"] = "it"
    page = client.get(reverse("public:tournament", args=[tournament.pk]))
    assert text(one(page, "#format-phases")) == (
        "Turni di qualificazione (4) · Finale · Finalina (5°-8°)")
    client.cookies["django_language"] = "en"
    page = client.get(reverse("public:tournament", args=[tournament.pk]))
    assert text(one(page, "#format-phases")) == "Qualifying rounds (4) · Final · Finalina (5th-8th)"


@pytest.mark.django_db
def test_a_name_stored_in_italian_before_reads_in_english(tournament):
    phase = Phase.objects.create(tournament=tournament, order=0, kind=Phase.Kind.FINAL, name="Finale")
    with translation.override("en"):
        assert str(phase) == phase.label == "Final"
