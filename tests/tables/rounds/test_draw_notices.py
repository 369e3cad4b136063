"""What the organiser is told about a draw: no standings for a seeded method, club mates together."""
from django.contrib.messages import get_messages
from django.urls import reverse

from tables.models import Round
from tests.factories import ClubFactory, RegistrationFactory, seat_round
from tests.html import one, select, text


def test_seeded_top_without_standings_warns_and_draws_at_random(client, tournament, organiser):
    for _ in range(12):
        RegistrationFactory(tournament=tournament, present=True)
    client.force_login(organiser)
    response = client.post(reverse("manage:rounds", args=[tournament.pk]), {"method": "seeded_top", "seed": 4})
    assert response.status_code == 302
    assert [str(m) for m in get_messages(response.wsgi_request)] == [
        "There are no standings yet, so table 1 cannot seat the top players: the tables were drawn at random, "
        "keeping clubs apart and avoiding rematches."]
    assert [t.seats.count() for t in Round.objects.get().tables.order_by("number")] == [4, 4, 4]


def test_the_preview_says_how_many_club_mates_sit_together_and_why(client, tournament, organiser):
    lario = ClubFactory(name="Lario")
    mates = [RegistrationFactory(tournament=tournament, present=True, player__club=lario) for _ in range(3)]
    others = [RegistrationFactory(tournament=tournament, present=True) for _ in range(5)]
    seat_round(tournament, [mates + others[:1], others[1:]], status="draft")
    client.force_login(organiser)
    response = client.get(reverse("manage:round", args=[tournament.pk, 1]))
    assert response.context["penalties"]["club_note"] == (
        "3 pairs of players of the same club share a table. Lario has 3 players for 2 tables. "
        "1 pair cannot be avoided. 2 more could be avoided: swap players to separate them.")
    assert text(one(response, "#club-note")) == response.context["penalties"]["club_note"]


def test_the_preview_blames_a_placing_method_for_the_avoidable_pairs(client, tournament, organiser):
    lario = ClubFactory(name="Lario")
    mates = [RegistrationFactory(tournament=tournament, present=True, player__club=lario) for _ in range(2)]
    others = [RegistrationFactory(tournament=tournament, present=True) for _ in range(6)]
    rnd = seat_round(tournament, [mates + others[:2], others[2:]], status="draft")
    Round.objects.filter(pk=rnd.pk).update(method="swiss")
    client.force_login(organiser)
    response = client.get(reverse("manage:round", args=[tournament.pk, 1]))
    assert response.context["penalties"]["club_note"] == (
        "1 pair of players of the same club shares a table. "
        "1 more comes from the method, which places players by rank or by plan.")


def test_the_preview_says_nothing_when_clubs_sit_apart(client, tournament, organiser):
    regs = [RegistrationFactory(tournament=tournament, present=True) for _ in range(8)]
    seat_round(tournament, [regs[:4], regs[4:]], status="draft")
    client.force_login(organiser)
    response = client.get(reverse("manage:round", args=[tournament.pk, 1]))
    assert response.context["penalties"]["club_note"] is None
    assert select(response, "#club-note") == []
