"""2vs2 arbitration (seed 001 art. 2, art. 20 on teams): penalties lower the team standings, disputes
within 2 hours of a day's publication, standings published day by day."""
from datetime import timedelta
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.factories import RegistrationFactory
from tests.html import alerts, one, text, tr
from tournaments.teams import services as teams
from tables.models import TeamDispute, TeamPenalty
from tournaments.models import AuditLog, TeamDay, TeamMatch


@pytest.fixture
def five(tournament, organiser):
    regs = [RegistrationFactory(tournament=tournament) for _ in range(10)]
    out = [teams.team_create(user=organiser, tournament=tournament, name=name, registrations=regs[i * 2:i * 2 + 2],
                             captain=regs[i * 2]) for i, name in enumerate(["Alfa", "Beta", "Gamma", "Delta", "Eco"])]
    teams.schedule_create(user=organiser, tournament=tournament)
    return out


def _match(tournament, x, y):
    return TeamMatch.objects.get(tournament=tournament, home__in=[x, y], away__in=[x, y])


def _play(tournament, organiser, five, days=None):
    """Alfa 9 (beats Beta, Gamma, Delta, loses to Eco), Beta 8, Eco 6, Gamma 2, Delta 2."""
    a, b, c, d, e = five
    wins = {(a, b): a, (a, c): a, (a, d): a, (a, e): e, (b, c): b, (b, d): b}
    for m in TeamMatch.objects.filter(tournament=tournament).order_by("round", "pk"):
        if days is not None and m.round not in days:
            continue
        pair = next(p for p in wins if {t.pk for t in p} == {m.home_id, m.away_id}) if any(
            {t.pk for t in p} == {m.home_id, m.away_id} for p in wins) else None
        if pair:
            winner = wins[pair]
            teams.match_result_submit(user=organiser, match=m, ending="wipeout", decided_by=winner,
                                      territories=(30, 0) if m.home_id == winner.pk else (0, 30), version=m.version)
        elif {m.home_id, m.away_id} == {b.pk, e.pk}:
            teams.match_result_submit(user=organiser, match=m, ending="time",
                                      territories=(24, 18) if m.home_id == b.pk else (18, 24), version=m.version)
        else:
            teams.match_result_submit(user=organiser, match=m, ending="time", territories=(21, 21),
                                      best=(11, 11), territory_points=(Decimal(50), Decimal(50)), version=m.version)


def _standings(client, tournament, day=""):
    page = client.get(reverse("public:team_standings", args=[tournament.pk]), {"giornata": day} if day else {})
    assert page.status_code == 200
    return page, [(r.rank, r.team.name, r.points) for r in page.context["rows"]]


def test_a_penalty_entered_on_the_page_lowers_the_points_and_changes_the_order(client_for, tournament, organiser,
                                                                                arbiter, five):
    _play(tournament, organiser, five)
    client = client_for(arbiter)
    # Gamma and Delta share 4th place: listed by name.
    assert _standings(client, tournament)[1] == [(1, "Alfa", 9), (2, "Beta", 8), (3, "Eco", 6), (4, "Delta", 2),
                                                 (4, "Gamma", 2)]
    url = reverse("arbiter:team_arbitration", args=[tournament.pk])
    response = client.post(url, {"form": "penalty", "team": str(five[0].pk), "day": "1", "points": "3",
                                 "reason": "Comunicazione tra compagni (art. 2)"})
    assert response.status_code == 302
    page, rows = _standings(client, tournament)
    # 9 - 3 = 6, level with Eco, who beat Alfa: head to head puts Eco first.
    assert rows == [(1, "Beta", 8), (2, "Eco", 6), (3, "Alfa", 6), (4, "Delta", 2), (4, "Gamma", 2)]
    assert text(one(page, f"tr[data-team='{five[0].pk}'] [data-penalty]")) == "−3"
    entry = AuditLog.objects.get(action="team.penalty")
    assert (entry.after["team"], entry.after["points"], entry.user) == ("Alfa", 3, arbiter)
    # Never below 0: 5 points off a team with 2.
    client.post(url, {"form": "penalty", "team": str(five[2].pk), "day": "1", "points": "5", "reason": "Ritardo"})
    assert _standings(client, tournament)[1][-1] == (5, "Gamma", 0)
    # Withdrawn, the penalty counts no more.
    penalty = TeamPenalty.objects.get(team=five[0])
    response = client.post(reverse("arbiter:team_penalty_withdraw", args=[tournament.pk, penalty.pk]),
                           {"reason": "Ricorso accolto"})
    assert response.status_code == 302
    assert _standings(client, tournament)[1][:2] == [(1, "Alfa", 9), (2, "Beta", 8)]


def test_a_bad_penalty_is_refused_on_the_page_and_nothing_is_saved(client_for, tournament, arbiter, five):
    response = client_for(arbiter).post(reverse("arbiter:team_arbitration", args=[tournament.pk]), {
        "form": "penalty", "team": str(five[0].pk), "day": "1", "points": "0", "reason": ""})
    assert response.status_code == 400
    assert set(response.context["penalty_form"].errors) == {"points", "reason"}
    assert not TeamPenalty.objects.exists()


