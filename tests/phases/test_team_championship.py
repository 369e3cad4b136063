"""The national team championship (SCORING.md 13.10, format `team_championship`) driven through the web: the
organiser sets the format and composes club teams of 4, the draw seats 3 rounds, arbiters enter every table
on the result form, and the team table (best 9 of 12, the discarded struck through) stands beside the
individual standings, on the public page, its JSON and the organiser's CSV."""
import csv
import io
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse

from scoring import Game, PlayerResult
from scoring.numeric import shown
from scoring.team_championship import ChampionshipTeam, score_team_championship
from tables import engine
from tables.models import Round, Seat
from tables.standings import championship as championship_module
from tables.standings import versioned
from tables.standings.selectors import tournament_standings
from phases import services as formats
from tests.factories import ClubFactory, RegistrationFactory, report, seat_round
from tables.templatetags.torneo import points as _shown
from tests.html import field_errors, messages, one, select, text, texts, tr
from tournaments.models import AuditLog, Team
from tournaments.teams import championship_services

CLUBS = ("Lario", "Brianza", "Ticino", "Adda")
# Table points by the seat's strength at its table (the strongest first): no two alike, nobody eliminated.
TABLE_POINTS = (62, 48, 30, 12)


@pytest.fixture
def clubs(db):
    return {name: ClubFactory(name=name) for name in CLUBS}


@pytest.fixture
def players(tournament, clubs):
    """16 players checked in, 4 of each club; the i-th of a club is its (4 - i)-th strongest."""
    return {name: [RegistrationFactory(tournament=tournament, present=True, player__club=club,
                                       player__last_name=f"{name}{i}") for i in range(4)]
            for name, club in clubs.items()}


def _set_format(client, tournament):
    response = client.post(reverse("manage:formats", args=[tournament.pk]),
                           {"form": "format", "preset": "team_championship"})
    assert response.status_code == 302
    tournament.refresh_from_db()


def _compose(client, tournament, name, regs):
    return client.post(reverse("manage:championship_teams", args=[tournament.pk]),
                       {"name": name, "players": [r.pk for r in regs]})


def _strength(players):
    """A different strength for every player: club by club, then inside the club."""
    order = [r for i in range(4) for name in CLUBS for r in [players[name][i]]]
    return {r.pk: len(order) - n for n, r in enumerate(order)}


def _play_round(organiser_client, arbiter_client, tournament, number, strength):
    """The organiser draws and publishes the next qualifying round; the arbiter enters every table on its
    result form (the strongest at the table first); the organiser closes the round."""
    response = organiser_client.post(reverse("manage:phase_action", args=[tournament.pk, 1, "draw"]))
    assert response.status_code == 302
    response = organiser_client.post(reverse("manage:phase_action", args=[tournament.pk, 1, "publish"]))
    assert response.status_code == 302
    rnd = tournament.rounds.get(number=number)
    assert rnd.status == Round.Status.PUBLISHED
    for table in rnd.tables.order_by("number"):
        seats = list(table.seats.order_by("position"))
        by_strength = sorted(seats, key=lambda s: -strength[s.registration_id])
        points = {s.pk: TABLE_POINTS[i] for i, s in enumerate(by_strength)}
        data = {"version": table.version}
        for i, seat in enumerate(seats):
            data.update({f"p{i}-seat": seat.pk, f"p{i}-table_points": points[seat.pk]})
        response = arbiter_client.post(reverse("arbiter:table", args=[tournament.pk, number, table.number]), data)
        assert response.status_code == 302, response.content[:400]
    response = organiser_client.post(reverse("manage:round_action", args=[tournament.pk, number, "close"]))
    assert response.status_code == 302
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.CLOSED
    return rnd


