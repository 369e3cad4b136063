"""Only a public page's canonical address is rendered and stored: a query string the page does not read
and an id written another way (`/t/0007/`) are redirected to the page's own address and never add a
copy of the page to the shared cache, however many a visitor makes up."""
import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from tests.tables.standings.test_public_pages_cache import _played


@pytest.fixture
def played(tournament, organiser):
    return _played(tournament, organiser, 8, rounds=1)


def _stored_pages():
    """The pages in the shared cache (the tests' cache is in this process's memory)."""
    return sorted(key for key in cache._cache if ":snap:" in key)


def _zero_padded(url, pk):
    return url.replace(f"/{pk}/", f"/{pk:04d}/", 1)


@pytest.mark.parametrize("junk", ["?x=1", "?utm_source=evil", "?live=2", "?live=1&live=1", "?q=", "?page=3&x=%ff"])
def test_a_query_the_page_does_not_read_is_redirected_and_stores_nothing(tournament, played, junk):
    url = reverse("public:standings", args=[tournament.pk])
    assert Client().get(url).status_code == 200
    stored = _stored_pages()
    for n in range(20):
        response = Client().get(url + junk + f"&n={n}" if "?" in junk else url + junk)
        assert (response.status_code, response["Location"]) == (301, url)
    assert _stored_pages() == stored


def test_the_json_keeps_the_parameter_it_reads_and_drops_the_rest(tournament, played):
    url = reverse("public:standings_json", args=[tournament.pk])
    response = Client().get(url + "?live=1&_=1700000000")
    assert (response.status_code, response["Location"], response["Access-Control-Allow-Origin"]) == \
        (301, url + "?live=1", "*")
    assert Client().get(url + "?live=1").status_code == 200
    assert len(_stored_pages()) == 1


@pytest.mark.parametrize("page", ["standings", "player", "standings_json"])
def test_an_id_written_another_way_is_redirected_and_stores_nothing(tournament, played, page):
    args = [tournament.pk, played[0].pk] if page == "player" else [tournament.pk]
    url = reverse(f"public:{page}", args=args)
    assert Client().get(url).status_code == 200
    stored = _stored_pages()
    padded = _zero_padded(url, tournament.pk)
    assert padded != url
    for _ in range(3):  # the anonymous visitor's shortcut (the page cache's middleware) included
        response = Client().get(padded)
        assert (response.status_code, response["Location"]) == (301, url)
    assert _stored_pages() == stored
