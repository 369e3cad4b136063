"""tournaments.rules: each permission predicate, true and false (the pages that use them are covered by
tests/test_role_matrix.py)."""
from types import SimpleNamespace

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.utils import timezone

from circuits.models import Circuit
from tables.arbitration import services as arbitration
from tables.models import Dispute
from tests.factories import (
    ClubFactory,
    PlayerFactory,
    RegistrationFactory,
    TournamentFactory,
    UserFactory,
    seat_round,
)
from tournaments import rules
from tournaments.accounts.services import arbiter_account_create
from tournaments.models import Registration, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin():
    return UserFactory(username="amministratore", is_superuser=True)


@pytest.fixture
def former_organiser(tournament, organiser):
    """The tournament's organiser after an administrator took the role back."""
    organiser.groups.clear()
    return type(organiser).objects.get(pk=organiser.pk)  # a fresh user: no permission cache


def test_is_administrator_only_for_a_superuser(admin, organiser):
    assert rules.is_administrator(admin)
    assert not rules.is_administrator(organiser)
    assert not rules.is_administrator(AnonymousUser())


def test_require_administrator_refuses_an_organiser(admin, organiser):
    rules.require_administrator(admin)
    with pytest.raises(PermissionDenied):
        rules.require_administrator(organiser)


def test_organises_needs_the_tournament_and_the_role(tournament, organiser, other_organiser, arbiter, admin):
    assert rules.organises(organiser, tournament)
    assert rules.organises(admin, tournament)
    assert not rules.organises(other_organiser, tournament)
    assert not rules.organises(arbiter, tournament)
    assert not rules.organises(AnonymousUser(), tournament)


def test_organises_ends_with_the_role(tournament, former_organiser):
    assert not rules.organises(former_organiser, tournament)


def test_arbitrates_only_the_tournaments_one_is_assigned(tournament, arbiter, other_arbiter, organiser):
    assert rules.arbitrates(arbiter, tournament)
    assert not rules.arbitrates(other_arbiter, tournament)
    assert not rules.arbitrates(organiser, tournament)  # the organiser is not among the arbiters
    assert not rules.arbitrates(AnonymousUser(), tournament)


def test_answers_for_its_own_organiser_with_or_without_the_role(tournament, former_organiser, other_organiser,
                                                                admin):
    assert rules.answers_for(former_organiser, tournament)
    assert rules.answers_for(admin, tournament)
    assert not rules.answers_for(other_organiser, tournament)
    assert not rules.answers_for(None, tournament)


def test_a_tournament_is_own_to_its_creator_alone(tournament, organiser, arbiter, other_organiser, admin):
    """Copied only from one's own, its export keeping its own organiser's e-mail alone."""
    assert rules.is_own_tournament(organiser, tournament)
    assert not rules.is_own_tournament(arbiter, tournament)
    assert not rules.is_own_tournament(other_organiser, tournament)
    assert not rules.is_own_tournament(admin, tournament)


def test_run_by_narrows_to_ones_own_and_an_administrator_sees_all(tournament, organiser, other_organiser, admin):
    everything = Tournament.objects.order_by("pk")
    assert list(rules.run_by(organiser, everything)) == [tournament]
    assert tournament not in rules.run_by(other_organiser, everything)
    assert list(rules.run_by(admin, everything)) == list(everything)


def test_may_add_to_circuit_only_ones_own_tournament_to_ones_own_circuit(tournament, organiser, other_organiser):
    own = SimpleNamespace(organiser_id=organiser.pk)
    assert rules.may_add_to_circuit(organiser, own, tournament)
    assert not rules.may_add_to_circuit(other_organiser, own, tournament)
    assert not rules.may_add_to_circuit(other_organiser, SimpleNamespace(organiser_id=other_organiser.pk), tournament)


# --- players and clubs: the shared address book ----------------------------------------------------

@pytest.fixture
def players(tournament, organiser, other_organiser):
    """Olga's player, invited to Otto's published tournament and draft; Otto's player in his draft only;
    Otto's player in a published tournament; a player nobody owns, in no tournament."""
    ottos = other_organiser.organised_tournaments.get()
    draft = TournamentFactory(organiser=other_organiser, published=False)
    olgas = PlayerFactory(created_by=organiser)
    for t in (ottos, draft):
        RegistrationFactory(tournament=t, player=olgas)
    return {"olgas": olgas,
            "ottos_draft": RegistrationFactory(tournament=draft, player__created_by=other_organiser).player,
            "ottos_published": RegistrationFactory(tournament=ottos, player__created_by=other_organiser).player,
            "nobodys": PlayerFactory(created_by=None), "draft": draft}


