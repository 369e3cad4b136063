"""Italian that reads right: plurals through ngettext, "Rifiuta" for a pending sign-up."""
import pytest
from django.template import Context, Template
from django.urls import reverse
from django.utils import translation

from tests.factories import ClubFactory, PlayerFactory, RegistrationFactory, seat_round
from tournaments.models import AuditLog, Registration

pytestmark = pytest.mark.django_db


def render_it(source, **context):
    with translation.override("it"):
        return " ".join(Template("{% load i18n %}" + source).render(Context(context)).split())


@pytest.mark.parametrize("played, n, expected", [
    (1, 3, "1 turno giocato su 3"), (2, 3, "2 turni giocati su 3"), (0, 1, "0 turni giocati su 1")])
def test_rounds_played(played, n, expected):
    source = ("{% blocktranslate count played=played with n=n %}{{ played }} round played of {{ n }}"
              "{% plural %}{{ played }} rounds played of {{ n }}{% endblocktranslate %}")
    assert render_it(source, played=played, n=n) == expected


@pytest.mark.parametrize("present, n, expected", [
    (23, 23, "23 presenti · 23 iscritti"), (1, 1, "1 presente · 1 iscritto"), (1, 19, "1 presente · 19 iscritti")])
def test_presence_count(present, n, expected):
    assert render_it('{% include "tournaments/_presence_count.html" %}',
                     counts={"present": present, "confirmed": n}) == expected


def test_dashboard_counts_in_italian(client, organiser, tournament):
    seat_round(tournament, [[RegistrationFactory(tournament=tournament) for _ in range(4)]])
    client.force_login(organiser)
    client.cookies["django_language"] = "it"
    body = " ".join(client.get(reverse("manage:round_dashboard", args=[tournament.pk, 1]),
                               HTTP_ACCEPT_LANGUAGE="it").content.decode().split())
    assert "<strong>0</strong> tavoli con risultato" in body
    assert "<strong>1</strong> tavolo mancante" in body


def test_pending_sign_up_is_rejected(client, organiser, tournament):
    reg = RegistrationFactory(tournament=tournament, status=Registration.Status.PENDING, self_registered=True)
    client.force_login(organiser)
    page = client.get(reverse("manage:registrations", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE="it")
    assert ">Rifiuta</button>" in page.content.decode()
    client.post(reverse("manage:registration_action", args=[tournament.pk, reg.pk, "reject"]))
    reg.refresh_from_db()
    assert reg.status == Registration.Status.WITHDRAWN
    assert AuditLog.objects.filter(action="registration.reject", object_id=str(reg.pk)).count() == 1
    client.post(reverse("manage:registration_action", args=[tournament.pk, reg.pk, "reject"]))
    assert AuditLog.objects.filter(action="registration.reject").count() == 1


def test_overview_counts_agree_in_italian(client, organiser, tournament):
    for present in (True, False):
        RegistrationFactory(tournament=tournament, present=present)
    client.force_login(organiser)
    body = client.get(reverse("manage:tournament", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "<strong>2</strong> iscritti" in body
    assert "<strong>1</strong> presente<" in body


def test_round_preview_figures_agree_in_italian(client, organiser, tournament):
    club = ClubFactory()
    regs = [RegistrationFactory(tournament=tournament, player=PlayerFactory(club=club)) for _ in range(2)]
    regs += [RegistrationFactory(tournament=tournament) for _ in range(2)]
    seat_round(tournament, [regs], status="draft")
    client.force_login(organiser)
    body = " ".join(client.get(reverse("manage:round", args=[tournament.pk, 1]),
                               HTTP_ACCEPT_LANGUAGE="it").content.decode().split())
    assert "<strong>1</strong> coppia dello stesso club" in body
    assert "<strong>0</strong> incontri ripetuti" in body
