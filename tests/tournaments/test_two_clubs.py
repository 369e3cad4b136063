"""Two clubs on one server: each organiser's accounts, links and players stay theirs."""
import importlib
import json

import pytest
from django.apps import apps as django_apps
from django.contrib.auth import get_user_model
from django.test import override_settings
from django.urls import reverse

from tests.factories import OrganiserFactory, PlayerFactory, RegistrationFactory, TournamentFactory, UserFactory
from tests.html import alerts, attr, field_errors, one, select, texts, tr
from tournaments.models import AccountOwner, AuditLog, Player

pytestmark = pytest.mark.django_db
User = get_user_model()


@pytest.fixture
def clubs(client):
    """Organiser A (olga) and B (bruno), each with a tournament; B made an arbiter account `beppe`."""
    a, b = OrganiserFactory(username="olga"), OrganiserFactory(username="bruno")
    ta, tb = TournamentFactory(organiser=a, name="Torneo A"), TournamentFactory(organiser=b, name="Torneo B")
    client.force_login(b)
    client.post(reverse("manage:arbiters", args=[tb.pk]), {"new_account": "1", "username": "beppe"})
    beppe = User.objects.get(username="beppe")
    a_arbiter = UserFactory(username="anna")
    ta.arbiters.add(a_arbiter)
    a_made = UserFactory(username="aldo")
    AccountOwner.objects.create(account=a_made, owner=a)
    client.logout()
    return {"a": a, "b": b, "ta": ta, "tb": tb, "beppe": beppe, "a_arbiter": a_arbiter, "a_made": a_made}


def _offered(client, tournament):
    page = client.get(reverse("manage:arbiters", args=[tournament.pk]))
    return set(attr(page, "input[name=arbiters]", "value")), page


def test_arbiters_page_offers_only_own_accounts(client, clubs):
    UserFactory(username="passante")  # someone else's account on the server
    client.force_login(clubs["a"])
    offered, page = _offered(client, clubs["ta"])
    assert offered == {str(clubs["a_arbiter"].pk), str(clubs["a_made"].pk)}
    for name in (b"beppe", b"bruno", b"passante"):
        assert name not in page.content   # nowhere in what is sent


def test_ticking_another_organisers_account_is_refused(client, clubs):
    client.force_login(clubs["a"])
    response = client.post(reverse("manage:arbiters", args=[clubs["ta"].pk]),
                           {"save_arbiters": "1", "arbiters": [clubs["beppe"].pk]})
    assert response.status_code == 400
    assert not clubs["ta"].arbiters.filter(pk=clubs["beppe"].pk).exists()


def test_a_colleague_is_added_by_exact_name_only_with_a_chosen_password(client, clubs):
    client.force_login(clubs["a"])
    url = reverse("manage:arbiters", args=[clubs["ta"].pk])
    # beppe never chose a password: refused, with the same words as a name that does not exist
    refused = client.post(url, {"colleague_add": "1", "colleague": "beppe"})
    missing = client.post(url, {"colleague_add": "1", "colleague": "nessuno"})
    assert refused.status_code == missing.status_code == 400
    errors = [alerts(r) for r in (refused, missing)]
    assert errors[0] == errors[1] == field_errors(refused, "colleague") and len(errors[0]) == 1
    assert not clubs["ta"].arbiters.filter(pk=clubs["beppe"].pk).exists()
    clubs["beppe"].set_password("Scelta-da-beppe-2026")
    clubs["beppe"].save()
    assert client.post(url, {"colleague_add": "1", "colleague": "BEPPE"}).status_code == 400  # exact name
    assert client.post(url, {"colleague_add": "1", "colleague": "beppe"}).status_code == 302
    assert clubs["ta"].arbiters.filter(pk=clubs["beppe"].pk).exists()
    assert AuditLog.objects.filter(action="tournament.arbiter_add", tournament=clubs["ta"]).count() == 1
    # still B's account: A gets no link for it
    assert client.post(reverse("manage:arbiter_link", args=[clubs["ta"].pk, clubs["beppe"].pk])).status_code == 404


