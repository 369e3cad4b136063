"""Tests find things on a page by id, data- attribute, role, field name or link target (tests/html.py),
and compare a message with the catalogue (`tr`), never by searching the page's English or Italian
words: a change of wording or of translation breaks no test (ARCHITECTURE.md, "Rules that follow").

tests/page_text_scan.py finds every search of a page's raw text (`x in response.content.decode()`,
`assertContains`, a regular expression over the page...). Outside the tests below, whose point is the
wording itself or the bytes sent, there is none. The browser tests (tests/browser/) have their own rule."""
from pathlib import Path

import pytest

from tests.page_text_scan import raw_text_searches

TESTS = Path(__file__).resolve().parent

# Tests whose point is the wording itself: the Italian that a page reads.
WORDING = {
    ("tests/tournaments/test_italian.py", "*"): "Italian that reads right: plurals, the words chosen",
    ("tests/tournaments/audit/test_audit_labels.py", "test_the_log_page_reads_in_italian"):
        "the log's Italian words",
    ("tests/tables/arbitration/test_penalty_form.py", "test_the_game_list_reads_in_italian"):
        "the games named in Italian",
    ("tests/tables/results/test_results.py", "test_blank_table_points_are_asked_in_italian"):
        "the question in Italian",
    ("tests/tournaments/registration/test_signup_abuse.py",
     "test_pending_list_says_matches_existing_player_in_italian"): "the flag's Italian words",
    ("tests/tournaments/teams/test_teams.py",
     "test_team_pages_name_the_round_robin_days_giornata_as_the_2vs2_rules_do"):
        "\"Giornata\", never \"Turno\", as the 2vs2 rules say",
}

# Tests of what must be nowhere in the bytes sent (a page parsed would not show an attribute or a
# script), or of an answer that is not a page.
BYTES = {
    ("tests/tables/standings/test_public_pages_cache.py", "test_an_anonymous_page_carries_nothing_of_its_visitor"):
        "no CSRF token anywhere in a page cached for everybody",
    ("tests/tables/standings/test_public_pages_cache.py", "test_no_page_kept_for_everybody_holds_a_csrf_token"):
        "no CSRF token anywhere in a page kept for everybody",
    ("tests/tables/standings/test_public_pages_cache.py",
     "test_a_host_outside_allowed_hosts_gets_400_even_when_the_page_is_cached"): "nothing of the cached page sent",
    ("tests/tables/arbitration/test_arbitration.py", "test_public_player_page_shows_penalty_but_not_internal_note"):
        "the arbiters' internal note never sent",
    ("tests/tournaments/test_two_clubs.py", "test_arbiters_page_offers_only_own_accounts"):
        "another club's accounts never sent",
    ("tests/tournaments/test_two_clubs.py", "test_a_shared_player_nobody_owns_is_read_without_email_and_not_changed"):
        "an e-mail nobody may read never sent",
    ("tests/tournaments/test_two_clubs.py", "test_another_organisers_player_is_404"):
        "another organiser's player's e-mail never sent",
    ("tests/test_two_clubs_matrix.py", "test_b_registers_as_player_and_reaches_nothing_of_their_card"):
        "another club's e-mails and draft players never sent",
    ("tests/tables/results/test_offline_submissions.py", "test_the_offline_worker_is_served_for_the_arbiters_pages"):
        "a script, not a page",
    ("tests/test_health.py", "*"): "the health page's one word, not a page",
    ("tests/safety/test_bad_day.py", "test_every_public_page_answers_head_as_get"): "a HEAD answer carries no body",
    ("tests/safety/test_bad_day.py", "test_the_pages_of_another_database_or_release_are_never_served"):
        "the cached page's bytes, whole, and the restored data in them",
}

ALLOWED = {**WORDING, **BYTES}


def _allowed(path, function):
    return (path, function) in ALLOWED or (path, "*") in ALLOWED


