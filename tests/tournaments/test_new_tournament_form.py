"""The new tournament: a short first screen (name, date, formula), public by default, formula settings
only for the formulas that read them, and "copy from an earlier tournament" (the organiser's own)."""
import pytest
from django.urls import reverse

from tests.factories import TournamentFactory, UserFactory
from tests.html import attr, field, one, select, text, tr
from tournaments.models import AuditLog, Tournament

pytestmark = pytest.mark.django_db

URL = "manage:tournament_create"


def _fields(node):
    return [field["name"] for field in select(node, "input[name], select[name], textarea[name]")]


def _first_screen(page):
    """The names of the fields of the tournament's form outside the "More settings" box."""
    form = one(page, "form[method=post]:has(#more-settings)")
    more = _fields(one(form, "#more-settings"))
    return [name for name in _fields(form) if name not in more]


def test_the_first_screen_holds_name_date_and_formula_only(client, organiser):
    client.force_login(organiser)
    page = client.get(reverse(URL))
    assert _first_screen(page) == ["csrfmiddlewaretoken", "club_preset", "name", "start_date", "formula", "bonus", "spartaco_malus"]
    # The formula's own settings show only for the formulas that read them.
    assert field(page, "bonus")["data-show-when"] == field(page, "spartaco_malus")["data-show-when"] == "formula"
    assert (field(page, "bonus")["data-show-values"], field(page, "spartaco_malus")["data-show-values"]) == (
        "bonus50 vittorie", "spartaco")
    more = one(page, "#more-settings")
    assert not more.has_attr("open")
    assert {"tiebreak_1", "rounds_planned", "discard_worst", "entry_fee", "published", "signup_open"} <= set(
        _fields(more))


def test_a_new_tournament_is_public_by_default(client, organiser):
    client.force_login(organiser)
    assert one(client.get(reverse(URL)), "input[name=published]").has_attr("checked")


def test_an_error_in_the_more_settings_opens_them(client, organiser):
    client.force_login(organiser)
    response = client.post(reverse(URL), {"name": "Serata", "start_date": "2026-12-01", "formula": "conversione150",
                                          "table_size": "4", "rounds_planned": "0", "discard_worst": "0",
                                          "dispute_window_minutes": "120", "entry_fee": "0", "bonus": "50",
                                          "spartaco_malus": "14"})
    assert response.status_code == 200
    assert one(response, "#more-settings").has_attr("open")


@pytest.fixture
def last_week(organiser):
    source = TournamentFactory(organiser=organiser, name="Serata di club", formula="spartaco", spartaco_malus=10,
                               tiebreak="wins,table_points", rounds_planned=4, discard_worst=1, table_size=5,
                               entry_fee=5, dispute_window_minutes=60, published=True, signup_open=True)
    source.arbiters.add(UserFactory(username="arturo"), UserFactory(username="bruna"),
                        UserFactory(username="ex", is_active=False))
    return source


def test_copy_from_an_earlier_tournament_fills_every_setting(client, organiser, last_week):
    client.force_login(organiser)
    response = client.get(reverse(URL), {"copia": last_week.pk})
    form = response.context["form"]
    values = {name: form[name].value() for name in ("formula", "spartaco_malus", "tiebreak_1", "tiebreak_2",
                                                     "tiebreak_3", "rounds_planned", "discard_worst",
                                                     "table_size", "dispute_window_minutes", "signup_open")}
    assert values == {"formula": "spartaco", "spartaco_malus": 10, "tiebreak_1": "wins",
                      "tiebreak_2": "table_points", "tiebreak_3": "", "rounds_planned": 4, "discard_worst": 1,
                      "table_size": 5, "dispute_window_minutes": 60, "signup_open": True}
    assert form["start_date"].value() is None
    assert one(response, "input[name=copy_from]")["value"] == str(last_week.pk)
    copied = one(response, "[data-copied-from]")
    assert copied["data-copied-from"] == str(last_week.pk)
    assert text(copied).endswith(f'{tr("Arbiters taken along:")} arturo, bruna.')   # not "ex", no longer active


def test_saving_the_copy_brings_the_arbiters_along_audited(client, organiser, last_week):
    client.force_login(organiser)
    form = client.get(reverse(URL), {"copia": last_week.pk}).context["form"]
    data = {name: ("" if value is None else value) for name, value in
            ((f.name, f.value()) for f in form) if not isinstance(value, bool) or value}
    data.update({"start_date": "2026-12-08", "copy_from": str(last_week.pk), "name": "Serata di club 8/12"})
    response = client.post(reverse(URL), data)
    assert response.status_code == 302
    new = Tournament.objects.get(name="Serata di club 8/12")
    assert (new.formula, new.tiebreak, new.rounds_planned, new.discard_worst, new.spartaco_malus) == (
        "spartaco", "wins,table_points", 4, 1, 10)
    assert sorted(new.arbiters.values_list("username", flat=True)) == ["arturo", "bruna"]
    assert AuditLog.objects.filter(tournament=new, action="tournament.arbiters").count() == 1


def test_another_organisers_tournament_is_not_copied(client, organiser, other_organiser):
    theirs = TournamentFactory(organiser=other_organiser, formula="spartaco")
    theirs.arbiters.add(UserFactory(username="spia"))
    client.force_login(organiser)
    response = client.get(reverse(URL), {"copia": theirs.pk})
    assert response.context["source"] is None
    assert response.context["form"]["formula"].value() == "conversione150"
    assert str(theirs.pk) not in attr(response, "[value]", "value")
    response = client.post(reverse(URL), {"name": "X", "start_date": "2026-12-01", "formula": "conversione150",
                                          "table_size": "4", "rounds_planned": "3", "discard_worst": "0",
                                          "dispute_window_minutes": "120", "entry_fee": "0", "bonus": "50",
                                          "spartaco_malus": "14", "copy_from": str(theirs.pk)})
    assert response.status_code == 302
    assert not Tournament.objects.get(name="X").arbiters.exists()