def _expected(tournament, teams):
    """The team table as scoring.team_championship computes it from the saved seats (read here, not
    through the app's standings)."""
    games = {}
    for seat in Seat.objects.filter(table__round__tournament=tournament).select_related("table__round"):
        games.setdefault((seat.table.round.number, seat.table.number), []).append(PlayerResult(
            id=seat.registration_id, table_points=seat.table_points, eliminated=seat.eliminated))
    games = [Game(round=r, table=t, players=tuple(p)) for (r, t), p in sorted(games.items())]
    entered = [ChampionshipTeam(t.pk, tuple(m.registration_id for m in t.members.all())) for t in teams]
    return score_team_championship("standard", engine.params_for(tournament), games, (), entered, 9)


@pytest.fixture
def championship(client_for, tournament, organiser, arbiter, players, django_user_model):
    """The whole championship: the format, 4 teams (one per club), 3 rounds entered by the arbiter."""
    organiser_client = client_for(organiser)
    _set_format(organiser_client, tournament)
    for name in CLUBS:
        response = _compose(organiser_client, tournament, f"{name} A", players[name])
        assert response.status_code == 302
    arbiter_client = Client()
    arbiter_client.force_login(arbiter)
    strength = _strength(players)
    rounds = [_play_round(organiser_client, arbiter_client, tournament, n, strength) for n in (1, 2, 3)]
    organiser_client.get(reverse("manage:championship_teams", args=[tournament.pk]))  # the messages, read
    return {"client": organiser_client, "rounds": rounds, "teams": list(Team.objects.filter(tournament=tournament)
                                                                          .order_by("pk"))}


def test_the_format_sets_standard_points_three_games_and_links_the_teams_page(client_for, tournament, organiser):
    client = client_for(organiser)
    _set_format(client, tournament)
    assert (tournament.format_preset, tournament.formula, tournament.rounds_planned, tournament.discard_worst,
            tournament.best_of) == ("team_championship", "standard", 3, 0, None)
    assert [(p.kind, p.rounds) for p in tournament.phases.order_by("order")] == [("qualifying", 3)]
    page = client.get(reverse("manage:formats", args=[tournament.pk]))
    assert one(page, "#championship-teams-link")["href"] == reverse("manage:championship_teams", args=[tournament.pk])
    assert text(one(page, "label[for=preset-team_championship] .help:not(.decisions)")) == tr(
        "National team championship: every player plays 3 individual games (standard points: "
        "12, 7, 5, 3 and the table points as decimals); the clubs enter teams of 4 of their own players, and a "
        "team's total is the sum of its 9 best results out of 12 (3 discarded).")


def test_teams_are_four_players_of_one_club_and_a_player_is_in_one_team(client_for, tournament, organiser, players):
    client = client_for(organiser)
    _set_format(client, tournament)
    lario, brianza = players["Lario"], players["Brianza"]
    response = _compose(client, tournament, "Misti", lario[:2] + brianza[:2])
    assert response.status_code == 400
    assert field_errors(response, "players") == [
        tr("The 4 players of a team are of one club; these are of %(clubs)s.", clubs="Brianza, Lario")]
    response = _compose(client, tournament, "Tre", lario[:3])
    assert response.status_code == 400
    assert field_errors(response, "players") == [tr("A team has exactly %(size)d players: %(n)d chosen.", size=4, n=3)]
    assert Team.objects.count() == 0
    assert _compose(client, tournament, "Lario A", lario).status_code == 302
    response = _compose(client, tournament, "Lario B", [lario[0]] + list(brianza[:3]))
    assert response.status_code == 400
    assert field_errors(response, "players") == [
        tr("The 4 players of a team are of one club; these are of %(clubs)s.", clubs="Brianza, Lario")]
    response = _compose(client, tournament, "Lario B", lario)
    assert field_errors(response, "players") == [
        tr("Already in a team: %(names)s.", names=", ".join(r.player.full_name for r in lario))]
    response = _compose(client, tournament, "lario a", brianza)
    assert field_errors(response, "name") == [tr("A team with this name already exists.")]
    assert [(t.name, sorted(m.registration_id for m in t.members.all())) for t in Team.objects.all()] == [
        ("Lario A", sorted(r.pk for r in lario))]
    # The page lists the team with its club; the free players by club, Lario's no longer among them.
    page = client.get(reverse("manage:championship_teams", args=[tournament.pk]))
    assert texts(page, "#championship-teams [data-team-club]") == ["Lario"]
    assert [g["data-club"] for g in select(page, ".club-group")] == ["Adda", "Brianza", "Ticino"]


