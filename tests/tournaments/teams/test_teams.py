"""tournaments.teams: 2vs2 teams, round robin, lineups, match results; their standings (tables.standings.selectors,
seed 001)."""
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from tables.standings import selectors as standings_selectors
from tests.factories import RegistrationFactory, TournamentFactory
from tests.html import alerts, one, tr
from tournaments.teams import selectors as team_selectors
from tournaments.teams import services as teams
from tournaments.models import AuditLog, Registration, TeamMatch


@pytest.fixture
def regs(tournament):
    return [RegistrationFactory(tournament=tournament, player__last_name=f"G{i:02d}") for i in range(12)]


def _team(tournament, organiser, name, members):
    return teams.team_create(user=organiser, tournament=tournament, name=name, registrations=members,
                             captain=members[0])


@pytest.fixture
def four_teams(tournament, organiser, regs):
    return [_team(tournament, organiser, name, regs[i * 2:i * 2 + 2]) for i, name in enumerate("ABCD")]


def _result(match, organiser, ending, decided_by=None, territories=(0, 0), best=(0, 0), points=(0, 0)):
    match.refresh_from_db()
    teams.match_result_submit(user=organiser, match=match, ending=ending, decided_by=decided_by,
                              territories=territories, best=best,
                              territory_points=tuple(Decimal(p) for p in points), version=match.version)
    match.refresh_from_db()
    return match


def test_team_create_records_members_captain_and_audit(tournament, organiser, regs):
    team = teams.team_create(user=organiser, tournament=tournament, name="Carri Armati",
                             registrations=regs[:3], captain=regs[1])
    assert [(m.registration.player.last_name, m.captain) for m in team.members.order_by("registration__pk")] == [
        ("G00", False), ("G01", True), ("G02", False)]
    entry = AuditLog.objects.get(action="team.create")
    assert entry.after["captain"] == regs[1].player.full_name


def test_a_2vs2_team_without_a_name_takes_its_players_surnames(tournament, organiser, regs):
    assert _team(tournament, organiser, "", regs[:2]).name == "G00 – G01"
    assert _team(tournament, organiser, "  ", regs[2:5]).name == "G02 – G03 – G04"


@pytest.mark.parametrize("count", [1, 4])
def test_team_create_needs_two_or_three_players(tournament, organiser, regs, count):
    with pytest.raises(ValidationError) as exc:
        _team(tournament, organiser, "Troppi", regs[:count])
    assert exc.value.message_dict == {"players": ["A team has 2 or 3 confirmed players of this tournament."]}


def test_team_create_refuses_a_player_of_another_team_or_tournament(tournament, organiser, regs):
    _team(tournament, organiser, "Uno", regs[:2])
    with pytest.raises(ValidationError) as exc:
        _team(tournament, organiser, "Due", regs[1:3])
    assert exc.value.message_dict == {"players": [f"Already in a team: {regs[1].player.full_name}."]}
    stranger = RegistrationFactory(tournament=TournamentFactory())
    with pytest.raises(ValidationError):
        _team(tournament, organiser, "Tre", [regs[3], stranger])


def test_team_create_refuses_a_pending_player_and_a_duplicate_name(tournament, organiser, regs):
    regs[0].status = Registration.Status.PENDING
    regs[0].save()
    with pytest.raises(ValidationError):
        _team(tournament, organiser, "Uno", regs[:2])
    _team(tournament, organiser, "Uno", regs[2:4])
    with pytest.raises(ValidationError) as exc:
        _team(tournament, organiser, "UNO", regs[4:6])
    assert exc.value.message_dict == {"name": ["A team with this name already exists."]}


def test_schedule_is_a_single_round_robin_with_a_rest_for_odd_teams(tournament, organiser, regs):
    made = [_team(tournament, organiser, name, regs[i * 2:i * 2 + 2]) for i, name in enumerate("ABCDE")]
    rounds = teams.schedule_create(user=organiser, tournament=tournament)
    assert len(rounds) == 5
    pairs = {frozenset((m.home_id, m.away_id)) for m in TeamMatch.objects.filter(tournament=tournament)}
    assert len(pairs) == TeamMatch.objects.filter(tournament=tournament).count() == 10
    schedule = team_selectors.team_schedule(tournament)
    assert sorted(r.bye.name for r in schedule) == ["A", "B", "C", "D", "E"]
    assert all(len(r.matches) == 2 for r in schedule)
    assert len(made) == 5


