"""Navigation says what it does: one Results place, Format and Scoring apart, no spec jargon, one name per formula."""
import re

import polib
import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from scoring.catalogue import CATALOGUE
from tests.factories import RegistrationFactory, report, seat_round
from tests.html import one, parse, select, text, texts, tr
from tournaments.models import Formula

pytestmark = pytest.mark.django_db


def test_organiser_results_goes_to_the_live_round_dashboard(client, organiser, tournament):
    client.force_login(organiser)
    url = reverse("manage:results", args=[tournament.pk])
    assert client.get(url)["Location"] == reverse("manage:rounds", args=[tournament.pk])
    seat_round(tournament, [[RegistrationFactory(tournament=tournament) for _ in range(4)]])
    assert client.get(url)["Location"] == reverse("manage:round_dashboard", args=[tournament.pk, 1])
    nav = client.get(reverse("manage:tournament", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE="it")
    results = [a["href"] for a in select(nav, "a") if text(a) == tr("Results", "it")]
    assert results == [url, url]   # the bar and the overview
    assert text(one(nav, "a#nav-formats")) == tr("Tournament format", "it")
    assert text(one(nav, "a#nav-scoring")) == tr("Scoring", "it")


def test_last_table_entered_by_the_organiser_leads_to_closing(client, organiser, tournament):
    rnd = seat_round(tournament, [[RegistrationFactory(tournament=tournament) for _ in range(4)]])
    table = rnd.tables.get()
    seats = list(table.seats.order_by("position"))
    data = {"version": table.version}
    for i, (seat, tp) in enumerate(zip(seats, [60, 40, 20, 10])):
        data.update({f"p{i}-seat": seat.pk, f"p{i}-table_points": tp})
    client.force_login(organiser)
    response = client.post(reverse("arbiter:table", args=[tournament.pk, 1, 1]), data)
    assert response["Location"] == reverse("manage:round_dashboard", args=[tournament.pk, 1])
    home = client.get(reverse("arbiter:home", args=[tournament.pk]))
    assert select(home, f"a[href='{reverse('manage:round_dashboard', args=[tournament.pk, 1])}']")


def test_the_round_is_closed_and_its_standings_published_from_the_results_dashboard(client, organiser, tournament):
    rnd = seat_round(tournament, [[RegistrationFactory(tournament=tournament) for _ in range(4)]])
    client.force_login(organiser)
    url = reverse("manage:round_dashboard", args=[tournament.pk, 1])
    close = reverse("manage:round_action", args=[tournament.pk, 1, "close"])
    button = one(client.get(url), f"form[action='{close}'] button[type=submit]")
    assert button.has_attr("disabled") and button.has_attr("aria-describedby")    # a table is missing: not yet
    report(rnd.tables.get(), [(60,), (40,), (20,), (10,)])
    page = client.get(url)
    assert not one(page, f"form[action='{close}'] button[type=submit]").has_attr("disabled")
    assert select(page, "button[disabled]") == []
    client.post(close)
    rnd.refresh_from_db()
    assert rnd.status == "closed"
    publish = reverse("manage:round_action", args=[tournament.pk, 1, "standings"])
    assert select(client.get(url), f"form[action='{publish}']")
    client.post(publish)
    rnd.refresh_from_db()
    assert rnd.standings_published_at is not None


def test_arbiter_is_sent_to_the_next_table_then_home(client, arbiter, tournament):
    regs = [RegistrationFactory(tournament=tournament) for _ in range(8)]
    rnd = seat_round(tournament, [regs[:4], regs[4:]])
    report(rnd.tables.get(number=2), [(60,), (40,), (20,), (10,)])
    table = rnd.tables.get(number=1)
    data = {"version": table.version}
    for i, (seat, tp) in enumerate(zip(table.seats.order_by("position"), [60, 40, 20, 10])):
        data.update({f"p{i}-seat": seat.pk, f"p{i}-table_points": tp})
    client.force_login(arbiter)
    response = client.post(reverse("arbiter:table", args=[tournament.pk, 1, 1]), data)
    assert response["Location"] == reverse("arbiter:round", args=[tournament.pk, 1])   # the round's list


JARGON = re.compile(r"(?i:\bseeds?\b|\bseme\b)|\.md\b|\bSCORING\b|\bSEATING\b")


def test_no_spec_jargon_in_the_interface_strings():
    po = polib.pofile(str(settings.BASE_DIR / "locale" / "it" / "LC_MESSAGES" / "django.po"))
    found = [e.msgid[:80] for e in po if JARGON.search(e.msgid) or JARGON.search(e.msgstr)
             or any(JARGON.search(v) for v in e.msgstr_plural.values())]
    assert found == []


@pytest.mark.parametrize("language", ["it", "en"])
def test_no_spec_jargon_on_the_formula_and_format_pages(client, organiser, tournament, language):
    """The formula texts come from the scoring catalogue, not the message catalogue: the pages showing
    them cite the rulebooks by name ("R.T.U. Editrice Giochi"), never a seed file or a spec."""
    client.force_login(organiser)
    client.cookies["django_language"] = language
    urls = [reverse("public:formulas"), *(reverse("public:formula", args=[key]) for key in CATALOGUE),
            reverse("manage:formats", args=[tournament.pk]), reverse("manage:formulas_compared", args=[tournament.pk])]
    found = []
    for url in urls:
        response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
        assert response.status_code == 200, url
        found += [(url, m.group()) for m in JARGON.finditer(" ".join(parse(response).stripped_strings))]
    assert found == []
    sources = texts(client.get(reverse("public:formula", args=["conversione150"])), "[data-sources] li")
    assert sources[0].startswith("R.T.U. Editrice Giochi")


@pytest.mark.parametrize("language", ["it", "en"])
def test_one_name_per_formula(language):
    with translation.override(language):
        labels = {value: str(label) for value, label in Formula.choices}
    for key, label in labels.items():
        assert CATALOGUE[key].name.get(language) == label
