"""A NUL byte where nobody types one (an uploaded CSV, a session cookie) gives a clear answer, never a
500: PostgreSQL refuses NUL in text, so these run on both databases (DATABASE_URL for PostgreSQL)."""
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tournaments.models import Player, Registration
from tests.html import alerts, tr

pytestmark = pytest.mark.django_db

NUL_CSV = "name,surname,club\nMarco,Ros\x00si,Lario\n".encode()
NUL_MESSAGE = "The file holds a NUL character: it is not a CSV text file. Save it again as CSV UTF-8."


def test_players_csv_with_a_nul_byte_is_refused_with_a_message(client_for, organiser):
    upload = SimpleUploadedFile("giocatori.csv", NUL_CSV, content_type="text/csv")
    response = client_for(organiser).post(reverse("manage:player_import"), {"file": upload})
    assert response.status_code == 200
    assert response.context["form"].errors == {"file": [NUL_MESSAGE]}
    assert Player.objects.count() == 0


def test_registrations_csv_with_a_nul_byte_is_refused_with_a_message(client_for, organiser, tournament):
    upload = SimpleUploadedFile("iscritti.csv", NUL_CSV, content_type="text/csv")
    response = client_for(organiser).post(reverse("manage:registration_import", args=[tournament.pk]),
                                          {"file": upload})
    assert response.status_code == 400
    assert alerts(response) == [tr(NUL_MESSAGE)]
    assert (Player.objects.count(), Registration.objects.count()) == (0, 0)


def test_utf16_csv_is_refused_as_not_utf8_text(client_for, organiser):
    upload = SimpleUploadedFile("giocatori.csv", "name,surname\nMarco,Rossi\n".encode("utf-16"))
    response = client_for(organiser).post(reverse("manage:player_import"), {"file": upload})
    assert response.context["form"].errors == {"file": [NUL_MESSAGE]}


@pytest.mark.parametrize("cookie", ["abc\x00def", "a" * 31 + "\x00", "../../etc/passwd", "ZZZZZZZZZZZZZZZZ"])
def test_session_cookie_with_a_nul_byte_or_forged_text_is_no_session(client, tournament, cookie):
    client.cookies["sessionid"] = cookie
    for url in (reverse("public:tournament", args=[tournament.pk]), reverse("manage:home")):
        response = client.get(url)
        assert response.status_code in (200, 302), url
    assert client.get(reverse("manage:home"))["Location"].startswith(reverse("login"))


def test_a_real_session_still_logs_in(client_for, organiser):
    client = client_for(organiser)
    assert client.get(reverse("manage:home")).status_code == 200
