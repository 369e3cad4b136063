"""Every public page is answered from the shared cache until something it shows changes."""
import gzip
import json

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from tables.rounds import services
from tables.models import Table
from tests.factories import RegistrationFactory, report, seat_round
from tests.html import attr, one, select, text, tr

PAGES = ["standings", "standings_poll", "standings_print", "player", "standings_json", "tables_json"]


def _url(page, tournament, reg):
    if page in ("standings", "standings_poll"):
        return reverse("public:standings", args=[tournament.pk])
    if page == "player":
        return reverse("public:player", args=[tournament.pk, reg.pk])
    if page == "tables_json":
        return reverse("public:tables_json", args=[tournament.pk, 1])
    return reverse(f"public:{page}", args=[tournament.pk])


def _get(client, page, tournament, reg, **headers):
    if page == "standings_poll":
        headers["HX-Request"] = "true"
    return client.get(_url(page, tournament, reg), headers=headers)


def _played(tournament, organiser, players, rounds=2):
    """`players` registered, `rounds` rounds played, closed and published."""
    regs = [RegistrationFactory(tournament=tournament, player__last_name=f"Gioc{i:03d}") for i in range(players)]
    for r in range(rounds):
        shift = regs[r:] + regs[:r]
        rnd = seat_round(tournament, [shift[i:i + 4] for i in range(0, players, 4)])
        for table in rnd.tables.all():
            report(table, [(40,), (30,), (20,), (0, 1)])
        services.round_close(user=organiser, rnd=rnd)
        services.standings_publish(user=organiser, rnd=rnd)
    return regs


@pytest.fixture
def played(tournament, organiser):
    return _played(tournament, organiser, 8, rounds=1)


@pytest.mark.parametrize("page", PAGES)
def test_public_page_is_rendered_once_while_nothing_changes(page, tournament, played, django_assert_num_queries):
    first = _get(Client(), page, tournament, played[0])
    assert first.status_code == 200
    with django_assert_num_queries(0):  # another visitor: the version and the page come from the cache
        second = _get(Client(), page, tournament, played[0])
    assert (second.status_code, second["ETag"], second.content) == (200, first["ETag"], first.content)


@pytest.mark.parametrize("page", PAGES)
def test_public_page_poll_with_its_etag_is_not_modified(page, tournament, played):
    first = _get(Client(), page, tournament, played[0])
    again = _get(Client(), page, tournament, played[0], **{"If-None-Match": first["ETag"]})
    assert (again.status_code, again.content) == (304, b"")


@pytest.mark.parametrize("page", PAGES)
def test_public_page_shows_a_saved_result_at_once(page, tournament, played, organiser,
                                                   django_capture_on_commit_callbacks):
    before = _get(Client(), page, tournament, played[0])
    table = Table.objects.get(round__tournament=tournament, round__number=1, number=1)
    with django_capture_on_commit_callbacks(execute=True):  # the organiser corrects a published round
        report(table, [(77,), (12,), (11,), (0, 1)], user=organiser)
    after = _get(Client(), page, tournament, played[0], **{"If-None-Match": before["ETag"]})
    assert after.status_code == 200
    assert after["ETag"] != before["ETag"]
    assert after.content != before.content
    if page == "tables_json":
        assert after.json()["tables"][0]["players"][0]["table_points"] == 77


@pytest.mark.parametrize("page", PAGES)
def test_logged_in_organiser_never_gets_the_anonymous_page(page, tournament, played, organiser):
    anonymous = _get(Client(), page, tournament, played[0])
    client = Client()
    client.force_login(organiser)
    theirs = _get(client, page, tournament, played[0])
    assert theirs.status_code == 200
    assert theirs["ETag"] != anonymous["ETag"]
    if page in ("standings", "player"):  # the pages with the site header
        assert select(theirs, "form[data-logout]") and not select(theirs, f"a[href='{reverse('login')}']")
        assert select(anonymous, "form[data-logout]") == [] and select(anonymous, f"a[href='{reverse('login')}']")