def test_owns_record_its_creator_an_administrator_or_a_command(players, organiser, other_organiser, admin):
    olgas = players["olgas"]
    assert rules.owns_record(organiser, olgas)
    assert rules.owns_record(admin, olgas)
    assert rules.owns_record(None, olgas)                   # a command or an import
    assert not rules.owns_record(other_organiser, olgas)    # registering them in his tournaments grants nothing
    assert not rules.owns_record(AnonymousUser(), olgas)
    assert not rules.owns_record(organiser, players["nobodys"])


def test_owns_record_not_once_the_role_is_taken_back(organiser, former_organiser):
    assert not rules.owns_record(former_organiser, PlayerFactory(created_by=organiser))


def test_may_change_player_and_club_the_owner_alone(players, organiser, other_organiser, admin):
    club = ClubFactory(created_by=organiser)
    assert rules.may_change_player(organiser, players["olgas"]) and rules.may_change_club(organiser, club)
    assert rules.may_change_player(admin, players["ottos_draft"]) and rules.may_change_club(admin, club)
    assert not rules.may_change_player(other_organiser, players["olgas"])
    assert not rules.may_change_club(other_organiser, club)
    assert not rules.may_change_club(organiser, ClubFactory(created_by=None))


def test_may_read_email_the_owner_alone(players, organiser, other_organiser, admin):
    assert rules.may_read_email(organiser, players["olgas"])
    assert rules.may_read_email(admin, players["olgas"])
    assert not rules.may_read_email(other_organiser, players["olgas"])   # though registered in his tournaments
    assert not rules.may_read_email(None, players["olgas"])
    assert not rules.may_read_email(organiser, players["nobodys"])


def test_may_merge_players_of_one_owner(players, organiser, other_organiser, admin):
    second = PlayerFactory(created_by=organiser)
    assert rules.may_merge_players(organiser, players["olgas"], second)
    assert rules.may_merge_players(admin, players["olgas"], players["ottos_published"])
    assert not rules.may_merge_players(organiser, players["olgas"], players["ottos_published"])
    assert not rules.may_merge_players(other_organiser, players["ottos_published"], players["olgas"])


def test_may_export_player_email_in_the_owners_tournaments(players, tournament, other_organiser):
    assert rules.may_export_player_email(players["olgas"], tournament)
    assert not rules.may_export_player_email(players["olgas"], other_organiser.organised_tournaments.first())
    assert not rules.may_export_player_email(players["nobodys"], tournament)


def test_players_visible_to_and_may_see_player_agree(players, organiser, other_organiser, admin, arbiter):
    from tournaments.models import Player
    expected = {
        organiser: {"olgas", "ottos_published", "nobodys"},             # Otto's draft-only player: unseen
        other_organiser: {"olgas", "ottos_draft", "ottos_published", "nobodys"},
        admin: {"olgas", "ottos_draft", "ottos_published", "nobodys"},
    }
    ids = {name: players[name].pk for name in ("olgas", "ottos_draft", "ottos_published", "nobodys")}
    for user, names in expected.items():
        listed = set(rules.players_visible_to(user, Player.objects.filter(pk__in=ids.values()))
                     .values_list("pk", flat=True))
        assert listed == {ids[n] for n in names}, user
        assert {n for n, pk in ids.items() if rules.may_see_player(user, Player.objects.get(pk=pk))} == names
    assert not rules.may_see_player(arbiter, players["olgas"])     # not an organiser
    assert rules.may_see_player(None, players["ottos_draft"])      # a command
    # once Otto publishes the draft, its players are seen by every organiser
    players["draft"].published = True
    players["draft"].save()
    assert rules.may_see_player(organiser, players["ottos_draft"])


@pytest.fixture
def made_account(tournament, organiser):
    return arbiter_account_create(user=organiser, tournament=tournament, username="nuovo")


def test_owns_account_the_organiser_who_made_it(made_account, organiser, other_organiser, admin):
    assert rules.owns_account(organiser, made_account)
    assert rules.owns_account(admin, made_account)
    assert not rules.owns_account(other_organiser, made_account)


def test_accounts_owned_by_narrows_to_the_accounts_one_made(made_account, arbiter, organiser, other_organiser, admin):
    accounts = type(arbiter).objects.filter(pk__in=[made_account.pk, arbiter.pk]).order_by("pk")
    assert list(rules.accounts_owned_by(organiser, accounts)) == [made_account]
    assert list(rules.accounts_owned_by(other_organiser, accounts)) == []
    assert list(rules.accounts_owned_by(admin, accounts)) == [arbiter, made_account]


def test_may_give_link_for_the_account_one_made(made_account, organiser, other_organiser):
    assert rules.may_give_link(organiser, made_account)
    assert not rules.may_give_link(other_organiser, made_account)
    assert not rules.may_give_link(AnonymousUser(), made_account)


def test_may_give_link_ends_with_the_role(made_account, former_organiser):
    assert rules.owns_account(former_organiser, made_account)
    assert not rules.may_give_link(former_organiser, made_account)