def test_schedule_fills_the_lineup_of_teams_of_two_only(tournament, organiser, regs):
    _team(tournament, organiser, "Tre", regs[:3])
    _team(tournament, organiser, "Due", regs[3:5])
    teams.schedule_create(user=organiser, tournament=tournament)
    match = TeamMatch.objects.get()
    home_is_three = match.home.name == "Tre"
    three, two = (match.home_lineup, match.away_lineup) if home_is_three else (match.away_lineup, match.home_lineup)
    assert (three.count(), two.count()) == (0, 2)


def test_schedule_freezes_the_teams(tournament, organiser, four_teams, regs):
    teams.schedule_create(user=organiser, tournament=tournament)
    with pytest.raises(ValidationError):
        teams.schedule_create(user=organiser, tournament=tournament)
    with pytest.raises(ValidationError):
        _team(tournament, organiser, "Tardi", regs[10:12])
    with pytest.raises(ValidationError):
        teams.team_delete(user=organiser, team=four_teams[0])


def test_lineup_takes_two_players_of_the_team(tournament, organiser, regs):
    three = _team(tournament, organiser, "Tre", regs[:3])
    _team(tournament, organiser, "Due", regs[3:5])
    teams.schedule_create(user=organiser, tournament=tournament)
    match = TeamMatch.objects.get()
    with pytest.raises(ValidationError):
        teams.lineup_set(user=organiser, match=match, team=three, registrations=regs[:3])
    with pytest.raises(ValidationError):
        teams.lineup_set(user=organiser, match=match, team=three, registrations=[regs[0], regs[3]])
    teams.lineup_set(user=organiser, match=match, team=three, registrations=[regs[0], regs[2]])
    lineup = match.home_lineup if match.home_id == three.pk else match.away_lineup
    assert sorted(lineup.values_list("pk", flat=True)) == [regs[0].pk, regs[2].pk]
    assert AuditLog.objects.filter(action="team.lineup").count() == 1


def test_result_needs_both_lineups_unless_forfeit(tournament, organiser, regs):
    three = _team(tournament, organiser, "Tre", regs[:3])
    _team(tournament, organiser, "Due", regs[3:5])
    teams.schedule_create(user=organiser, tournament=tournament)
    match = TeamMatch.objects.get()
    with pytest.raises(ValidationError):
        _result(match, organiser, "time", territories=(22, 20))
    _result(match, organiser, "forfeit", decided_by=three)
    assert team_selectors.match_points(match) == {three.pk: 3, match.home_id if match.away_id == three.pk else match.away_id: 0}


@pytest.mark.parametrize("ending, by_home, territories, best, points, expected", [
    ("wipeout", True, (30, 0), (16, 0), (0, 0), (3, 0)),
    ("risiko", True, (20, 20), (10, 10), (0, 0), (0, 3)),
    ("forfeit", False, (0, 0), (0, 0), (0, 0), (0, 3)),
    ("forfeit", None, (0, 0), (0, 0), (0, 0), (0, 0)),
    ("time", None, (22, 20), (12, 11), (0, 0), (2, 1)),
    ("time", None, (20, 22), (12, 11), (0, 0), (1, 2)),
    ("time", None, (21, 21), (12, 11), (0, 0), (2, 1)),
    ("time", None, (21, 21), (11, 11), (40, 45), (1, 2)),
    ("time", None, (21, 21), (11, 11), (40, 40), (1, 1)),
])
def test_match_points_follow_seed_001(tournament, organiser, four_teams, ending, by_home, territories, best,
                                      points, expected):
    teams.schedule_create(user=organiser, tournament=tournament)
    match = TeamMatch.objects.filter(tournament=tournament).select_related("home", "away").first()
    decided_by = None if by_home is None else (match.home if by_home else match.away)
    _result(match, organiser, ending, decided_by, territories, best, points)
    got = team_selectors.match_points(match)
    assert (got[match.home_id], got[match.away_id]) == expected