def test_an_anonymous_page_carries_nothing_of_its_visitor(tournament, played):
    url = reverse("public:standings", args=[tournament.pk])
    pages = []
    for _ in range(2):  # the first renders the page, the second gets it from the cache
        visitor = Client(enforce_csrf_checks=True)
        response = visitor.get(url)
        assert "csrftoken" not in response.cookies
        pages.append(response.content)
        assert b"csrfmiddlewaretoken" not in response.content and b"X-CSRFToken" not in response.content
        switched = visitor.post(reverse("set_language"), {"language": "en", "next": url})  # needs no token
        assert (switched.status_code, switched["Location"]) == (302, url)
        english = visitor.get(url)
        assert (one(english, "html")["lang"], text(one(english, "h1"))) == ("en", tr("Standings", "en"))
    assert pages[0] == pages[1]


@pytest.mark.parametrize("page", PAGES)
def test_no_page_kept_for_everybody_holds_a_csrf_token(page, tournament, played):
    for _ in range(2):  # rendered, then from the cache
        response = _get(Client(enforce_csrf_checks=True), page, tournament, played[0])
        assert response.status_code == 200 and "csrftoken" not in response.cookies
        assert b"csrfmiddlewaretoken" not in response.content and b"X-CSRFToken" not in response.content


def test_a_logged_in_visitor_gets_their_own_working_token(tournament, played, organiser):
    url = reverse("public:standings", args=[tournament.pk])
    tokens = []
    for _ in range(2):  # two sessions of the organiser: each page is rendered for its own
        visitor = Client(enforce_csrf_checks=True)
        visitor.force_login(organiser)
        page = visitor.get(url)
        token = one(page, "form[data-logout] input[name=csrfmiddlewaretoken]")["value"]
        assert json.loads(one(page, "body")["hx-headers"]) == {"X-CSRFToken": token}
        assert set(attr(page, "input[name=csrfmiddlewaretoken]", "value")) == {token}
        tokens.append(token)
        logged_out = visitor.post(reverse("logout"), {"csrfmiddlewaretoken": token})
        assert logged_out.status_code == 302
        assert "_auth_user_id" not in visitor.session
    assert tokens[0] != tokens[1]


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize("visitor_cookies", [{}, {"sessionid": "none-such"}], ids=["no-cookie", "session-cookie"])
def test_a_browser_accepting_gzip_gets_the_stored_compressed_page(page, visitor_cookies, tournament, played):
    plain = _get(Client(), page, tournament, played[0])
    for _ in range(2):  # from the shared cache
        visitor = Client()
        visitor.cookies.load(visitor_cookies)
        packed = _get(visitor, page, tournament, played[0], **{"Accept-Encoding": "br, gzip, deflate"})
        assert (packed.status_code, packed["Content-Encoding"]) == (200, "gzip")
        assert gzip.decompress(packed.content) == plain.content
        assert int(packed["Content-Length"]) == len(packed.content) < len(plain.content)
        assert packed["ETag"] == "W/" + plain["ETag"]
        assert "Accept-Encoding" in packed["Vary"]
    again = _get(Client(), page, tournament, played[0], **{"Accept-Encoding": "gzip", "If-None-Match": packed["ETag"]})
    assert again.status_code == 304
    assert "Content-Encoding" not in plain


def test_a_logged_in_page_is_never_compressed(tournament, played, organiser):
    visitor = Client()
    visitor.force_login(organiser)
    for _ in range(2):
        response = _get(visitor, "standings", tournament, played[0], **{"Accept-Encoding": "gzip"})
        assert response.status_code == 200
        assert "Content-Encoding" not in response
        assert select(response, "form[data-logout] input[name=csrfmiddlewaretoken]")


def test_pages_in_two_languages_are_kept_apart(tournament, played):
    url = reverse("public:standings", args=[tournament.pk])
    italian = Client(headers={"Accept-Language": "it"}).get(url)
    english = Client(headers={"Accept-Language": "en"}).get(url)
    assert (one(italian, "html")["lang"], text(one(italian, "h1"))) == ("it", tr("Standings", "it"))
    assert tr("Standings", "it") != tr("Standings", "en")
    assert italian["ETag"] != english["ETag"]
    assert italian.content != english.content
    # The standings table is rendered once per version and language (tables/standings/pages.py): the
    # English page's table is the English one, not the Italian table rendered just before it.
    words = {"final": "Standings final", "provisional": "Provisional standings",
             "window": "Definitive at %(when)s unless a dispute is raised"}   # the one status's words
    for page, language in ((italian, "it"), (english, "en")):
        badge = one(page, "[data-state]")
        wanted = tr(words[badge["data-state"]], language)
        assert text(badge).startswith(wanted.split("%(when)s")[0])
    for msgid in words.values():
        assert tr(msgid, "it").split("%")[0] != tr(msgid, "en").split("%")[0]