def test_only_the_owner_gives_a_link(client, clubs):
    clubs["ta"].arbiters.add(clubs["beppe"])  # say an administrator put B's new account on A's tournament
    client.force_login(clubs["a"])
    page = client.get(reverse("manage:arbiters", args=[clubs["ta"].pk]))
    assert page.status_code == 200
    assert not select(page, f"[action='{reverse('manage:arbiter_link', args=[clubs['ta'].pk, clubs['beppe'].pk])}']")
    response = client.post(reverse("manage:arbiter_link", args=[clubs["ta"].pk, clubs["beppe"].pk]))
    assert response.status_code == 404
    assert not AuditLog.objects.filter(action="tournament.arbiter_link").exists()
    client.force_login(clubs["b"])
    response = client.post(reverse("manage:arbiter_link", args=[clubs["tb"].pk, clubs["beppe"].pk]))
    assert response.status_code == 200


def _link(response):
    link = one(response, "#account-link input.link-box")["value"]
    assert link.startswith("http://testserver/accounts/password/")
    return link


def test_renewing_a_link_revokes_the_earlier_ones(client, clubs):
    client.force_login(clubs["b"])
    url = reverse("manage:arbiter_link", args=[clubs["tb"].pk, clubs["beppe"].pk])
    first = _link(client.post(url))
    second = _link(client.post(url))
    assert first != second
    client.logout()
    old = client.get(first, follow=True)
    assert old.context["validlink"] is False
    assert old.status_code == 200
    new = client.get(second, follow=True)
    assert new.context["validlink"] is True


def test_link_lifetime_is_an_evening_and_printed(client, clubs, settings):
    from risiko_site import settings as project_settings
    assert project_settings.PASSWORD_LINK_HOURS == 12
    assert project_settings.PASSWORD_RESET_TIMEOUT == 12 * 3600
    client.force_login(clubs["b"])
    url = reverse("manage:arbiter_link", args=[clubs["tb"].pk, clubs["beppe"].pk])
    with override_settings(PASSWORD_LINK_HOURS=5, PASSWORD_RESET_TIMEOUT=5 * 3600):
        response = client.post(url)
    box = one(response, "#account-link")
    assert box["data-link-hours"] == "5"
    assert tr("Valid for %(hours)s hour, until the password is chosen. The link is shown only now.",
              plural="Valid for %(hours)s hours, until the password is chosen. The link is shown only now.",
              count=5, hours=5) in texts(box, "p")


@pytest.mark.parametrize("name", ["\u0430rbitro", "ARBITRO", "\u0430\u0433bitro"])
def test_a_look_alike_user_name_is_refused(client, clubs, name):
    UserFactory(username="arbitro")
    client.force_login(clubs["a"])
    response = client.post(reverse("manage:arbiters", args=[clubs["ta"].pk]), {"new_account": "1", "username": name})
    assert response.status_code == 400
    assert User.objects.count() == 6


def test_a_user_name_is_stored_nfkc(client, clubs):
    client.force_login(clubs["a"])
    client.post(reverse("manage:arbiters", args=[clubs["ta"].pk]),
                {"new_account": "1", "username": "\uff4d\uff41\uff52\uff49\u200b\uff4f"})
    account = User.objects.get(username="mario")
    assert AccountOwner.objects.get(account=account).owner == clubs["a"]


