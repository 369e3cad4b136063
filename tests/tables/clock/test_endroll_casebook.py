"""The end roll page on the arbiter's phone follows seed 004's casebook: whose roll it is, players
eliminated, players who conquered 3 or more territories (SCORING.md section 10)."""
import datetime

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tables.models import Round
from tests.factories import RegistrationFactory, seat_round
from tests.html import one, select, text, tr
from tournaments.models import AuditLog, EndRoll


@pytest.fixture
def four(tournament):
    """Seats 1-4 in turn order: Dini (4th) is the last player of the table."""
    return [RegistrationFactory(tournament=tournament, player__first_name=f, player__last_name=n)
            for f, n in [("Ada", "Abate"), ("Bea", "Bassi"), ("Cesare", "Conti"), ("Dario", "Dini")]]


@pytest.fixture
def page(tournament, four, arbiter, client_for):
    rnd = seat_round(tournament, [four])
    Round.objects.filter(pk=rnd.pk).update(clock_started_at=timezone.now() - datetime.timedelta(minutes=91),
                                           clock_minutes=90)
    client = client_for(arbiter)
    url = reverse("arbiter:endroll", args=[tournament.pk, 1, 1])

    def post(**data):
        return client.post(url, {k: str(v) for k, v in data.items()})

    def get():
        return client.get(url)
    return get, post


def _next(response):
    """Whose roll it is (their registration) and in which extra round."""
    return int(one(response, "#next-roller")["data-registration"]), response.context["state"].extra_round


def test_the_page_shows_whose_roll_it_is_and_goes_round_from_the_last_player(page, four):
    get, post = page
    first = get()
    assert _next(first) == (four[3].pk, 1)
    assert text(one(first, "#next-roller")) == tr("Roll of %(name)s", name="Dario Dini")
    assert post(form="roll", registration=four[3].pk, roll=9).status_code == 302
    assert _next(get()) == (four[0].pk, 1)                      # Ada Abate
    post(form="roll", registration=four[0].pk, skipped="on")   # conquered 3 territories: no roll
    assert _next(get()) == (four[1].pk, 1)                      # Bea Bassi
    post(form="roll", registration=four[1].pk, roll=8)
    post(form="roll", registration=four[2].pk, roll=8)
    assert _next(get()) == (four[3].pk, 2)                      # Dario Dini
    assert [(r.extra_round, r.roll) for r in EndRoll.objects.order_by("pk")] == [(1, 9), (1, None), (1, 8), (1, 8)]
    who = one(Client().get(reverse("public:clock", args=[four[0].tournament_id])), "#endroll-table-1 .endroll-who")
    assert who["data-registration"] == str(four[3].pk)
    assert text(who) == tr("roll of %(name)s", name="Dario Dini")


def test_last_player_eliminated_before_the_rolls_the_one_before_rolls_first(page, four):
    get, post = page
    response = post(form="out", **{"out-registration": four[3].pk})
    assert response.status_code == 302
    response = get()
    assert _next(response) == (four[2].pk, 1)                   # Cesare Conti
    [out] = select(response, "#endroll-order li.is-out")
    assert out["data-registration"] == str(four[3].pk)
    assert text(out) == f'Dario Dini {tr("out")}' and text(out.span) == tr("out")
    assert [c[0] for c in response.context["form"].fields["registration"].choices] == [
        four[0].pk, four[1].pk, four[2].pk]
    assert AuditLog.objects.filter(action="endroll.out").count() == 1


def test_casebook_the_third_eliminates_the_fourth_after_the_rolls_began_and_rolls_with_4_or_5(page, four):
    """Seed 004: the 4th rolls with 4, then the 1st and 2nd; the 3rd eliminates the 4th during their
    turn and rolls not only with 4 but also with 5."""
    get, post = page
    for reg in (four[3], four[0], four[1]):
        post(form="roll", registration=reg.pk, roll=9)
    post(form="out", **{"out-registration": four[3].pk})
    response = get()
    assert _next(response) == (four[2].pk, 2)                   # Cesare Conti
    assert response.context["state"].ending == "4 or 5"
    post(form="roll", registration=four[2].pk, roll=5)
    entry = EndRoll.objects.order_by("pk").last()
    assert (entry.extra_round, entry.ends_game) == (2, True)


def test_an_eliminated_player_cannot_roll_and_the_last_one_left_ends_the_game(page, four):
    get, post = page
    post(form="out", **{"out-registration": four[3].pk})
    response = post(form="roll", registration=four[3].pk, roll=4)
    assert response.status_code == 400
    assert "registration" in response.context["form"].errors
    post(form="out", **{"out-registration": four[2].pk})
    response = post(form="out", **{"out-registration": four[1].pk})
    assert response.status_code == 400
    assert response.context["out_form"].non_field_errors() == [
        "Only one player would be left: the game is over, enter the table's result."]
    assert EndRoll.objects.filter(eliminated=True).count() == 2


def test_lariana_rounds_start_with_the_player_chosen_for_the_first_roll(page, four, tournament):
    """Seed 000 art. 44.1: time ran out during the 2nd player's turn; after the 3 rounds they roll
    first, and the round goes on until their turn comes back (4, then 4 or 7)."""
    tournament.end_roll_variant = "lariana"
    tournament.save()
    get, post = page
    for reg in (four[1], four[2], four[3], four[0]):
        assert post(form="roll", registration=reg.pk, roll=9).status_code == 302
    response = get()
    assert _next(response) == (four[1].pk, 2)                   # Bea Bassi
    assert response.context["state"].ending == "4 or 7"
    assert [r.extra_round for r in EndRoll.objects.order_by("pk")] == [1, 1, 1, 1]