def test_unknown_tournament_is_404_and_nothing_is_stored(db):
    assert Client().get(reverse("public:standings", args=[999999])).status_code == 404
    assert Client().get(reverse("public:standings", args=[999999])).status_code == 404


def _queries(page, tournament, reg, capture):
    cache.clear()
    with capture() as context:
        response = _get(Client(), page, tournament, reg)
    assert response.status_code == 200
    return len(context.captured_queries)


def test_public_pages_run_as_many_queries_at_200_players_as_at_20(organiser, django_capture_on_commit_callbacks):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.factories import TournamentFactory
    small, large = TournamentFactory(organiser=organiser), TournamentFactory(organiser=organiser)
    small_regs, large_regs = _played(small, organiser, 20), _played(large, organiser, 200)

    def capture():
        return CaptureQueriesContext(connection)
    counts = {page: (_queries(page, small, small_regs[0], capture), _queries(page, large, large_regs[0], capture))
              for page in PAGES}
    assert {page: small_n for page, (small_n, _) in counts.items()} == \
        {page: large_n for page, (_, large_n) in counts.items()}


def test_an_anonymous_visitor_gets_the_kept_page_with_the_same_headers(tournament, played, django_assert_num_queries):
    url = reverse("public:standings", args=[tournament.pk])
    first = Client().get(url)
    with django_assert_num_queries(0):  # neither the view nor the session machinery asks the database
        second = Client().get(url)
    assert second["ETag"] == first["ETag"]
    assert second["Content-Security-Policy"] == first["Content-Security-Policy"]
    assert (second["X-Frame-Options"], second["Content-Language"]) == ("DENY", "en")
    assert second.content == first.content and not second.cookies  # nothing of the visitor: no token


def test_a_visitor_with_a_session_or_a_query_goes_through_the_view(tournament, played, organiser):
    url = reverse("public:standings", args=[tournament.pk])
    Client().get(url)
    assert hasattr(Client().get(url + "?x=1").wsgi_request, "user")
    client = Client()
    client.force_login(organiser)
    assert client.get(url).wsgi_request.user == organiser


@pytest.mark.parametrize("page", PAGES)
def test_a_host_outside_allowed_hosts_gets_400_even_when_the_page_is_cached(page, tournament, played):
    assert _get(Client(), page, tournament, played[0]).status_code == 200  # now in the cache
    response = Client(HTTP_HOST="evil.example").get(_url(page, tournament, played[0]),
                                                     headers={"HX-Request": "true"} if page == "standings_poll" else {})
    assert response.status_code == 400
    assert b"Gioc" not in response.content


@pytest.mark.parametrize("status", [404, 302, 301, 403, 410])
def test_only_a_plain_200_is_stored(rf, status):
    """A 404 page or a redirect is rendered again for every visitor: stored, it would outlive the
    page's coming into existence for as long as the version does not change."""
    from django.contrib.auth.models import AnonymousUser
    from django.http import HttpResponse

    from tables.standings.cache import serve_cached

    renders = []

    def render(answer):
        def inner():
            renders.append(answer)
            response = HttpResponse(f"answer {answer}", status=answer)
            if answer in (301, 302):
                response["Location"] = "/altrove/"
            return response
        return inner

    def ask(answer):
        request = rf.get("/t/424242/classifica/")
        request.user = AnonymousUser()
        return serve_cached(request, 424242, "v1", render(answer))

    assert [ask(status).status_code for _ in range(2)] == [status, status]
    assert renders == [status, status]
    # The same page once it answers 200: rendered once, then stored (the first answer left nothing).
    assert [ask(200).status_code for _ in range(2)] == [200, 200]
    assert renders == [status, status, 200]
