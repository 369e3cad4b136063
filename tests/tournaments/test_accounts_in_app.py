"""No Django admin for normal work: arbiter accounts, the organiser role, draft rounds."""
import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tables.models import Round
from tests.factories import RegistrationFactory, UserFactory, seat_round
from tests.html import field_errors, messages, one, select, text, tr
from tournaments.models import AccountOwner, AuditLog
from tournaments.rules import is_organiser

pytestmark = pytest.mark.django_db


def test_organiser_creates_an_arbiter_account_with_a_one_time_link(client, organiser, tournament):
    client.force_login(organiser)
    url = reverse("manage:arbiters", args=[tournament.pk])
    response = client.post(url, {"new_account": "1", "username": "beppe", "first_name": "Beppe"})
    assert response.status_code == 200
    account = get_user_model().objects.get(username="beppe")
    assert tournament.arbiters.filter(pk=account.pk).exists()
    assert account.has_usable_password() is False
    link = one(response, "#account-link input.link-box")["value"]
    assert link.startswith("http://testserver/accounts/password/")
    entry = AuditLog.objects.get(action="tournament.arbiter_account")
    assert entry.after == {"username": "beppe", "arbiter": True}

    client.logout()
    page = client.get(link, follow=True)          # Django moves the token into the session first
    assert page.context["validlink"] is True
    set_url = page.redirect_chain[-1][0]
    client.post(set_url, {"new_password1": "Arbitro-2026-lario", "new_password2": "Arbitro-2026-lario"})
    assert client.login(username="beppe", password="Arbitro-2026-lario")
    client.logout()
    again = client.get(link, follow=True)
    assert again.context["validlink"] is False    # one time only


def test_arbiter_account_name_taken_is_refused(client, organiser, tournament, arbiter):
    client.force_login(organiser)
    response = client.post(reverse("manage:arbiters", args=[tournament.pk]),
                           {"new_account": "1", "username": "ARTURO"})
    assert response.status_code == 400
    assert field_errors(response, "username") == [tr("The user name %(u)s is taken: choose another one.", u="ARTURO")]
    assert get_user_model().objects.filter(username__iexact="arturo").count() == 1


def test_administrator_grants_and_takes_back_the_organiser_role(client):
    admin = UserFactory(username="admin", is_superuser=True, is_staff=True)
    someone = UserFactory(username="sofia")
    client.force_login(admin)
    row = one(client.get(reverse("manage:organisers")), f"tr#user-{someone.pk}")
    assert text(row.td) == "sofia"
    assert one(row, "form")["action"] == reverse("manage:organiser_role", args=[someone.pk])
    assert one(row, "button[aria-pressed]")["aria-pressed"] == "false"
    client.post(reverse("manage:organiser_role", args=[someone.pk]), {"granted": "1"})
    someone = get_user_model().objects.get(pk=someone.pk)
    assert is_organiser(someone)
    client.post(reverse("manage:organiser_role", args=[someone.pk]), {"granted": "0"})
    someone = get_user_model().objects.get(pk=someone.pk)
    assert not is_organiser(someone)
    entries = AuditLog.objects.filter(action="user.organiser_role").order_by("pk")
    assert [(e.before["organiser"], e.after["organiser"]) for e in entries] == [(False, True), (True, False)]


def test_organiser_cannot_grant_the_role(client, organiser, arbiter):
    client.force_login(organiser)
    response = client.post(reverse("manage:organiser_role", args=[arbiter.pk]), {"granted": "1"})
    assert response.status_code == 403
    assert not is_organiser(arbiter)


def test_draft_round_deleted(client, organiser, tournament):
    regs = [RegistrationFactory(tournament=tournament) for _ in range(4)]
    seat_round(tournament, [regs], status="draft")
    client.force_login(organiser)
    response = client.post(reverse("manage:round_action", args=[tournament.pk, 1, "delete"]))
    assert response["Location"] == reverse("manage:rounds", args=[tournament.pk])
    assert not Round.objects.filter(tournament=tournament).exists()
    assert AuditLog.objects.get(action="round.delete").before["tables"][0] == [r.player.full_name for r in regs]


def test_published_round_is_not_deleted(client, organiser, tournament):
    seat_round(tournament, [[RegistrationFactory(tournament=tournament) for _ in range(4)]])
    client.force_login(organiser)
    response = client.post(reverse("manage:round_action", args=[tournament.pk, 1, "delete"]), follow=True)
    assert messages(response) == [tr("Only a draft round can be deleted: this one is published.")]
    assert Round.objects.filter(tournament=tournament).count() == 1


def test_draft_redrawn_with_another_method(client, organiser, tournament):
    regs = [RegistrationFactory(tournament=tournament, present=True) for _ in range(8)]
    seat_round(tournament, [regs[:4], regs[4:]], status="draft")
    client.force_login(organiser)
    client.post(reverse("manage:round_action", args=[tournament.pk, 1, "redraw"]), {"method": "snake"})
    rnd = Round.objects.get(tournament=tournament)
    assert rnd.method == "snake"
    assert AuditLog.objects.filter(action="round.redraw").count() == 1
    client.post(reverse("manage:round_action", args=[tournament.pk, 1, "redraw"]), {"method": "bogus"})
    rnd.refresh_from_db()
    assert rnd.method == "snake"


def test_new_link_only_for_an_account_that_never_chose_a_password(client, organiser, tournament, arbiter):
    client.force_login(organiser)
    client.post(reverse("manage:arbiters", args=[tournament.pk]), {"new_account": "1", "username": "beppe"})
    beppe = get_user_model().objects.get(username="beppe")
    page = client.get(reverse("manage:arbiters", args=[tournament.pk]))
    assert select(page, f"form[action='{reverse('manage:arbiter_link', args=[tournament.pk, beppe.pk])}']")
    assert not select(page, f"[action='{reverse('manage:arbiter_link', args=[tournament.pk, arbiter.pk])}']")
    response = client.post(reverse("manage:arbiter_link", args=[tournament.pk, beppe.pk]))
    assert one(response, "#account-link input.link-box")["value"].startswith("http://testserver/accounts/password/")
    assert AuditLog.objects.filter(action="tournament.arbiter_link").count() == 1
    # arturo chose a password: a link would hand his account over, even from his owner
    AccountOwner.objects.create(account=arbiter, owner=organiser)
    response = client.post(reverse("manage:arbiter_link", args=[tournament.pk, arbiter.pk]), follow=True)
    assert messages(response) == [tr("%(u)s has already chosen a password.", u="arturo")]
    assert AuditLog.objects.filter(action="tournament.arbiter_link").count() == 1