def _searches(root=TESTS):
    """{(path, function): [line, ...]} of every search of a page's raw text in the server-side tests."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        relative = path.relative_to(root.parent).as_posix()
        if relative.startswith("tests/browser/"):
            continue
        for line, function, _what in raw_text_searches(path.read_text(encoding="utf-8"), relative):
            found.setdefault((relative, function), []).append(line)
    return found


def _offending(root=TESTS):
    return [f"{path}:{lines[0]} {function}" for (path, function), lines in _searches(root).items()
            if not _allowed(path, function)]


def test_no_test_searches_the_words_of_a_page():
    offending = _offending()
    assert offending == [], ("select by id, data- attribute, role or field name (tests/html.py), and compare a "
                             "message with tr(...): " + ", ".join(offending))


def test_every_allowed_test_still_needs_its_place_on_the_list():
    found = _searches()
    stale = [key for key in ALLOWED if key[1] != "*" and key not in found
             or key[1] == "*" and not any(path == key[0] for path, _function in found)]
    assert stale == []


SEARCHES = {
    "assertContains": """
def test_it(client):
    response = client.get("/")
    self.assertContains(response, "Save")
""",
    "literal in the decoded page": """
def test_it(client):
    assert "Round 2" in client.get("/").content.decode()
""",
    "literal not in the page's bytes": """
def test_it(client):
    assert b"Log out" not in client.get("/").content
""",
    "through a local name, unescaped and joined": """
import html
def test_it(client):
    body = html.unescape(client.get("/").content.decode())
    page = " ".join(body.split())
    assert f"Table {1}" in page
""",
    "through a helper of the module": """
def _page(client):
    return client.get("/").content.decode()
def test_it(client):
    assert _page(client).count("possible duplicate") == 2
""",
    "a slice of the page": """
def test_it(client):
    html = client.get("/").content.decode()
    assert "Total" in html[html.index("Anna"):]
""",
    "a regular expression over the page": """
import re
def test_it(client):
    assert re.search(r"Valid for (\\d+) hours", client.get("/").content.decode())
""",
    "a compiled pattern over the page": """
import re
TOTAL = re.compile(r'class="total">([^<]*)<')
def test_it(client):
    assert TOTAL.findall(client.get("/").content.decode()) == ["10"]
""",
    "Django's response.text": """
def test_it(client):
    response = client.get("/")
    assert "Standings" in response.text
""",
    "the page compared with a written string": """
def test_it(client):
    assert client.get("/").content.decode() == "<p>Saved</p>"
""",
    "split on a piece of the page": """
def test_it(client):
    page = client.get("/").content.decode()
    assert "whole tournament" in page.split("offensivo")[0]
""",
}


@pytest.mark.parametrize("source", SEARCHES.values(), ids=SEARCHES.keys())
def test_the_scan_finds_a_search_of_the_page(source):
    assert [function for _line, function, _what in raw_text_searches(source)] != []
    assert {function for _line, function, _what in raw_text_searches(source)} <= {"test_it", "_page"}


STRUCTURAL = {
    "elements found by the parser": """
from tests.html import alerts, one, select, text, tr
def test_it(client):
    response = client.get("/")
    assert one(response, "[data-round='2']")["data-state"] == "closed"
    assert tr("Tick at least one player to register.") in alerts(response)
    assert text(one(response, "h1")) == tr("Standings") and select(response, "#close-round") == []
""",
    "the whole answer compared, JSON and CSV read": """
import csv, io, json
def test_it(client):
    first, second = client.get("/"), client.get("/")
    assert first.content == second.content and (second.status_code, second.content) == (304, b"")
    data = json.loads(first.content)
    rows = list(csv.reader(io.StringIO(first.content.decode("utf-8-sig"))))
    assert "wins" not in data[0] and rows[0][0] == "1"
""",
    "a model's text field": """
def test_it(dispute):
    assert dispute.text == "formazione" and "punti" in dispute.text
""",
}


@pytest.mark.parametrize("source", STRUCTURAL.values(), ids=STRUCTURAL.keys())
def test_the_scan_lets_structural_reading_through(source):
    assert raw_text_searches(source) == []


def test_the_guard_names_a_new_search_and_leaves_the_lists_and_the_browser_tests_alone(tmp_path):
    """The guard run over a small tree of tests: one new text assertion, one on the wording list, one in
    tests/browser/."""
    for path, source in [("tables/test_new.py", SEARCHES["literal in the decoded page"]),
                         ("tournaments/test_italian.py", SEARCHES["literal in the decoded page"]),
                         ("browser/test_flow.py", SEARCHES["assertContains"]),
                         ("tables/test_fine.py", STRUCTURAL["elements found by the parser"])]:
        (tmp_path / "tests" / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "tests" / path).write_text(source)
    assert _offending(tmp_path / "tests") == ["tests/tables/test_new.py:3 test_it"]