def test_another_organisers_player_is_404(client, clubs):
    clubs["tb"].published = False
    clubs["tb"].save()
    signed_up = RegistrationFactory(tournament=clubs["tb"]).player  # only in B's draft
    signed_up.email = "segreta@example.org"
    signed_up.save()
    client.force_login(clubs["b"])
    client.post(reverse("manage:player_create"), {"first_name": "Bice", "last_name": "Bruni"})
    typed_by_b = Player.objects.get(last_name="Bruni")
    assert typed_by_b.created_by == clubs["b"]
    client.force_login(clubs["a"])
    mine = PlayerFactory(created_by=clubs["a"])
    RegistrationFactory(tournament=clubs["ta"], player=mine)
    for player in (signed_up, typed_by_b):
        assert client.get(reverse("manage:player_edit", args=[player.pk])).status_code == 404
        assert client.post(reverse("manage:player_delete", args=[player.pk])).status_code == 404
        assert client.post(reverse("manage:player_merge", args=[player.pk]), {"into": mine.pk}).status_code == 404
        assert client.post(reverse("manage:player_merge", args=[mine.pk]), {"into": player.pk}).status_code == 404
    assert Player.objects.filter(pk__in=[signed_up.pk, typed_by_b.pk]).count() == 2
    # once registered in A's tournament too, A reads their card without the e-mail; B's tournament is
    # not named on A's page
    RegistrationFactory(tournament=clubs["ta"], player=signed_up)
    page = client.get(reverse("manage:player_edit", args=[signed_up.pk]))
    assert select(page, "input[name=email]") == []
    assert b"segreta@example.org" not in page.content
    assert [r.tournament for r in page.context["registered"]] == [clubs["ta"]]


def test_a_shared_player_nobody_owns_is_read_without_email_and_not_changed(client, clubs):
    shared = PlayerFactory(email="nessuno-la-legge@example.org")
    client.force_login(clubs["a"])
    page = client.get(reverse("manage:player_edit", args=[shared.pk]))
    assert page.status_code == 200
    assert b"nessuno-la-legge@example.org" not in page.content   # nowhere in what is sent
    response = client.post(reverse("manage:player_edit", args=[shared.pk]),
                           {"first_name": shared.first_name, "last_name": shared.last_name, "nickname": "Nuovo"})
    assert response.status_code == 403
    shared.refresh_from_db()
    assert (shared.nickname, shared.email) == ("", "nessuno-la-legge@example.org")


def test_the_migration_gives_existing_accounts_and_players_their_owner(clubs):
    fill = importlib.import_module("tournaments.migrations.0009_account_owner_player_created_by").fill_owners
    AccountOwner.objects.all().delete()
    old = UserFactory(username="vecchio")
    old.set_unusable_password()
    old.save()
    clubs["tb"].arbiters.add(old)
    shared = UserFactory(username="condiviso")
    shared.set_unusable_password()
    shared.save()
    clubs["ta"].arbiters.add(shared)
    clubs["tb"].arbiters.add(shared)
    registered = RegistrationFactory(tournament=clubs["ta"]).player
    Player.objects.filter(pk=registered.pk).update(created_by=None)
    fill(django_apps, None)
    owners = dict(AccountOwner.objects.values_list("account__username", "owner__username"))
    assert owners == {"beppe": "bruno", "vecchio": "bruno"}  # beppe from the audit log; condiviso: nobody
    registered.refresh_from_db()
    assert registered.created_by == clubs["a"]


def test_an_export_carries_no_one_elses_email(client, clubs):
    from transfer.export import tournament_export
    a, b = clubs["a"], clubs["b"]
    for user, email in ((a, "olga@example.org"), (b, "bruno@example.org"), (clubs["a_arbiter"], "anna@example.org")):
        user.email = email
        user.save()
    shared = RegistrationFactory(tournament=clubs["ta"], player__created_by=b, player__email="b-player@example.org").player
    RegistrationFactory(tournament=clubs["tb"], player=shared)
    mine = RegistrationFactory(tournament=clubs["ta"], player__created_by=a, player__email="a-player@example.org").player
    client.force_login(b)  # B renames their player both tournaments show: logged in A's tournament too, by B
    client.post(reverse("manage:player_edit", args=[shared.pk]),
                {"first_name": "Nuovo", "last_name": shared.last_name, "email": "b-new@example.org"})
    assert AuditLog.objects.filter(tournament=clubs["ta"], user=b).exists()
    document = tournament_export(tournament=clubs["ta"])
    users = {u["username"]: u["email"] for u in document["users"]}
    assert users == {"olga": "olga@example.org", "anna": "", "bruno": ""}
    emails = {p["pk"]: p["fields"]["email"] for p in document["players"]}
    assert (emails[shared.pk], emails[mine.pk]) == ("", "a-player@example.org")
    assert b"b-new@example.org" not in json.dumps(document).encode()
    assert b"b-player@example.org" not in json.dumps(document).encode()