def test_standings_are_published_per_day_and_final_when_the_window_closes(client_for, tournament, organiser,
                                                                          arbiter, five):
    client = client_for(arbiter)
    publish = reverse("arbiter:team_day_publish", args=[tournament.pk, 1])
    client.post(publish)
    assert not TeamDay.objects.exists()  # day 1 has no results yet
    _play(tournament, organiser, five, days={1})
    assert client.post(publish).status_code == 302
    day1 = TeamDay.objects.get(tournament=tournament, number=1)
    closes = timezone.localtime(day1.standings_published_at + timedelta(minutes=120)).strftime("%H:%M")
    _play(tournament, organiser, five, days={2})
    page, rows = _standings(client, tournament)
    status = one(page, "[data-state]")
    assert (status["data-state"], text(status)) == (
        "provisional", tr("Provisional standings · disputes until %(time)s", time=closes))
    heading = one(page, "h1")
    assert heading["data-day"] == "1" and text(heading) == f'{tr("Team standings")} · {tr("after day %(n)s", n=1)}'
    day1_played = {m.home_id for m in TeamMatch.objects.filter(round=1)} | {m.away_id for m in
                                                                           TeamMatch.objects.filter(round=1)}
    assert [r.played for r in page.context["rows"]] == [1 if r.team.pk in day1_played else 0
                                                        for r in page.context["rows"]]
    assert [r.number for r in page.context["rounds"]] == [1]
    # Two hours later, with no open dispute, day 1 is final.
    TeamDay.objects.filter(pk=day1.pk).update(standings_published_at=day1.standings_published_at - timedelta(hours=2))
    status = one(_standings(client, tournament)[0], "[data-state]")
    assert (status["data-state"], text(status)) == ("final", tr("Standings final"))
    assert client.post(reverse("arbiter:team_day_publish", args=[tournament.pk, 2])).status_code == 302
    page, _rows = _standings(client, tournament)
    assert page.context["day"].number == 2 and page.context["status"] == "provisional"
    assert _standings(client, tournament, day="1")[0].context["status"] == "final"


def test_disputes_about_a_team_match_within_two_hours_of_the_publication(client_for, tournament, organiser,
                                                                         arbiter, five):
    _play(tournament, organiser, five, days={1})
    client = client_for(arbiter)
    client.post(reverse("arbiter:team_day_publish", args=[tournament.pk, 1]))
    match = TeamMatch.objects.filter(tournament=tournament, round=1).first()
    url = reverse("arbiter:team_arbitration", args=[tournament.pk])
    # From the match page, the dispute form opens on that match.
    link = client.get(reverse("arbiter:team_match", args=[tournament.pk, match.pk]))
    assert one(link, "a#dispute-match")["href"] == f"{url}?incontro={match.pk}#record-dispute"
    form = client.get(url, {"incontro": match.pk}).context["dispute_form"]
    assert (form["about"].value(), form["match"].value()) == ("result", str(match.pk))
    data = {"form": "dispute", "about": "result", "match": str(match.pk), "raised_by": "Capitano Beta",
            "text": "I territori erano 22, non 21."}
    assert client.post(url, data).status_code == 302
    dispute = TeamDispute.objects.get()
    assert (dispute.day, dispute.match, dispute.state) == (1, match, "open")
    # An open dispute keeps the day provisional even after the window.
    day = TeamDay.objects.get(number=1)
    TeamDay.objects.filter(pk=day.pk).update(standings_published_at=day.standings_published_at - timedelta(hours=3))
    assert _standings(client, tournament)[0].context["status"] == "provisional"
    # The window has closed: a new dispute is refused with the time, nothing saved.
    response = client.post(url, data)
    assert response.status_code == 400
    published = TeamDay.objects.get(number=1).standings_published_at
    closed = timezone.localtime(published + timedelta(minutes=120)).strftime("%H:%M")
    assert tr("The time for disputes closed at %(time)s (%(minutes)d minutes after the standings were published).",
              time=closed, minutes=120) in alerts(response)
    assert TeamDispute.objects.count() == 1
    # Deciding it makes the day final.
    response = client.post(reverse("arbiter:team_dispute", args=[tournament.pk, dispute.pk]),
                           {"state": "rejected", "decision": "Conteggio verificato: 21."})
    assert response.status_code == 302
    assert _standings(client, tournament)[0].context["status"] == "final"
    assert list(AuditLog.objects.filter(action__startswith="team.dispute").values_list("action", flat=True)
                .order_by("pk")) == ["team.dispute.record", "team.dispute.rejected"]


def test_the_formats_page_states_the_2vs2_decisions(client_for, tournament, organiser):
    page = client_for(organiser).get(reverse("manage:formats", args=[tournament.pk]))
    decisions = text(one(page, "#decisions-teams_2vs2"))
    assert tr("A team penalty takes match points off the team's standings from the day it is given, never below 0; "
              "head to head counts the matches only.") in decisions
    assert tr("Teams still level after head to head and territories share the place and are listed by name.") \
        in decisions
