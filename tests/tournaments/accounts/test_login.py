"""Login throttling (tournaments.accounts.throttle): per-address lock, per-account slow-down, never a lockout
of an account's owner by someone guessing from elsewhere; the same rule on /admin/login/."""
import threading
from datetime import timedelta

import pytest
from django.contrib.auth.backends import ModelBackend
from django.db import connection
from django.test import Client, RequestFactory
from django.urls import reverse

from tests.factories import UserFactory
from tests.html import alerts, texts, tr
from tournaments.models import LoginThrottle
from tournaments.accounts.throttle import client_address, normalise_username

PASSWORD = "pw-for-tests-123"
ADMIN_LOGIN = "/admin/login/"


def _login(client, username, password, address="10.0.0.1", url=None, **extra):
    return client.post(url or reverse("login"), {"username": username, "password": password},
                       REMOTE_ADDR=address, **extra)


def _address_locked(minutes):
    return tr("Too many failed logins from this connection. Try again in %(minutes)d minute.",
              plural="Too many failed logins from this connection. Try again in %(minutes)d minutes.",
              count=minutes, minutes=minutes)


def _logged_in(client):
    return "_auth_user_id" in client.session


def _age(seconds):
    """Move every throttle row `seconds` into the past, as if that time had gone by."""
    for row in LoginThrottle.objects.all():
        LoginThrottle.objects.filter(pk=row.pk).update(started_at=row.started_at - timedelta(seconds=seconds))


def test_failures_for_made_up_names_lock_that_address_only(client, organiser):
    for i in range(10):
        assert _login(client, f"guess{i}", "x").status_code == 200
    refused = _login(client, "olga", PASSWORD)
    assert refused.status_code == 429
    assert alerts(refused) == [_address_locked(15)]
    assert not _logged_in(client)
    assert _login(client, "olga", PASSWORD, address="10.0.0.2").status_code == 302
    assert _logged_in(client)


def test_the_address_lock_ends_with_its_window(client, organiser):
    for i in range(10):
        _login(client, f"guess{i}", "x")
    assert _login(client, "olga", PASSWORD).status_code == 429
    _age(15 * 60)
    assert _login(client, "olga", PASSWORD).status_code == 302


def test_a_right_password_gives_its_try_back(client, organiser):
    for _ in range(9):
        _login(client, "nobody", "x")
    assert _login(client, "olga", PASSWORD).status_code == 302
    client.logout()
    assert _login(client, "nobody", "x").status_code == 200
    assert _login(client, "olga", PASSWORD).status_code == 429


def test_failures_on_an_account_from_many_addresses_never_refuse_its_right_password(client, organiser):
    for i in range(30):
        assert _login(client, "olga", "wrong", address=f"198.51.100.{i}").status_code == 200
    assert _login(client, "olga", PASSWORD, address="192.0.2.7").status_code == 302


def test_a_busy_account_slows_each_address_down_to_one_try_a_minute(client, organiser):
    for i in range(10):
        _login(client, "olga", "wrong", address=f"198.51.100.{i}")
    assert _login(client, "olga", "wrong", address="198.51.100.0").status_code == 200
    refused = _login(client, "olga", PASSWORD, address="198.51.100.0")
    assert refused.status_code == 429
    assert alerts(refused) == [tr("Too many failed logins on this account. Try again in %(seconds)d second.",
                                  plural="Too many failed logins on this account. Try again in %(seconds)d seconds.",
                                  count=60, seconds=60)]
    assert _login(client, "olga", PASSWORD, address="198.51.100.1").status_code == 302
    client.logout()
    _age(60)
    assert _login(client, "olga", PASSWORD, address="198.51.100.0").status_code == 302


@pytest.mark.parametrize("spelling", ["olga ", " OLGA", "ｏｌｇａ", "ol\u200bga", "Olga\t"])
def test_every_spelling_of_a_name_counts_for_the_account(client, organiser, spelling):
    assert normalise_username(spelling) == "olga"
    for i in range(10):
        _login(client, spelling, "wrong", address=f"198.51.100.{i}")
    _login(client, spelling, "wrong", address="203.0.113.1")
    assert _login(client, "olga", PASSWORD, address="203.0.113.1").status_code == 429
    assert LoginThrottle.objects.get(key="account:olga").count == 11


