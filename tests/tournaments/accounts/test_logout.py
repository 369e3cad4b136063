"""Logging out (tournaments.accounts.login.logout_view): the answer asks the browser to clear the site's
data, so a shared phone keeps no arbiter page even when the page's script (static/js/logout.js) did not
run; results the script says are still waiting on the phone keep their storage."""
import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def _logged_in(client):
    return "_auth_user_id" in client.session


def test_logout_clears_the_sites_cache_and_storage(client_for, arbiter):
    client = client_for(arbiter)
    response = client.post(reverse("logout"))
    assert (response.status_code, response["Location"]) == (302, reverse("public:home"))
    assert response["Clear-Site-Data"] == '"cache", "storage"'
    assert not _logged_in(client)


def test_logout_with_results_kept_on_the_phone_clears_the_cache_only(client_for, arbiter):
    client = client_for(arbiter)
    response = client.post(reverse("logout"), {"keep_queued": "1"})
    assert response.status_code == 302
    assert response["Clear-Site-Data"] == '"cache"'
    assert not _logged_in(client)


def test_logout_of_nobody_still_clears_the_sites_data(client, db):
    response = client.post(reverse("logout"))
    assert response["Clear-Site-Data"] == '"cache", "storage"'


def test_logout_is_a_post(client_for, arbiter):
    client = client_for(arbiter)
    response = client.get(reverse("logout"))
    assert response.status_code == 405
    assert "Clear-Site-Data" not in response
    assert _logged_in(client)
