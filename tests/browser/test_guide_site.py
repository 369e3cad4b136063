"""The guide as the site serves it under /guida/ (docs/ built by MkDocs, `make docs`): every page on a phone
and on a desk, zero serious or critical axe-core violations, its home and sections in Italian, and a way
back to the site on every page."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.browser.conftest import PHONE

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
DESK = {"width": 1280, "height": 900}
SERIOUS = ("async () => (await axe.run(document)).violations"
           ".filter(v => ['serious', 'critical'].includes(v.impact))"
           ".map(v => v.id + ': ' + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', '))")


def _mkdocs_missing():
    try:
        import material  # noqa: F401  the theme
        import mkdocs  # noqa: F401
    except ImportError:
        return True
    return False


if _mkdocs_missing() and os.environ.get("CI") == "true":
    raise RuntimeError("MkDocs and its theme are needed to build the guide: pip install -e '.[docs]'")
pytestmark = [pytest.mark.skipif(_mkdocs_missing(), reason="the docs extra is not installed: pip install -e '.[docs]'"),
              pytest.mark.skipif(not AXE.exists(), reason="axe-core not installed: make node_modules/.installed")]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The guide built as `make docs` builds it (--strict: any warning fails the build)."""
    site = tmp_path_factory.mktemp("site")
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "-d", str(site)], cwd=ROOT,
                   check=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    return site


def _pages(site):
    """Every page of the built guide, as its address under /guida/."""
    return sorted("/guida/" + p.parent.relative_to(site).as_posix().removeprefix(".") + ("/" if p.parent != site else "")
                  for p in site.rglob("index.html") if "404" not in p.parts and "search" not in p.parts)


@pytest.mark.parametrize("size", [PHONE, DESK], ids=["phone", "desk"])
def test_every_page_of_the_guide_has_no_serious_accessibility_violation(live_server, browser, built, settings,
                                                                         size):
    settings.DOCS_SITE_DIR = built
    pages = [p.replace("//", "/") for p in _pages(built)]
    assert "/guida/" in pages and "/guida/organiser/" in pages and "/guida/arbiter/" in pages
    context = browser.new_context(viewport=size, locale="it-IT", bypass_csp=True)   # axe is injected inline
    page = context.new_page()
    found = {}
    for path in pages:
        response = page.goto(live_server.url + path)
        assert response.status == 200, path
        page.wait_for_load_state("load")
        if page.locator("article table").count():   # the theme wraps each table once the page is shown
            page.wait_for_selector(".md-typeset__scrollwrap[tabindex='0']", state="attached")
        page.add_script_tag(path=str(AXE))
        violations = page.evaluate(SERIOUS)
        if violations:
            found[path] = violations
    context.close()
    assert found == {}


def test_the_guide_reads_in_italian_and_every_page_leads_back_to_the_site(live_server, browser, built, settings,
                                                                           shot):
    settings.DOCS_SITE_DIR = built
    context = browser.new_context(viewport=PHONE, locale="it-IT", is_mobile=True, has_touch=True)
    page = context.new_page()
    for path in ("/guida/", "/guida/organiser/preparare-una-serata/", "/guida/arbiter/inserire-un-risultato/"):
        page.goto(live_server.url + path)
        assert page.locator("html").get_attribute("lang") == "it"
        back = page.locator("footer a[data-back-to-site]")
        assert back.count() == 1 and back.get_attribute("href") == "/"
        assert page.locator("footer [data-trademark]").count() == 1
    page.goto(live_server.url + "/guida/")
    shot(page, "guide-home-390")
    # the sections of the navigation, as the drawer of a phone lists them, are Italian
    sections = page.locator("nav.md-nav--primary > ul > li > .md-nav__link").all_text_contents()
    assert [" ".join(s.split()) for s in sections] == [
        "Inizio", "Organizzatori", "Arbitri", "Amministrazione (in inglese)", "Sviluppo (in inglese)"]
    page.locator("footer a[data-back-to-site]").click()
    page.wait_for_url(live_server.url + "/")
    context.close()
