"""Another organiser's player keeps their private details and their owner: B's exports (the JSON, both
workbook layouts) and B's audit log never carry the national ID of a player A owns; a merge an
administrator approves keeps the record made first with its owner, moves no e-mail between owners, and
the administrators' list shows both owners and the record kept; the public sign-up and the new-player
form say nothing about records the asker may not see."""
import io
import json
import zipfile

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import ClubFactory, OrganiserFactory, PlayerFactory, RegistrationFactory, TournamentFactory, \
    UserFactory
from tests.html import attr, select
from tournaments.models import AuditLog, Player, Registration
from tournaments.registration import services as roster
from transfer.export import tournament_export
from transfer.workbooks.export import club_workbook, gestione_workbook

pytestmark = pytest.mark.django_db
SECRET_ID = "IT-SEGRETO-77"


@pytest.fixture
def two():
    a, b = OrganiserFactory(username="olga"), OrganiserFactory(username="bruno")
    ta = TournamentFactory(organiser=a, name="Torneo A", published=True)
    tb = TournamentFactory(organiser=b, name="Torneo B", published=True)
    return a, b, ta, tb


def _workbook_text(content):
    with zipfile.ZipFile(io.BytesIO(content)) as archive:
        return b"".join(archive.read(name) for name in archive.namelist())


def test_a_national_id_of_another_organisers_player_never_leaves_in_bs_exports_or_log(two):
    a, b, ta, tb = two
    shared = PlayerFactory(created_by=a, national_id="IT-OLD-1", email="p@example.org")
    RegistrationFactory(tournament=ta, player=shared)
    RegistrationFactory(tournament=tb, player=shared)
    own = PlayerFactory(created_by=b, national_id="IT-B-1")
    RegistrationFactory(tournament=tb, player=own)
    client = Client()
    client.force_login(a)   # A changes their player's national ID: every tournament showing them logs it
    response = client.post(reverse("manage:player_edit", args=[shared.pk]), {
        "first_name": shared.first_name, "last_name": shared.last_name, "national_id": SECRET_ID})
    assert response.status_code == 302
    assert AuditLog.objects.filter(tournament=tb, player=shared).exists()
    assert SECRET_ID in json.dumps([e.after for e in AuditLog.objects.filter(tournament=ta)])  # A's own log
    document = json.dumps(tournament_export(tournament=tb))
    assert SECRET_ID not in document and "IT-OLD-1" not in document and "IT-B-1" in document
    assert SECRET_ID.encode() not in _workbook_text(gestione_workbook(tb))
    assert b"IT-B-1" in _workbook_text(gestione_workbook(tb))
    assert SECRET_ID.encode() not in _workbook_text(club_workbook(tb))
    logged = json.dumps([[e.before, e.after] for e in AuditLog.objects.filter(tournament=tb)])
    assert SECRET_ID not in logged and "IT-OLD-1" not in logged


def test_an_approved_merge_keeps_the_record_made_first_with_its_owner_and_no_email_moves(two):
    a, b, ta, tb = two
    club = ClubFactory(name="Club Lariano")
    original = PlayerFactory(first_name="Marco", last_name="Rossi", club=club, created_by=a, email="")
    RegistrationFactory(tournament=ta, player=original)
    copy = PlayerFactory(first_name="Marco", last_name="Rossi", club=club, created_by=b, email="marco@b.example")
    RegistrationFactory(tournament=tb, player=copy)
    # B asks for A's record to be merged into B's own
    roster.player_merge_request(user=b, keep=copy, drop=original)
    admin = UserFactory(username="amministra", is_superuser=True, is_staff=True)
    client = Client()
    client.force_login(admin)
    listed = client.get(reverse("manage:players"))
    request_row = f'[data-merge-request="{original.pk}-{copy.pk}"]'
    assert select(listed, request_row)
    assert [int(x) for x in attr(listed, f"{request_row} [data-owner]", "data-owner")] == [original.pk, copy.pk]
    owners = [span.get_text() for span in select(listed, f"{request_row} [data-owner]")]
    assert "olga" in owners[0] and "bruno" in owners[1]
    assert attr(listed, f"{request_row} [data-kept]", "data-kept") == [str(original.pk)]
    response = client.post(reverse("manage:player_merge", args=[original.pk]), {"into": copy.pk})
    assert response.status_code == 302
    original.refresh_from_db()
    copy = Player.all_players.get(pk=copy.pk)
    assert (original.removed, original.created_by, original.email) == (False, a, "")
    assert (copy.removed, copy.merged_into_id) == (True, original.pk)
    assert set(Registration.objects.values_list("player_id", flat=True)) == {original.pk}


def test_the_sign_up_says_nothing_of_a_player_in_another_organisers_draft(two, client):
    a, b, ta, tb = two
    tb.signup_open = True
    tb.save()
    draft = TournamentFactory(organiser=a, published=False)
    club = ClubFactory(name="Club Lariano")
    hidden = PlayerFactory(first_name="Lia", last_name="Neri", club=club, created_by=a)
    RegistrationFactory(tournament=draft, player=hidden)
    answers = []
    for first in ("Lia", "Ada"):   # a name only A's draft holds, and a name nobody bears
        response = client.post(reverse("public:signup", args=[tb.pk]), {
            "first_name": first, "last_name": "Neri", "club": club.pk, "email": "x@example.org", "privacy": "on"})
        answers.append((response.status_code, [str(e) for e in response.context["form"].errors.values()]
                        if response.context and "form" in response.context else []))
    assert answers[0] == answers[1]
    assert answers[0][0] == 200 and answers[0][1] == []
    assert Registration.objects.filter(tournament=tb).count() == 2
    assert not Registration.objects.filter(tournament=tb, player=hidden).exists()


def test_the_new_player_form_says_nothing_of_a_record_the_organiser_may_not_see(two):
    a, b, ta, tb = two
    club = ClubFactory(name="Club Lariano")
    draft = TournamentFactory(organiser=a, published=False)
    hidden = PlayerFactory(first_name="Lia", last_name="Neri", club=club, created_by=a, national_id=SECRET_ID)
    RegistrationFactory(tournament=draft, player=hidden)
    client = Client()
    client.force_login(b)
    answers = []
    for first, national_id in (("Lia", SECRET_ID), ("Ada", "IT-NUOVO-1")):
        response = client.post(reverse("manage:player_create"), {
            "first_name": first, "last_name": "Neri", "club": club.pk, "national_id": national_id})
        answers.append((response.status_code, response.get("Location")))
    assert answers[0] == answers[1] == (302, reverse("manage:players"))
    made = Player.objects.get(first_name="Lia", created_by=b)
    assert made.pk != hidden.pk and made.national_id == ""
    assert Player.objects.get(first_name="Ada", created_by=b).national_id == "IT-NUOVO-1"
