"""The guides for organisers and arbiters (docs/, built into site/ by `make docs`): the help pages link to
them where they are published (DOCS_URL), and the application serves the built site under /guida/."""
import pytest
from bs4 import BeautifulSoup
from django.urls import reverse

pytestmark = pytest.mark.django_db


def _guide_links(page, where):
    return {a["data-guide"]: a["href"] for a in page.select(f"{where} a[data-guide]")}


def test_the_formulas_help_page_and_every_footer_link_to_the_organisers_and_arbiters_guides(client, settings):
    settings.DOCS_URL = "https://guida.example.org/torneo/"
    page = BeautifulSoup(client.get(reverse("public:formulas")).content, "html.parser")
    guides = {"organiser": "https://guida.example.org/torneo/organiser/",
              "arbiter": "https://guida.example.org/torneo/arbiter/"}
    assert _guide_links(page, "main [data-guides]") == guides
    assert _guide_links(page, "footer") == guides
    assert page.select_one("footer [data-trademark]") is not None


def test_without_a_published_guide_no_page_links_to_one(client, settings):
    settings.DOCS_URL = ""
    page = BeautifulSoup(client.get(reverse("public:formulas")).content, "html.parser")
    assert page.select("a[data-guide]") == []
    assert page.select_one("footer [data-trademark]") is not None


def _body(response):
    return b"".join(response.streaming_content)


def test_the_built_guide_is_served_under_guida_each_folder_by_its_index(client, settings, tmp_path):
    (tmp_path / "organiser").mkdir()
    (tmp_path / "index.html").write_text("<h1>Torneo</h1>")
    (tmp_path / "organiser" / "index.html").write_text("<h1>Guida per l'organizzatore</h1>")
    settings.DOCS_SITE_DIR = tmp_path
    home = client.get("/guida/")
    assert home.status_code == 200 and _body(home) == b"<h1>Torneo</h1>"
    organiser = client.get("/guida/organiser/")
    assert organiser.status_code == 200 and _body(organiser) == "<h1>Guida per l'organizzatore</h1>".encode()
    assert client.get("/guida/arbiter/").status_code == 404
    assert client.get("/guida/../manage.py").status_code == 404


def test_a_guide_not_built_on_this_server_answers_not_found(client, settings, tmp_path):
    settings.DOCS_SITE_DIR = tmp_path
    assert client.get("/guida/").status_code == 404
    assert client.get("/guida/organiser/").status_code == 404


def test_a_guide_page_may_run_its_own_inline_scripts_by_their_hashes_and_nothing_else_inline(client, settings,
                                                                                          tmp_path):
    import base64
    import hashlib
    script = "window.__md_scope = new URL('.', location)"
    (tmp_path / "index.html").write_text(
        f'<h1>Torneo</h1><script>{script}</script><script id="__config" type="application/json">{{}}</script>')
    settings.DOCS_SITE_DIR = tmp_path
    response = client.get("/guida/")
    policy = {part.split()[0]: part.split()[1:] for part in response["Content-Security-Policy"].split(";")
              if part.strip()}
    digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
    assert policy["script-src"] == ["'self'", f"'sha256-{digest}'"]
    assert all("'unsafe-inline'" not in sources for sources in policy.values())
    # Any other page of the site keeps the policy as it is.
    other = client.get(reverse("public:formulas"))
    assert "sha256-" not in other["Content-Security-Policy"]


@pytest.mark.parametrize("path", ["x" * 300, "a/" + "y" * 300 + ".html", "%s/" % ("z" * 300)])
def test_an_address_no_file_of_the_guide_could_have_answers_not_found(client, settings, tmp_path, path):
    (tmp_path / "index.html").write_text("<h1>Torneo</h1>")
    settings.DOCS_SITE_DIR = tmp_path
    assert client.get("/guida/" + path).status_code == 404
