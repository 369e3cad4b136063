"""Changing the formula after standings were published: confirmation, old vs new top 10, only changes logged."""
import pytest
from django.urls import reverse
from django.utils import timezone

from tests.factories import RegistrationFactory, report, seat_round
from tests.html import attr, select, text
from tournaments.models import AuditLog, Tournament

pytestmark = pytest.mark.django_db


def _form(tournament, **changes):
    data = {"name": tournament.name, "start_date": tournament.start_date.isoformat(), "formula": tournament.formula,
            "bonus": "50", "spartaco_malus": "14", "discard_worst": "0", "table_size": "4", "rounds_planned": "3",
            "entry_fee": "0", "dispute_window_minutes": "120", "tiebreak_1": "best_results",
            **({"published": "on"} if tournament.published else {}), **({"signup_open": "on"} if tournament.signup_open else {})}
    data.update(changes)
    return data


@pytest.fixture
def published(tournament):
    regs = [RegistrationFactory(tournament=tournament) for _ in range(8)]
    rnd = seat_round(tournament, [regs[:4], regs[4:]])
    report(rnd.tables.get(number=1), [(90,), (60,), (30,), (20,)])
    report(rnd.tables.get(number=2), [(50,), (45,), (40,), (35,)])
    rnd.status, rnd.standings_published_at = "closed", timezone.now()
    rnd.save()
    return tournament


def test_formula_change_after_publication_asks_and_shows_the_top_10(client, organiser, published):
    client.force_login(organiser)
    url = reverse("manage:tournament_edit", args=[published.pk])
    response = client.post(url, _form(published, formula="vittorie"))
    assert response.status_code == 200
    change = response.context["change"]
    assert [(c["before"], c["after"]) for c in change["changes"]] == [("Conversion 150", "Number of wins")]
    assert len(change["rows"]) == 8
    assert all(r["old_rank"] and r["new_rank"] for r in change["rows"])
    assert [r["old_rank"] for r in change["rows"]] == sorted(r["old_rank"] for r in change["rows"])
    assert attr(response, "form[method=post] [name=confirm]", "value") == ["1"]
    assert Tournament.objects.get(pk=published.pk).formula == "conversione150"
    assert not AuditLog.objects.filter(action="tournament.update").exists()

    response = client.post(url, _form(published, formula="vittorie", confirm="1"))
    assert response.status_code == 302
    assert Tournament.objects.get(pk=published.pk).formula == "vittorie"
    entry = AuditLog.objects.get(action="tournament.update")
    assert (entry.before, entry.after) == ({"formula": "conversione150"}, {"formula": "vittorie"})


def test_other_settings_change_without_confirmation(client, organiser, published):
    client.force_login(organiser)
    response = client.post(reverse("manage:tournament_edit", args=[published.pk]), _form(published, venue="Como"))
    assert response.status_code == 302
    entry = AuditLog.objects.get(action="tournament.update")
    assert (entry.before, entry.after) == ({"venue": ""}, {"venue": "Como"})


def test_formula_change_before_publication_needs_no_confirmation(client, organiser, tournament):
    client.force_login(organiser)
    response = client.post(reverse("manage:tournament_edit", args=[tournament.pk]),
                           _form(tournament, formula="vittorie"))
    assert response.status_code == 302
    assert Tournament.objects.get(pk=tournament.pk).formula == "vittorie"


def test_saving_unchanged_settings_logs_nothing(client, organiser, tournament):
    client.force_login(organiser)
    client.post(reverse("manage:tournament_edit", args=[tournament.pk]), _form(tournament))
    assert not AuditLog.objects.filter(action="tournament.update").exists()


def test_formula_change_shows_the_top_10_before_and_after_not_every_player(client, organiser, tournament):
    """16 players: the rows shown are the players of the old top 10 and those the change brings into
    it, never one outside both."""
    regs = [RegistrationFactory(tournament=tournament) for _ in range(16)]
    rnd = seat_round(tournament, [regs[i:i + 4] for i in range(0, 16, 4)])
    for table, points in zip(rnd.tables.order_by("number"), [(90, 60, 30, 20), (50, 45, 40, 35),
                                                              (100, 5, 3, 2), (61, 59, 58, 1)]):
        report(table, [(p,) for p in points])
    rnd.status, rnd.standings_published_at = "closed", timezone.now()
    rnd.save()
    client.force_login(organiser)
    response = client.post(reverse("manage:tournament_edit", args=[tournament.pk]),
                           _form(tournament, formula="punti_tavolo"))
    rows = response.context["change"]["rows"]
    assert all(r["old_rank"] <= 10 or r["new_rank"] <= 10 for r in rows)
    # The old top 10 (two share 7th), and the 13th who becomes 10th; the 6 others are left out.
    assert [(r["old_rank"], r["new_rank"]) for r in rows] == [
        (1, 1), (2, 2), (3, 7), (4, 3), (5, 5), (6, 8), (7, 4), (7, 13), (9, 6), (10, 9), (13, 10)]


def test_the_change_to_millesimi_shows_each_total_in_its_formulas_decimals(client, organiser, published):
    """Now under conversione150 (2 decimals, whole numbers without), after the change in thousandths
    (SCORING.md 13.4): the winner of table 1 with 90 TP has 1.090."""
    client.force_login(organiser)
    response = client.post(reverse("manage:tournament_edit", args=[published.pk]),
                           _form(published, formula="millesimi"))
    cells = [[text(td) for td in tr.select("td.num")] for tr in select(response, "#settings-change tbody tr")]
    assert cells[:4] == [["1° · 150.30", "1° · 1.090"], ["2° · 150.05", "2° · 1.050"], ["3° · 95", "4° · 0.045"],
                         ["4° · 80", "3° · 0.060"]]