def test_match_result_refuses_impossible_territories_and_a_missing_team(tournament, organiser, four_teams):
    teams.schedule_create(user=organiser, tournament=tournament)
    match = TeamMatch.objects.filter(tournament=tournament).first()
    with pytest.raises(ValidationError) as exc:
        _result(match, organiser, "time", territories=(30, 20))
    assert exc.value.message_dict == {"territories": ["Territories are whole numbers adding up to at most 42."]}
    with pytest.raises(ValidationError) as exc:
        _result(match, organiser, "wipeout", territories=(30, 0))
    assert exc.value.messages == ["Say which team eliminated the other, made RisiKo! or was present."]
    assert TeamMatch.objects.get(pk=match.pk).reported_at is None


def test_match_result_refuses_a_save_on_an_older_version(tournament, organiser, arbiter, four_teams):
    teams.schedule_create(user=organiser, tournament=tournament)
    match = TeamMatch.objects.filter(tournament=tournament).first()
    teams.match_result_submit(user=arbiter, match=match, ending="time", territories=(22, 20), version=0)
    with pytest.raises(teams.StaleMatch) as exc:
        teams.match_result_submit(user=organiser, match=match, ending="time", territories=(10, 20), version=0)
    assert exc.value.match.home_territories == 22
    corrected = teams.match_result_submit(user=organiser, match=match, ending="time", territories=(10, 20),
                                          version=1)
    assert (corrected.version, corrected.home_territories) == (2, 10)
    assert list(AuditLog.objects.filter(action__startswith="team.result").order_by("pk")
                .values_list("action", flat=True)) == ["team.result", "team.result.correct"]


def test_a_stale_match_form_shows_the_saved_result_and_a_second_tap_keeps_it(client_for, tournament, organiser,
                                                                            arbiter, four_teams):
    """Two arbiters on one match: the one saving on the older version is refused, and the form then
    holds what the other saved (not the rejected values) on the new version."""
    teams.schedule_create(user=organiser, tournament=tournament)
    match = TeamMatch.objects.filter(tournament=tournament).first()
    teams.match_result_submit(user=organiser, match=match, ending="time", territories=(23, 19), best=(12, 10),
                              version=0)
    url = reverse("arbiter:team_match", args=[tournament.pk, match.pk])
    client = client_for(arbiter)
    typed = {"form": "result", "version": "0", "ending": "time", "decided_by": "", "home_territories": "15",
             "away_territories": "27", "home_best": "8", "away_best": "14", "home_territory_points": "0",
             "away_territory_points": "0"}
    response = client.post(url, typed)
    assert response.status_code == 409
    assert alerts(response) == [tr("%(who)s saved this match while you were typing: your result was not saved. "
                                   "Check it below and save again if needed.", who="olga")]
    form = response.context["result_form"]
    assert not form.is_bound
    assert [form[name].value() for name in ("ending", "home_territories", "away_territories", "home_best",
                                            "away_best")] == ["time", 23, 19, 12, 10]
    assert one(response, "input[name=version]")["value"] == "1"
    # The second tap sends what the form holds: the saved result stands.
    again = {**typed, "version": "1", "home_territories": "23", "away_territories": "19", "home_best": "12",
             "away_best": "10"}
    assert client.post(url, again).status_code == 302
    saved = TeamMatch.objects.get(pk=match.pk)
    assert (saved.home_territories, saved.away_territories, saved.version) == (23, 19, 2)


def test_team_standings_points_then_head_to_head_then_territories(tournament, organiser, four_teams):
    a, b, c, d = four_teams
    teams.schedule_create(user=organiser, tournament=tournament)

    def match(x, y):
        return TeamMatch.objects.get(tournament=tournament, home__in=[x, y], away__in=[x, y])

    def time_win(m, winner, won=25):
        m.refresh_from_db()
        home_won = m.home_id == winner.pk
        _result(m, organiser, "time", territories=(won, 42 - won) if home_won else (42 - won, won))

    # B and C end with 5 points, C beat B; A and D with 4, A beat D.
    _result(match(a, b), organiser, "wipeout", b, territories=(0, 30) if match(a, b).home_id == a.pk else (30, 0))
    time_win(match(a, c), a)
    time_win(match(a, d), a)
    time_win(match(b, c), c)
    time_win(match(b, d), d)
    time_win(match(c, d), c, won=30)
    rows = standings_selectors.team_standings(tournament)
    assert [(r.rank, r.team.name, r.points, r.played) for r in rows] == [
        (1, "C", 5, 3), (2, "B", 5, 3), (3, "A", 4, 3), (4, "D", 4, 3)]


