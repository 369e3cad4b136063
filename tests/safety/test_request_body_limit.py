"""A request body larger than the site takes (REQUEST_BODY_MAX_MB, 11 MB: a 10 MB workbook and its
form) is answered 413 before a byte of it is read: no CSRF check, session or upload handler reads it,
no file is spooled to disk. The proxy in front has the same limit (Caddyfile, `request_body`)."""
import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db


class Untouchable:
    """A request body that must not be read."""

    def read(self, *args):
        raise AssertionError("the body was read")

    readline = read


@pytest.mark.parametrize("name, args", [("public:signup", [1]), ("login", []), ("manage:players", [])])
def test_a_body_larger_than_the_limit_is_refused_unread(name, args, settings):
    url = reverse(name, args=args)
    response = Client(enforce_csrf_checks=True).generic(
        "POST", url, b"", content_type="multipart/form-data; boundary=xyz",
        CONTENT_LENGTH=str(300 * 1024 * 1024), **{"wsgi.input": Untouchable()})
    assert response.status_code == 413
    assert response["Content-Type"].startswith("text/plain")


def test_the_limit_is_the_setting_and_a_body_within_it_goes_on(settings):
    settings.REQUEST_BODY_MAX_MB = 1
    url = reverse("login")
    over = Client().generic("POST", url, b"x" * (1024 * 1024 + 1), content_type="application/octet-stream")
    within = Client().generic("POST", url, b"x" * (1024 * 1024), content_type="application/octet-stream")
    assert (over.status_code, within.status_code) == (413, 200)
