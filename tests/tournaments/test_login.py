from django.urls import reverse

from tournaments.models import LoginFailure


def test_login_is_refused_after_ten_failures(client, organiser, settings):
    url = reverse("login")
    for _ in range(10):
        response = client.post(url, {"username": "olga", "password": "wrong"})
        assert response.status_code == 200
    response = client.post(url, {"username": "olga", "password": "pw-for-tests-123"})
    assert response.status_code == 429
    assert "Too many failed attempts" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_failures_from_one_address_throttle_every_account(client, organiser):
    for i in range(10):
        client.post(reverse("login"), {"username": f"guess{i}", "password": "x"})
    assert client.post(reverse("login"), {"username": "olga", "password": "pw-for-tests-123"}).status_code == 429


def test_successful_login_clears_the_account_failures(client, organiser):
    for _ in range(3):
        client.post(reverse("login"), {"username": "olga", "password": "wrong"})
    response = client.post(reverse("login"), {"username": "olga", "password": "pw-for-tests-123"})
    assert response.status_code == 302
    assert LoginFailure.objects.filter(username="olga").count() == 0