def test_team_standings_page_and_match_page(client_for, tournament, organiser, arbiter, four_teams):
    teams.schedule_create(user=organiser, tournament=tournament)
    match = TeamMatch.objects.filter(tournament=tournament).select_related("home", "away").first()
    client = client_for(arbiter)
    url = reverse("arbiter:team_match", args=[tournament.pk, match.pk])
    response = client.post(url, {"form": "result", "version": "0", "ending": "time", "decided_by": "",
                                 "home_territories": "23", "away_territories": "19", "home_best": "12",
                                 "away_best": "10", "home_territory_points": "0", "away_territory_points": "0"})
    assert response.status_code == 302
    assert team_selectors.match_points(TeamMatch.objects.get(pk=match.pk)) == {match.home_id: 2, match.away_id: 1}
    page = client.get(reverse("public:team_standings", args=[tournament.pk]))
    assert page.status_code == 200
    assert [(r.team.name, r.points) for r in page.context["rows"]][:1] == [(match.home.name, 2)]


def test_team_match_page_shows_form_errors(client_for, tournament, arbiter, organiser, four_teams):
    teams.schedule_create(user=organiser, tournament=tournament)
    match = TeamMatch.objects.filter(tournament=tournament).first()
    response = client_for(arbiter).post(reverse("arbiter:team_match", args=[tournament.pk, match.pk]), {
        "form": "result", "version": "0", "ending": "wipeout", "decided_by": "", "home_territories": "30",
        "away_territories": "0", "home_best": "15", "away_best": "0", "home_territory_points": "0",
        "away_territory_points": "0"})
    assert response.status_code == 400
    assert response.context["result_form"].non_field_errors() == [
        "Say which team eliminated the other, made RisiKo! or was present."]


def test_teams_page_registers_a_team(client_for, tournament, organiser, regs):
    client = client_for(organiser)
    response = client.post(reverse("manage:teams", args=[tournament.pk]), {
        "name": "I Lariani", "players": [str(regs[0].pk), str(regs[1].pk)], "captain": str(regs[1].pk)})
    assert response.status_code == 302
    team = tournament.teams.get()
    assert (team.name, team.members.get(captain=True).registration) == ("I Lariani", regs[1])


def test_team_standings_page_queries_do_not_grow_with_teams(client, organiser):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def count(n):
        t = TournamentFactory(organiser=organiser)
        regs = [RegistrationFactory(tournament=t) for _ in range(2 * n)]
        for i in range(n):
            _team(t, organiser, f"S{i}", regs[2 * i:2 * i + 2])
        teams.schedule_create(user=organiser, tournament=t)
        for match in TeamMatch.objects.filter(tournament=t):
            _result(match, organiser, "time", territories=(22, 20))
        with CaptureQueriesContext(connection) as queries:
            assert client.get(reverse("public:team_standings", args=[t.pk])).status_code == 200
        return len(queries)
    assert count(2) == count(6)


def test_team_pages_name_the_round_robin_days_giornata_as_the_2vs2_rules_do(client_for, tournament, organiser,
                                                                             arbiter, four_teams):
    """Seed 001 art. 2 publishes the standings "al completamento di ogni giornata": the public standings,
    the arbiter's matches and a match page say "Giornata", as the team arbitration page does."""
    teams.schedule_create(user=organiser, tournament=tournament)
    match = TeamMatch.objects.filter(tournament=tournament, round=2).first()
    client = client_for(arbiter)
    client.cookies["django_language"] = "it"
    pages = {
        "standings": client.get(reverse("public:team_standings", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE="it"),
        "matches": client.get(reverse("arbiter:team_matches", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE="it"),
        "match": client.get(reverse("arbiter:team_match", args=[tournament.pk, match.pk]), HTTP_ACCEPT_LANGUAGE="it"),
        "arbitration": client.get(reverse("arbiter:team_arbitration", args=[tournament.pk]),
                                  HTTP_ACCEPT_LANGUAGE="it"),
    }
    for name, page in pages.items():
        text = page.content.decode()
        assert page.status_code == 200, name
        assert "Giornata 2" in text, name
        assert "Turno" not in text, name