def test_a_team_without_a_name_takes_its_clubs_numbered_from_the_second(client_for, tournament, organiser,
                                                                          players, clubs):
    client = client_for(organiser)
    _set_format(client, tournament)
    more = [RegistrationFactory(tournament=tournament, present=True, player__club=clubs["Lario"],
                                player__last_name=f"Lario{i}") for i in range(4, 8)]
    assert _compose(client, tournament, "", players["Lario"]).status_code == 302
    assert _compose(client, tournament, "", more).status_code == 302
    assert _compose(client, tournament, "", players["Adda"]).status_code == 302
    assert list(Team.objects.order_by("pk").values_list("name", flat=True)) == ["Lario", "Lario 2", "Adda"]


def test_a_team_is_renamed_and_dissolved_before_results_with_audit(client_for, tournament, organiser, players):
    client = client_for(organiser)
    _set_format(client, tournament)
    _compose(client, tournament, "Lario A", players["Lario"])
    assert messages(client.get(reverse("manage:championship_teams", args=[tournament.pk]))) == [
        tr("Format saved: the phases are ready."), tr("Team registered.")]
    team = Team.objects.get()
    response = client.post(reverse("manage:championship_team_rename", args=[tournament.pk, team.pk]),
                           {"rename-name": "Lariani"}, follow=True)
    assert messages(response) == [tr("Team renamed.")]
    assert texts(response, "#championship-teams [data-team-name]") == ["Lariani"]
    response = client.post(reverse("manage:championship_team_dissolve", args=[tournament.pk, team.pk]), follow=True)
    assert messages(response) == [tr("Team dissolved: its players are free.")]
    assert Team.objects.count() == 0
    assert list(AuditLog.objects.filter(action__startswith="championship_team.").order_by("pk")
                .values_list("action", "before", "after")) == [
        ("championship_team.create", None, {"name": "Lario A", "club": "Lario",
                                            "players": [r.player.full_name for r in players["Lario"]]}),
        ("championship_team.rename", {"name": "Lario A"}, {"name": "Lariani"}),
        ("championship_team.dissolve", {"name": "Lariani", "players": [r.player.full_name for r in players["Lario"]]},
         None)]


def test_the_draw_keeps_team_mates_apart(championship):
    for rnd in championship["rounds"]:
        for table in rnd.tables.all():
            clubs = [s.registration.player.club.name for s in table.seats.select_related("registration__player__club")]
            assert sorted(clubs) == sorted(CLUBS)


def test_the_team_table_is_the_engines_best_9_of_12_beside_the_individual_standings(championship, tournament,
                                                                                     client):
    expected = _expected(tournament, championship["teams"])
    names = {t.pk: t.name for t in championship["teams"]}
    page = client.get(reverse("public:championship_standings", args=[tournament.pk]))
    assert page.status_code == 200
    rows = select(page, "#championship-table tbody tr")
    assert [(text(one(r, "[data-rank]")), text(one(r, "[data-team-name]")), text(one(r, "[data-club]")),
             text(one(r, "[data-total]")), text(one(r, "[data-played]"))) for r in rows] == [
        (str(t.rank), names[t.team], names[t.team].split()[0], _shown(t.total), "12") for t in expected.teams]
    for row, team in zip(rows, expected.teams):
        counted = texts(row, "[data-counted]")
        discarded = select(row, "[data-discarded]")
        assert counted == [_shown(p) for p in team.counted] and len(counted) == 9
        assert len(discarded) == 3 and all(d.find("s") is not None for d in discarded)
        assert shown(sum(team.counted)) == team.total
    # Every result of a team is counted or discarded: its 12 games' points, best first.
    results = {t.team: sorted((p for g in expected.result.games for r, p in g.points.items()
                               if r in {m.registration_id for m in Team.objects.get(pk=t.team).members.all()}),
                              reverse=True) for t in expected.teams}
    assert [texts(r, "[data-counted]") + [text(d) for d in select(r, "[data-discarded]")] for r in rows] == [
        [_shown(p) for p in results[t.team]] for t in expected.teams]
    # The individual standings beside: the same order as the standings page, each player's team named.
    individual = tournament_standings(tournament)
    assert [(text(one(r, "a")), texts(r, "[data-player-team]")) for r in select(page, "#individual-standings tbody tr")] \
        == [(row.player.display_name, [names_of_player(championship, row.registration_id)]) for row in individual.rows]
    assert one(page, "#full-standings-link")["href"] == reverse("public:standings", args=[tournament.pk])
    standings = client.get(reverse("public:standings", args=[tournament.pk]))
    assert one(standings, "#championship-standings-link")["href"] == reverse("public:championship_standings",
                                                                            args=[tournament.pk])


