"""Every refusal the 2vs2 pages catch, reached through the pages: shown on the page, nothing saved."""
import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from tests.factories import RegistrationFactory
from tables.arbitration import services as team_arbitration
from tournaments.teams import services as teams
from tables.models import TeamDispute, TeamPenalty
from tournaments.models import AuditLog, Team, TeamMatch


@pytest.fixture
def regs(tournament):
    return [RegistrationFactory(tournament=tournament, player__last_name=f"G{i:02d}") for i in range(8)]


@pytest.fixture
def scheduled(tournament, organiser, regs):
    for i, name in enumerate("ABCD"):
        teams.team_create(user=organiser, tournament=tournament, name=name, registrations=regs[i * 2:i * 2 + 2],
                          captain=regs[i * 2])
    teams.schedule_create(user=organiser, tournament=tournament)
    return TeamMatch.objects.filter(tournament=tournament).select_related("home", "away").first()


RESULT = {"form": "result", "ending": "time", "decided_by": "", "home_territories": "23", "away_territories": "19",
          "home_best": "12", "away_best": "10", "home_territory_points": "0", "away_territory_points": "0"}


def test_a_team_of_one_player_is_refused_on_the_teams_page(client_for, tournament, organiser, regs):
    response = client_for(organiser).post(reverse("manage:teams", args=[tournament.pk]), {
        "name": "Da soli", "players": [str(regs[0].pk)], "captain": str(regs[0].pk)})
    assert response.status_code == 400
    assert response.context["form"].errors["players"] == ["A team has 2 or 3 confirmed players of this tournament."]
    assert not Team.objects.exists()


def test_a_result_sent_without_a_version_is_a_stale_save(client_for, tournament, arbiter, organiser, scheduled):
    teams.match_result_submit(user=organiser, match=scheduled, ending="time", territories=(22, 20), version=0)
    response = client_for(arbiter).post(reverse("arbiter:team_match", args=[tournament.pk, scheduled.pk]),
                                        {**RESULT, "version": "not a number"})
    assert response.status_code == 409
    assert response.context["conflict"].home_territories == 22
    assert TeamMatch.objects.get(pk=scheduled.pk).home_territories == 22


def test_a_result_saved_on_an_older_version_shows_what_was_saved(client_for, tournament, arbiter, organiser,
                                                                 scheduled):
    teams.match_result_submit(user=organiser, match=scheduled, ending="time", territories=(22, 20), version=0)
    response = client_for(arbiter).post(reverse("arbiter:team_match", args=[tournament.pk, scheduled.pk]),
                                        {**RESULT, "version": "0"})
    assert response.status_code == 409
    assert (response.context["conflict"].home_territories, response.context["conflict"].version) == (22, 1)
    assert list(AuditLog.objects.filter(action__startswith="team.result").values_list("action", flat=True)) == [
        "team.result"]


def test_a_team_penalty_refused_by_the_service_is_shown_on_the_page(client_for, tournament, arbiter, scheduled,
                                                                     monkeypatch):
    # The form lets through only teams and days of the schedule; a refusal left to the service (a
    # day made unavailable between loading and sending) is shown like the form's own errors.
    def refuse(**kwargs):
        raise ValidationError({"day": "Choose a day of the schedule."})
    monkeypatch.setattr(team_arbitration, "team_penalty_give", refuse)
    response = client_for(arbiter).post(reverse("arbiter:team_arbitration", args=[tournament.pk]), {
        "form": "penalty", "team": str(scheduled.home_id), "day": "1", "points": "2", "reason": "Ritardo"})
    assert response.status_code == 400
    assert response.context["penalty_form"].errors["day"] == ["Choose a day of the schedule."]
    assert not TeamPenalty.objects.exists()


def test_a_dispute_decided_twice_is_refused_on_the_page(client_for, tournament, arbiter, organiser, scheduled):
    teams.match_result_submit(user=organiser, match=scheduled, ending="time", territories=(22, 20), version=0)
    for match in TeamMatch.objects.filter(tournament=tournament, round=1).exclude(pk=scheduled.pk):
        teams.match_result_submit(user=organiser, match=match, ending="time", territories=(21, 20),
                                  version=match.version)
    team_arbitration.team_day_publish(user=organiser, tournament=tournament, number=1)
    dispute = team_arbitration.team_dispute_record(user=arbiter, tournament=tournament, about="result",
                                                   raised_by="Capitano", text="Territori", match=scheduled)
    team_arbitration.team_dispute_decide(user=organiser, dispute=dispute, state="rejected", decision="Verificato")
    response = client_for(arbiter).post(reverse("arbiter:team_dispute", args=[tournament.pk, dispute.pk]),
                                        {"state": "upheld", "decision": "Accolto"})
    assert response.status_code == 400
    assert response.context["form"].non_field_errors() == ["This dispute is already decided."]
    dispute.refresh_from_db()
    assert (dispute.state, dispute.decision) == ("rejected", "Verificato")