def test_arbiter_accounts_are_active_and_never_an_administrator(arbiter, admin):
    gone = UserFactory(username="partito", is_active=False)
    accounts = type(arbiter).objects.filter(pk__in=[arbiter.pk, admin.pk, gone.pk])
    assert list(rules.arbiter_accounts(accounts)) == [arbiter]


def test_offerable_arbiters_are_the_organisers_own_people(tournament, organiser, arbiter, other_arbiter, admin,
                                                          made_account):
    elsewhere = UserFactory(username="altrove")
    TournamentFactory(organiser=organiser).arbiters.add(elsewhere)   # arbiter of another of theirs
    users = type(organiser).objects.all()
    offered = set(rules.offerable_arbiters(tournament, users).values_list("username", flat=True))
    assert offered == {arbiter.username, made_account.username, elsewhere.username}
    assert not {other_arbiter.username, admin.username, organiser.username} & offered


def test_may_be_added_as_arbiter_an_account_with_its_password(tournament, organiser, other_arbiter, admin,
                                                              made_account):
    assert rules.may_be_added_as_arbiter(other_arbiter, tournament)
    assert not rules.may_be_added_as_arbiter(made_account, tournament)      # no password chosen yet
    assert not rules.may_be_added_as_arbiter(organiser, tournament)
    assert not rules.may_be_added_as_arbiter(admin, tournament)
    other_arbiter.is_active = False
    assert not rules.may_be_added_as_arbiter(other_arbiter, tournament)


def _round(tournament, status):
    regs = [RegistrationFactory(tournament=tournament) for _ in range(4)]
    return seat_round(tournament, [regs], status=status)


def test_may_reopen_round_a_closed_round_until_the_next_is_drawn(tournament):
    first = _round(tournament, "closed")
    assert rules.may_reopen_round(first)
    second = _round(tournament, "published")
    assert not rules.may_reopen_round(first)
    assert not rules.may_reopen_round(second)   # not closed


@pytest.fixture
def published_table(tournament):
    rnd = _round(tournament, "closed")
    rnd.standings_published_at = timezone.now()
    rnd.save()
    return rnd.tables.get()


def _open_disputes(table):
    return Dispute.objects.filter(tournament=table.round.tournament, state=Dispute.State.OPEN, table=table)


def test_may_correct_result_freely_before_the_standings_are_published(tournament, arbiter, django_assert_num_queries):
    table = _round(tournament, "published").tables.get()
    with django_assert_num_queries(0):
        assert rules.may_correct_result(arbiter, table, _open_disputes(table))


def test_may_correct_a_published_result_as_its_organiser_without_asking_for_disputes(published_table, organiser,
                                                                                      django_assert_num_queries):
    with django_assert_num_queries(0):
        assert rules.may_correct_result(organiser, published_table, _open_disputes(published_table))


def test_may_correct_a_published_result_as_arbiter_only_under_an_open_dispute(published_table, arbiter):
    assert not rules.may_correct_result(arbiter, published_table, _open_disputes(published_table))
    arbitration.dispute_record(user=arbiter, tournament=published_table.round.tournament, about="result",
                               raised_by="G", text="G aveva 70 punti", table=published_table)
    assert rules.may_correct_result(arbiter, published_table, _open_disputes(published_table))


# --- an organiser's own tournaments, what the public sees, circuits -------------------------------------

def test_is_own_tournament_and_own_tournaments(tournament, organiser, other_organiser, admin):
    assert rules.is_own_tournament(organiser, tournament)
    assert not rules.is_own_tournament(other_organiser, tournament)
    assert not rules.is_own_tournament(admin, tournament)          # an administrator runs it, did not create it
    assert not rules.is_own_tournament(None, tournament)
    assert list(rules.own_tournaments(organiser, Tournament.objects.all())) == [tournament]
    assert tournament not in rules.own_tournaments(other_organiser, Tournament.objects.all())


def test_shown_publicly_keeps_published_tournaments_only(tournament, organiser):
    draft = TournamentFactory(organiser=organiser, published=False)
    shown = RegistrationFactory(tournament=tournament)
    RegistrationFactory(tournament=draft)
    assert list(rules.shown_publicly(Registration.objects.all())) == [shown]


def test_circuit_for_organiser_its_organiser_or_an_administrator(organiser, other_organiser, admin):
    circuit = Circuit.objects.create(name="C", season="2026", organiser=organiser)
    assert rules.circuit_for_organiser(organiser, Circuit.objects, circuit.pk) == circuit
    assert rules.circuit_for_organiser(admin, Circuit.objects, circuit.pk) == circuit
    with pytest.raises(Http404):
        rules.circuit_for_organiser(other_organiser, Circuit.objects, circuit.pk)