def names_of_player(championship, reg_id):
    return next(t.name for t in championship["teams"] if reg_id in {m.registration_id for m in t.members.all()})


def test_the_json_and_the_csv_give_the_same_table(championship, tournament, client):
    expected = _expected(tournament, championship["teams"])
    names = {t.pk: t.name for t in championship["teams"]}
    live = client.get(reverse("public:championship_json", args=[tournament.pk]) + "?live=1").json()
    assert (live["status"], live["after_round"], live["best"]) == ("provisional", 3, 9)
    assert [(t["rank"], t["team"], t["total"], t["counted"], len(t["discarded"]), t["played"]) for t in live["teams"]] \
        == [(e.rank, names[e.team], float(e.total), [float(p) for p in e.counted], 3, 12) for e in expected.teams]
    # Without ?live=1 only the rounds whose standings are published count: none yet.
    published = client.get(reverse("public:championship_json", args=[tournament.pk])).json()
    assert (published["after_round"], [t["played"] for t in published["teams"]]) == (None, [0, 0, 0, 0])
    response = championship["client"].get(reverse("manage:championship_csv", args=[tournament.pk]) + "?format=csv")
    lines = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert lines[0] == ["Rank", "Team", "Club", "Players", "Total", "Games", "Counted results", "Discarded results"]
    assert [(int(line[0]), line[1], Decimal(line[4]), int(line[5]), len(line[6].split()), len(line[7].split()))
            for line in lines[1:]] == [(e.rank, names[e.team], e.total, 12, 9, 3) for e in expected.teams]
    manage = championship["client"].get(reverse("manage:championship_table", args=[tournament.pk]))
    assert texts(manage, "#championship-table [data-total]") == [_shown(e.total) for e in expected.teams]


@pytest.mark.django_db(transaction=True)  # the pages read what the requests committed
def test_the_team_table_is_computed_once_per_version_of_the_results(championship, tournament, client, monkeypatch):
    calls = []
    compute = championship_module.championship_table
    monkeypatch.setattr(championship_module, "championship_table",
                        lambda *args, **kwargs: calls.append(1) or compute(*args, **kwargs))
    url = reverse("public:championship_standings", args=[tournament.pk])
    client.get(url)
    client.get(url + "?x=1")
    assert len(calls) == 1
    assert versioned.peek(versioned.tournament_slot("team-championship", tournament)) is not None
    # A rename is audited: a new version, computed again.
    team = championship["teams"][0]
    championship["client"].post(reverse("manage:championship_team_rename", args=[tournament.pk, team.pk]),
                                {"rename-name": "Lariani"})
    assert texts(client.get(url), "#championship-table [data-team-name]").count("Lariani") == 1
    assert len(calls) == 2


def test_after_the_first_result_teams_can_no_longer_be_dissolved(championship, tournament, players):
    client = championship["client"]
    team = championship["teams"][0]
    response = client.post(reverse("manage:championship_team_dissolve", args=[tournament.pk, team.pk]), follow=True)
    assert messages(response) == [tr("Results are entered: teams can no longer be composed or dissolved.")]
    assert Team.objects.filter(pk=team.pk).exists()
    assert select(response, "[data-dissolve]") == []


