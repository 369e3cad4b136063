"""Two arbiters on phones split a room: each says which tables are theirs, and after a save goes on to the
next of their own tables still without a result, else back to their list, never to a colleague's table."""
import pytest
from django.urls import reverse

from tests.factories import RegistrationFactory, UserFactory, seat_round
from tests.html import messages, select, tr

pytestmark = pytest.mark.django_db


@pytest.fixture
def four_tables(tournament):
    regs = [RegistrationFactory(tournament=tournament) for _ in range(16)]
    return seat_round(tournament, [regs[i:i + 4] for i in range(0, 16, 4)])


@pytest.fixture
def colleague(tournament):
    bea = UserFactory(username="bea")
    tournament.arbiters.add(bea)
    return bea


def _save(client, tournament, rnd, number):
    table = rnd.tables.get(number=number)
    data = {"version": table.version}
    for i, (seat, points) in enumerate(zip(table.seats.order_by("position"), [60, 40, 30, 20])):
        data.update({f"p{i}-seat": seat.pk, f"p{i}-table_points": points})
    response = client.post(reverse("arbiter:table", args=[tournament.pk, rnd.number, number]), data)
    assert response.status_code == 302
    return response["Location"]


def _table(tournament, rnd, number):
    return reverse("arbiter:table", args=[tournament.pk, rnd.number, number])


def _choose(client, tournament, rnd, **data):
    return client.post(reverse("arbiter:own_tables", args=[tournament.pk]), {"round": rnd.number, **data})


def test_with_a_colleague_and_no_tables_chosen_a_save_goes_back_to_the_list(client, tournament, arbiter,
                                                                             colleague, four_tables):
    client.force_login(arbiter)
    assert _save(client, tournament, four_tables, 1) == reverse("arbiter:round", args=[tournament.pk, 1])


def test_my_tables_only_are_listed_and_a_save_goes_on_to_the_next_of_mine_then_to_my_list(
        client, tournament, arbiter, colleague, four_tables):
    client.force_login(arbiter)
    assert _choose(client, tournament, four_tables, first="2", last="3")["Location"] == reverse(
        "arbiter:round", args=[tournament.pk, 1])
    page = client.get(reverse("arbiter:round", args=[tournament.pk, 1]))
    assert select(page, "#own-tables")[0]["data-own-tables"] == "2-3"
    assert [a["href"] for a in select(page, "[data-round-tables] a[data-offline-table]")] == [
        _table(tournament, four_tables, 2), _table(tournament, four_tables, 3)]
    assert _save(client, tournament, four_tables, 3) == _table(tournament, four_tables, 2)   # the first of mine
    # table 1 and table 4, still without a result, are the colleague's: back to my list
    assert _save(client, tournament, four_tables, 2) == reverse("arbiter:round", args=[tournament.pk, 1])


def test_the_colleagues_phone_keeps_its_own_range(client, tournament, arbiter, colleague, four_tables):
    client.force_login(arbiter)
    _choose(client, tournament, four_tables, first="1", last="2")
    client.force_login(colleague)
    _choose(client, tournament, four_tables, first="3", last="4")
    assert _save(client, tournament, four_tables, 3) == _table(tournament, four_tables, 4)
    assert _save(client, tournament, four_tables, 4) == reverse("arbiter:round", args=[tournament.pk, 1])


def test_all_tables_again_lists_every_table(client, tournament, arbiter, colleague, four_tables):
    client.force_login(arbiter)
    _choose(client, tournament, four_tables, first="2", last="2")
    _choose(client, tournament, four_tables, all="1")
    page = client.get(reverse("arbiter:round", args=[tournament.pk, 1]))
    assert not select(page, "[data-own-tables]")
    assert len(select(page, "[data-round-tables] a[data-offline-table]")) == 4


@pytest.mark.parametrize("first, last", [("3", "2"), ("", "2"), ("0", "2"), ("due", "4")])
def test_a_range_that_is_not_two_numbers_in_order_is_refused_and_changes_nothing(
        client, tournament, arbiter, colleague, four_tables, first, last):
    client.force_login(arbiter)
    _choose(client, tournament, four_tables, first="1", last="4")
    response = _choose(client, tournament, four_tables, first=first, last=last)
    page = client.get(response["Location"])
    assert messages(page) == [tr("My tables: write two table numbers, the first not above the second.")]
    assert select(page, "#own-tables")[0]["data-own-tables"] == "1-4"


def test_an_arbiter_alone_goes_straight_on_to_the_next_table(client, tournament, arbiter, four_tables):
    client.force_login(arbiter)
    assert _save(client, tournament, four_tables, 1) == _table(tournament, four_tables, 2)
    assert _save(client, tournament, four_tables, 4) == _table(tournament, four_tables, 2)