def test_the_admin_login_is_throttled_by_the_same_counts(client, db):
    UserFactory(username="root", is_staff=True, is_superuser=True)
    for i in range(5):
        assert _login(client, f"guess{i}", "x").status_code == 200
        assert _login(client, f"guess{i}", "x", url=ADMIN_LOGIN).status_code == 200
    refused = _login(client, "root", PASSWORD, url=ADMIN_LOGIN)
    assert refused.status_code == 429
    assert texts(refused, ".errornote") == [_address_locked(15)]   # Django's admin login page
    assert not _logged_in(client)
    assert _login(client, "root", PASSWORD, url=ADMIN_LOGIN, address="10.0.0.9").status_code == 302
    assert _logged_in(client)


def test_behind_a_trusted_proxy_each_client_counts_by_its_own_address(client, organiser, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    for i in range(10):
        _login(client, f"guess{i}", "x", address="127.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.5")
    assert _login(client, "olga", PASSWORD, address="127.0.0.1",
                  HTTP_X_FORWARDED_FOR="203.0.113.5").status_code == 429
    assert _login(client, "olga", PASSWORD, address="127.0.0.1",
                  HTTP_X_FORWARDED_FOR="203.0.113.6").status_code == 302


def test_without_a_trusted_proxy_a_forged_forwarded_header_changes_nothing(client, organiser):
    for i in range(10):
        _login(client, f"guess{i}", "x", HTTP_X_FORWARDED_FOR=f"203.0.113.{i}")
    assert _login(client, "olga", PASSWORD, HTTP_X_FORWARDED_FOR="203.0.113.99").status_code == 429


@pytest.mark.parametrize("proxies, remote, forwarded, expected", [
    (0, "10.0.0.1", "1.2.3.4", "10.0.0.1"),
    (1, "127.0.0.1", "1.2.3.4", "1.2.3.4"),
    (1, "127.0.0.1", "6.6.6.6, 1.2.3.4", "1.2.3.4"),
    (2, "127.0.0.1", "6.6.6.6, 1.2.3.4, 10.0.0.2", "1.2.3.4"),
    (1, "127.0.0.1", "not-an-address", "127.0.0.1"),
    (1, "127.0.0.1", "", "127.0.0.1"),
    (0, "2001:db8:1:2:3:4:5:6", "", "2001:db8:1:2::/64"),
    (0, "::ffff:192.0.2.1", "", "192.0.2.1"),
    (0, "", "", "unknown"),
])
def test_client_address(settings, proxies, remote, forwarded, expected):
    settings.TRUSTED_PROXY_COUNT = proxies
    request = RequestFactory().get("/", REMOTE_ADDR=remote, HTTP_X_FORWARDED_FOR=forwarded)
    assert client_address(request) == expected


def test_logged_in_login_page_pointing_at_itself_goes_home(client_for, organiser):
    response = client_for(organiser).get(reverse("login") + "?next=" + reverse("login"))
    assert response.status_code == 302
    assert response["Location"] == reverse("manage:home")


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_tries_never_check_more_passwords_than_the_limit(monkeypatch):
    if connection.vendor != "postgresql":
        pytest.skip("concurrency needs PostgreSQL")
    UserFactory(username="victim1")
    checks, lock = [], threading.Lock()
    original = ModelBackend.authenticate

    def counting(self, request, **kwargs):
        with lock:
            checks.append(kwargs.get("username"))
        return original(self, request, **kwargs)

    monkeypatch.setattr(ModelBackend, "authenticate", counting)
    barrier = threading.Barrier(30)
    statuses = []

    def attempt(i):
        try:
            barrier.wait()
            response = _login(Client(), "victim1", f"guess-{i}", address="198.51.100.77")
            with lock:
                statuses.append(response.status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=attempt, args=(i,)) for i in range(30)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(checks) == 10
    assert sorted(statuses) == [200] * 10 + [429] * 20