def test_a_player_without_a_team_plays_and_counts_for_no_team(client_for, tournament, organiser, arbiter, players,
                                                             clubs):
    """Three teams of four; the four players of Adda in none: they play and are ranked individually, and
    the team ranks close up over them."""
    client = client_for(organiser)
    _set_format(client, tournament)
    for name in CLUBS[:3]:
        assert _compose(client, tournament, f"{name} A", players[name]).status_code == 302
    arbiter_client = Client()
    arbiter_client.force_login(arbiter)
    _play_round(client, arbiter_client, tournament, 1, _strength(players))
    page = client.get(reverse("public:championship_standings", args=[tournament.pk]))
    assert sorted(texts(page, "#championship-table [data-team-name]")) == ["Brianza A", "Lario A", "Ticino A"]
    assert texts(page, "#championship-table [data-rank]")[0] == "1"
    assert texts(page, "#championship-table [data-played]") == ["4", "4", "4"]
    assert texts(page, "#individual-standings [data-player-team]").count("Lario A") == 4
    assert len(select(page, "#individual-standings tbody tr")) == 16


def test_the_team_table_worked_by_hand(tournament, organiser, players, client):
    """Each round one player of each club at every table; club c's player takes the (c + t * r)-th place
    at table t of round r (from 0), with table points 62, 48, 30, 12: standard points 12.62, 7.48, 5.30,
    3.12. Lario's 12 results: 12.62 seven times, 7.48, 5.30 three times, 3.12: the best 9 make 101.12,
    5.30, 5.30 and 3.12 are discarded."""
    formats.format_apply(user=organiser, tournament=tournament, preset="team_championship")
    for name in CLUBS:
        championship_services.championship_team_create(user=organiser, tournament=tournament, name=f"{name} A",
                                                        registrations=players[name])
    for r in range(3):
        rnd = seat_round(tournament, [[players[c][(t + n * r) % 4] for n, c in enumerate(CLUBS)] for t in range(4)])
        for t, table in enumerate(rnd.tables.order_by("number")):
            report(table, [(TABLE_POINTS[(c + t * r) % 4],) for c in range(4)])
    teams = client.get(reverse("public:championship_json", args=[tournament.pk]) + "?live=1").json()["teams"]
    assert [(t["rank"], t["team"], t["club"], t["total"], t["counted"], t["discarded"]) for t in teams] == [
        (1, "Lario A", "Lario", 101.12, [12.62] * 7 + [7.48, 5.3], [5.3, 5.3, 3.12]),
        (2, "Ticino A", "Ticino", 71.84, [12.62] * 3 + [7.48] + [5.3] * 5, [5.3, 5.3, 3.12]),
        (3, "Brianza A", "Brianza", 70.28, [12.62] + [7.48] * 7 + [5.3], [3.12] * 3),
        (4, "Adda A", "Adda", 52.84, [12.62] + [7.48] * 3 + [5.3] + [3.12] * 4, [3.12] * 3)]
    page = client.get(reverse("public:championship_standings", args=[tournament.pk]))
    lario = one(page, f"#championship-table tr[data-team='{Team.objects.get(name='Lario A').pk}']")
    assert (text(one(lario, "[data-total]")), [text(s) for s in select(lario, "[data-discarded] s")]) == (
        "101.12", ["5.30", "5.30", "3.12"])


def test_players_of_no_club_cannot_form_a_team(client_for, tournament, organiser):
    client = client_for(organiser)
    _set_format(client, tournament)
    clubless = [RegistrationFactory(tournament=tournament, player__club=None, player__last_name=f"Senza{i}")
                for i in range(4)]
    response = _compose(client, tournament, "Nessuno", clubless)
    assert response.status_code == 400
    assert field_errors(response, "players") == [tr(
        "A team is of one club, and these players belong to none: %(names)s.",
        names=", ".join(r.player.full_name for r in clubless))]
    # On the page they are listed apart, their boxes disabled.
    assert [box.has_attr("disabled") for box in select(response, ".club-group[data-club=''] input")] == [True] * 4
    assert Team.objects.count() == 0
