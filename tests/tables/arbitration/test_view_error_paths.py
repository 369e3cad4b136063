"""Refusals of the arbiters' services reached through the pages: the message on the page, nothing saved."""
from django.urls import reverse

from tables.models import Dispute, Penalty


def test_a_forfeit_without_its_game_is_refused_on_the_penalties_page(client_for, tournament, arbiter, played):
    reg = played.tables.get().seats.first().registration
    response = client_for(arbiter).post(reverse("arbiter:penalties", args=[tournament.pk]), {
        "registration": str(reg.pk), "kind": "forfeit", "seat": "", "points": "", "reason": "Tempo"})
    assert response.status_code == 400
    assert response.context["form"].errors["seat"] == ["Choose the game this penalty applies to."]
    assert not Penalty.objects.exists()


def test_a_dispute_about_unpublished_standings_is_refused_on_the_disputes_page(client_for, tournament, arbiter,
                                                                              played):
    response = client_for(arbiter).post(reverse("arbiter:disputes", args=[tournament.pk]), {
        "about": "standing", "raised_by": "Giocatore A", "text": "La classifica è sbagliata."})
    assert response.status_code == 400
    assert response.context["form"].non_field_errors() == ["No standings have been published yet."]
    assert not Dispute.objects.exists()
