"""A form's `next` (tournaments.accounts.redirects): a path on this site is followed; anything else,
a bare word such as `next=x` included, falls back to the page's own redirect, never to an error."""
import pytest
from django.test import RequestFactory
from django.urls import reverse

from tests.factories import RegistrationFactory, UserFactory
from tournaments.accounts.redirects import safe_next
from tournaments.models import Registration

pytestmark = pytest.mark.django_db

PASSWORD = "pw-for-tests-123"
UNSAFE = ["x", "gestione/", "", "https://evil.example/", "//evil.example/", "/\\evil.example/",
          "javascript:alert(1)", "http://testserver/gestione/"]


@pytest.mark.parametrize("value, expected", [
    ("/gestione/t/1/presenze/", "/gestione/t/1/presenze/"),
    ("/?q=1#top", "/?q=1#top"),
    *[(value, None) for value in UNSAFE],
])
def test_only_a_local_path_is_a_safe_next(value, expected):
    assert safe_next(RequestFactory().post("/", {"next": value})) == expected
    assert safe_next(RequestFactory().get("/", {"next": value})) == expected


def test_the_forms_next_is_read_before_the_addresss():
    request = RequestFactory().post("/?next=/from-the-address/", {"next": "x"})
    assert safe_next(request) is None
    assert safe_next(RequestFactory().post("/?next=/from-the-address/")) == "/from-the-address/"


@pytest.mark.parametrize("value", UNSAFE)
def test_everybody_present_with_a_bad_next_applies_and_goes_back_to_the_checkin(client, organiser, tournament,
                                                                                 value):
    regs = [RegistrationFactory(tournament=tournament) for _ in range(2)]
    client.force_login(organiser)
    response = client.post(reverse("manage:checkin_all", args=[tournament.pk]), {"next": value})
    assert response.status_code == 302
    assert response["Location"] == reverse("manage:checkin", args=[tournament.pk])
    assert list(Registration.objects.filter(pk__in=[r.pk for r in regs]).values_list("present", flat=True)) == [
        True, True]


def test_everybody_present_follows_a_local_next(client, organiser, tournament):
    client.force_login(organiser)
    back = reverse("manage:registrations", args=[tournament.pk]) + "?q=rossi"
    response = client.post(reverse("manage:checkin_all", args=[tournament.pk]), {"next": back})
    assert (response.status_code, response["Location"]) == (302, back)


@pytest.mark.parametrize("value", ["x", "https://evil.example/"])
def test_a_registration_action_with_a_bad_next_goes_back_to_the_registrations(client, organiser, tournament,
                                                                              value):
    reg = RegistrationFactory(tournament=tournament)
    client.force_login(organiser)
    response = client.post(reverse("manage:registration_action", args=[tournament.pk, reg.pk, "paid"]),
                           {"value": "1", "next": value})
    assert (response.status_code, response["Location"]) == (302, reverse("manage:registrations",
                                                                         args=[tournament.pk]))
    reg.refresh_from_db()
    assert reg.fee_paid is True


@pytest.mark.parametrize("value", ["x", "https://evil.example/"])
def test_login_with_a_bad_next_goes_to_my_tournaments(client, organiser, value):
    response = client.post(reverse("login") + "?next=" + value, {"username": "olga", "password": PASSWORD})
    assert (response.status_code, response["Location"]) == (302, reverse("manage:home"))
    response = client.get(reverse("login"), {"next": value})   # logged in: straight on, same fallback
    assert (response.status_code, response["Location"]) == (302, reverse("manage:home"))


def test_login_follows_a_local_next(client, organiser, tournament):
    page = reverse("manage:tournament", args=[tournament.pk])
    response = client.post(reverse("login"), {"username": "olga", "password": PASSWORD, "next": page})
    assert (response.status_code, response["Location"]) == (302, page)


def test_the_login_form_carries_no_bad_next(client, db):
    response = client.get(reverse("login"), {"next": "x"})
    assert response.context["next"] == ""


def test_admin_login_with_a_bad_next_goes_where_it_goes_without_one(client, db):
    UserFactory(username="root", is_staff=True, is_superuser=True)
    response = client.post("/admin/login/?next=x", {"username": "root", "password": PASSWORD})
    assert (response.status_code, response["Location"]) == (302, reverse("manage:home"))
    client.logout()
    response = client.post("/admin/login/", {"username": "root", "password": PASSWORD, "next": "/admin/"})
    assert (response.status_code, response["Location"]) == (302, reverse("admin:index"))


@pytest.mark.parametrize("value", ["x", "https://evil.example/"])
def test_language_switch_with_a_bad_next_goes_home(client, db, value):
    response = client.post(reverse("set_language"), {"language": "en", "next": value})
    assert (response.status_code, response["Location"]) == (302, "/")
    assert client.cookies["django_language"].value == "en"


def test_language_switch_follows_a_local_next(client, tournament):
    page = reverse("public:tournament", args=[tournament.pk])
    response = client.post(reverse("set_language"), {"language": "en", "next": page})
    assert (response.status_code, response["Location"]) == (302, page)
