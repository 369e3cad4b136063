"""Merging two records of one person (results kept, audited); deleting an unused player or club."""
import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from tables.rounds.selectors import round_with_tables
from tests.factories import ClubFactory, PlayerFactory, RegistrationFactory, TournamentFactory, report, seat_round
from tests.html import attr, messages, select, text, tr
from tournaments import services
from tournaments.registration import services as roster
from tournaments.models import AuditLog, Club, Player, Registration

pytestmark = pytest.mark.django_db


def test_merge_moves_registrations_and_results_and_is_audited(organiser, tournament):
    club = ClubFactory()
    keep = PlayerFactory(first_name="Pietro", last_name="Forlì", club=club, email="", created_by=organiser)
    drop = services.player_save(user=organiser, data={"first_name": "Pietro", "last_name": "Forli",
                                                      "email": "pietro@example.org"})
    regs = [RegistrationFactory(tournament=tournament, player=drop)]
    regs += [RegistrationFactory(tournament=tournament) for _ in range(3)]
    rnd = seat_round(tournament, [regs])
    report(rnd.tables.get(), [(60,), (40,), (20,), (10,)])
    roster.player_merge(user=organiser, keep=keep, drop=drop)
    reg = Registration.objects.get(pk=regs[0].pk)
    assert reg.player == keep
    assert round_with_tables(rnd)[0].seats.all()[0].table_points == 60
    keep.refresh_from_db()
    assert (keep.email, keep.club) == ("pietro@example.org", club)
    assert not Player.objects.filter(pk=drop.pk).exists()        # off every list
    assert Player.all_players.get(pk=drop.pk).merged_into == keep   # kept for the log
    entry = AuditLog.objects.get(action="player.merge")
    assert entry.before["merged"]["last_name"] == "Forli"
    assert entry.before["registrations"] == [regs[0].pk]
    assert entry.after["merged_into"] == keep.pk


def test_merge_refuses_two_registrations_in_one_tournament(organiser, tournament):
    a, b = PlayerFactory(created_by=organiser), PlayerFactory(created_by=organiser)
    RegistrationFactory(tournament=tournament, player=a)
    RegistrationFactory(tournament=tournament, player=b)
    with pytest.raises(ValidationError):
        roster.player_merge(user=organiser, keep=a, drop=b)
    assert Registration.objects.filter(player=b).count() == 1
    assert not AuditLog.objects.filter(action="player.merge").exists()


def test_delete_unused_player_and_refuse_a_registered_one(client, organiser, tournament):
    unused = PlayerFactory(last_name="Solo", created_by=organiser)
    used = RegistrationFactory(tournament=tournament, player__created_by=organiser).player
    client.force_login(organiser)
    client.post(reverse("manage:player_delete", args=[unused.pk]))
    assert not Player.all_players.filter(pk=unused.pk).exists()
    response = client.post(reverse("manage:player_delete", args=[used.pk]), follow=True)
    assert messages(response)[-1] == tr("%(p)s has registrations: they cannot be deleted (merge them instead).",
                                        p=used)
    assert Player.objects.filter(pk=used.pk).exists()
    assert AuditLog.objects.filter(action="player.delete").count() == 1


def test_deleted_player_named_by_the_log_stays_unlisted(organiser):
    player = services.player_save(user=organiser, data={"first_name": "Pia", "last_name": "Verdi"})
    roster.player_delete(user=organiser, player=player)
    assert Player.all_players.get(pk=player.pk).removed is True
    assert not Player.objects.filter(pk=player.pk).exists()
    # Her name is free again: a new Pia Verdi is not a duplicate.
    services.player_save(user=organiser, data={"first_name": "Pia", "last_name": "Verdi"})


def test_delete_club_only_when_unused(client, organiser):
    empty, used = ClubFactory(name="Vuoto", created_by=organiser), ClubFactory(name="Pieno", created_by=organiser)
    PlayerFactory(club=used)
    TournamentFactory(club=None)
    client.force_login(organiser)
    client.post(reverse("manage:club_delete", args=[empty.pk]))
    response = client.post(reverse("manage:club_delete", args=[used.pk]), follow=True)
    assert messages(response)[-1] == tr("%(c)s has players or tournaments: it cannot be deleted.", c=used)
    assert list(Club.objects.values_list("name", flat=True)) == ["Pieno"]
    assert AuditLog.objects.get(action="club.delete").before["name"] == "Vuoto"


def test_player_list_flags_possible_duplicates(client, organiser):
    twins = [PlayerFactory(first_name="Niccolò", last_name="Forlì", club=ClubFactory()),
             PlayerFactory(first_name="Niccolo", last_name="Forli", club=None)]
    PlayerFactory(first_name="Marco", last_name="Rossi")
    client.force_login(organiser)
    response = client.get(reverse("manage:players"))
    assert sorted(attr(response, "a[data-duplicate]", "href")) == sorted(
        reverse("manage:player_edit", args=[p.pk]) + "#merge" for p in twins)
    assert {text(a) for a in select(response, "a[data-duplicate]")} == {tr("possible duplicate")}


def test_merge_view(client, organiser):
    keep, drop = PlayerFactory(last_name="Forlì", created_by=organiser), PlayerFactory(last_name="Forli", created_by=organiser)
    client.force_login(organiser)
    page = client.get(reverse("manage:player_edit", args=[drop.pk]))
    assert list(page.context["candidates"]) == [keep]
    response = client.post(reverse("manage:player_merge", args=[drop.pk]), {"into": keep.pk})
    assert response["Location"] == reverse("manage:player_edit", args=[keep.pk])
    assert Player.all_players.get(pk=drop.pk).merged_into == keep

