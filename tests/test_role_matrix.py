"""Every non-public URL, visited by every role, answers with exactly the expected status.

A new URL pattern without an entry here fails `test_every_url_is_in_the_matrix`, so no screen
ships unguarded."""
import copy
from dataclasses import dataclass
from typing import Callable

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from circuits.models import Circuit, CircuitTournament
from tables.models import Dispute, Penalty, TeamDispute, TeamPenalty
from tests.factories import (ClubFactory, OrganiserFactory, PlayerFactory, RegistrationFactory, TournamentFactory,
                             UserFactory, seat_round)
from tournaments.club_rules.forms import blank_data
from tournaments.models import AccountOwner, AuditLog, ClubRule, Phase, Team, TeamMatch, TeamMember

# "player": a registered player, who has no account; they browse as anyone does.
ROLES = ["anonymous", "player", "other_arbiter", "arbiter", "other_organiser", "organiser"]

# What each scope answers to each role; "ok" is the route's own success status.
SCOPES = {
    # organiser-only pages of one tournament
    "organiser": {"anonymous": "login", "player": "login", "other_arbiter": 404, "arbiter": 403, "other_organiser": 404, "organiser": "ok"},
    # pages of one tournament for its arbiters and its organiser
    "arbiter": {"anonymous": "login", "player": "login", "other_arbiter": 404, "arbiter": "ok", "other_organiser": 404, "organiser": "ok"},
    # pages of organisers in general (clubs, players, new tournament)
    "organiser_global": {"anonymous": "login", "player": "login", "other_arbiter": 403, "arbiter": 403, "other_organiser": "ok", "organiser": "ok"},
    # a player of the shared list the organiser created or registered: another organiser's answer 404
    "organiser_player": {"anonymous": "login", "player": "login", "other_arbiter": 403, "arbiter": 403, "other_organiser": 404, "organiser": "ok"},
    # a club's card, changed by its creator: another organiser reads it (organiser_global) but is refused here
    "organiser_club": {"anonymous": "login", "player": "login", "other_arbiter": 403, "arbiter": 403, "other_organiser": 403, "organiser": "ok"},
    # a circuit: its organiser only; anyone else's answer does not reveal it exists
    "organiser_circuit": {"anonymous": "login", "player": "login", "other_arbiter": 404, "arbiter": 404, "other_organiser": 404, "organiser": "ok"},
    # administrators only (the organiser role is granted in the app)
    "admin": {"anonymous": "login", "player": "login", "other_arbiter": 403, "arbiter": 403, "other_organiser": 403, "organiser": 403},
    # any logged-in user
    "login": {"anonymous": "login", "player": "login", "other_arbiter": "ok", "arbiter": "ok", "other_organiser": "ok", "organiser": "ok"},
}

# Public pages: no login, no role.
PUBLIC = {
    "public:home", "public:tournament", "public:signup", "login", "logout", "set_language",
    "public:round", "public:standings", "public:standings_print", "public:player", "public:standings_json",
    "public:tables_json", "public:formulas", "public:formula",
    "public:final_standings", "password_set", "password_set_done", "public:team_standings", "public:clock",
    "arbiter:service_worker",
    "public:circuits", "public:circuit", "public:circuit_csv", "public:circuit_json", "public:player_history",
    "public:screen", "public:screen_data", "public:poster", "public:wall_list", "public:table_sheet",
    "public:standings_widget", "public:player_json",
    "health", "health_en",
    "guide", "guide_page",  # the documentation site built from docs/ (tests/test_guide.py)
    "public:live",  # published: anyone's; unpublished: its staff's only (tests/tables/live)
    # A phone following a player of a published tournament, and switching off (tests/tables/push).
    "public:push_worker", "public:push_subscribe", "public:push_unsubscribe",
    "public:championship_standings", "public:championship_json",
    # The public JSON's addresses before /api/v1/ (risiko_site/api.py).
    "standings_json_unversioned", "tables_json_unversioned", "championship_json_unversioned",
    "player_json_unversioned", "circuit_json_unversioned",
}
# Django's own admin has its own guard (staff only) and is tested by Django.
IGNORED_NAMESPACES = {"admin"}


@dataclass
class Route:
    scope: str
    kwargs: Callable = lambda w: {}
    method: str = "get"
    data: Callable = lambda w: {}
    ok: int = 200


def T(w):
    return {"pk": w["tournament"].pk}


def R(w):
    return {"pk": w["tournament"].pk, "number": 1}


MATRIX = {
    "manage:home": Route("login"),
    "manage:tournament_create": Route("organiser_global"),
    "manage:tournament": Route("organiser", T),
    "manage:tournament_edit": Route("organiser", T),
    "manage:arbiters": Route("organiser", T),
    "manage:audit_log": Route("organiser", T),
    "manage:registrations": Route("organiser", T),
    "manage:registration_search": Route("organiser", T),
    "manage:registration_add": Route("organiser", T, "post", lambda w: {"player": w["free_player"].pk}, 302),
    "manage:registration_add_new": Route("organiser", T, "post",
                                         lambda w: {"first_name": "Nuovo", "last_name": "Giocatore"}, 302),
    "manage:registration_action": Route("organiser", lambda w: {**T(w), "reg_pk": w["registration"].pk,
                                                                "action": "paid"}, "post", lambda w: {"value": "1"}, 302),
    "manage:checkin": Route("organiser", T),
    "manage:organisers": Route("admin"),
    "manage:arbiter_link": Route("organiser", lambda w: {**T(w), "user_pk": w["link_arbiter"].pk}, "post"),
    "manage:organiser_role": Route("admin", lambda w: {"user_pk": w["users"]["arbiter"].pk}, "post",
                                   lambda w: {"granted": "1"}, 302),
    "manage:checkin_all": Route("organiser", T, "post", ok=302),
    "manage:registration_add_selected": Route("organiser", T, "post",
                                              lambda w: {"players": [w["free_player"].pk]}, 302),
    "manage:registration_import": Route("organiser", T, "post", lambda w: {"names": "Nuova Giocatrice"}),
    "manage:clubs": Route("organiser_global"),
    "manage:club_create": Route("organiser_global"),
    "manage:club_edit": Route("organiser_global", lambda w: {"club_pk": w["club"].pk}),
    "manage:players": Route("organiser_global"),
    "manage:player_create": Route("organiser_global"),
    "manage:player_edit": Route("organiser_player", lambda w: {"player_pk": w["free_player"].pk}),
    "manage:player_import": Route("organiser_global"),
    "manage:player_merge": Route("organiser_player", lambda w: {"player_pk": w["free_player"].pk}, "post",
                                 lambda w: {"into": w["registration"].player.pk}, 302),
    "manage:player_merge_request": Route("organiser_player", lambda w: {"player_pk": w["free_player"].pk}, "post",
                                         lambda w: {"into": w["foreign_player"].pk}, 302),
    "manage:player_delete": Route("organiser_player", lambda w: {"player_pk": w["free_player"].pk}, "post", ok=302),
    "manage:club_delete": Route("organiser_club", lambda w: {"club_pk": w["empty_club"].pk}, "post", ok=302),
    "manage:rounds": Route("organiser", T),
    "manage:results": Route("organiser", T, ok=302),
    "manage:round": Route("organiser", R),
    "manage:seat_tap": Route("organiser", R, "post", lambda w: {"seat": w["seat"].pk}, 302),
    "manage:seat_move": Route("organiser", R, "post", lambda w: {"seat": w["seat"].pk, "table": 2}, 302),
    "manage:round_action": Route("organiser", lambda w: {**R(w), "action": "close"}, "post", ok=302),
    "manage:round_dashboard": Route("organiser", R),
    "manage:sheets": Route("organiser", R),
    "manage:room": Route("organiser", T),
    "manage:meetings": Route("organiser", T),
    "manage:formulas_compared": Route("organiser", T),
    "manage:standings_csv": Route("organiser", T),
    "manage:results_csv": Route("organiser", T),
    "manage:tournament_json": Route("organiser", T),
    "manage:tournament_workbook": Route("organiser", T),
    "manage:tournament_workbook_gestione": Route("organiser", T),
    "manage:past_import": Route("organiser_global"),
    "arbiter:home": Route("arbiter", T),
    "arbiter:round": Route("arbiter", R),
    "arbiter:own_tables": Route("arbiter", T, "post", lambda w: {"first": 1, "last": 2}, 302),
    "arbiter:table": Route("arbiter", lambda w: {**R(w), "table_number": 1}),
    "arbiter:penalties": Route("arbiter", T),
    "arbiter:penalty_games": Route("arbiter", T),
    "arbiter:penalty_withdraw": Route("arbiter", lambda w: {**T(w), "penalty_pk": w["penalty"].pk}, "post",
                                      lambda w: {"reason": "errore"}, 302),
    "arbiter:disputes": Route("arbiter", T),
    "arbiter:dispute": Route("arbiter", lambda w: {**T(w), "dispute_pk": w["dispute"].pk}),
    "manage:formats": Route("organiser", T),
    "manage:phase_action": Route("organiser", lambda w: {**T(w), "order": 1, "action": "publish"}, "post", ok=302),
    "manage:bracket": Route("organiser", T),
    "manage:teams": Route("organiser", T),
    "manage:team_schedule": Route("organiser", T, "post", ok=302),
    "manage:team_delete": Route("organiser", lambda w: {**T(w), "team_pk": w["team"].pk}, "post", ok=302),
    "manage:championship_teams": Route("organiser", T),
    "manage:championship_team_rename": Route("organiser", lambda w: {**T(w), "team_pk": w["team"].pk}, "post",
                                             lambda w: {"rename-name": "Squadra rinominata"}, ok=302),
    "manage:championship_team_dissolve": Route("organiser", lambda w: {**T(w), "team_pk": w["team"].pk}, "post",
                                               ok=302),
    "manage:championship_table": Route("organiser", T),
    "manage:championship_csv": Route("organiser", T),
    "manage:clock": Route("organiser", R),
    "manage:clock_action": Route("organiser", lambda w: {**R(w), "action": "start"}, "post",
                                 lambda w: {"minutes": "90"}, 302),
    "arbiter:team_matches": Route("arbiter", T),
    "arbiter:team_match": Route("arbiter", lambda w: {**T(w), "match_pk": w["team_match"].pk}),
    "arbiter:team_arbitration": Route("arbiter", T),
    "arbiter:firenze_sheet": Route("arbiter", lambda w: {**R(w), "table_number": 1}),
    "arbiter:team_day_publish": Route("arbiter", lambda w: {**T(w), "number": 1}, "post", ok=302),
    "arbiter:team_penalty_withdraw": Route("arbiter", lambda w: {**T(w), "penalty_pk": w["team_penalty"].pk},
                                           "post", lambda w: {"reason": "x"}, 302),
    "arbiter:team_dispute": Route("arbiter", lambda w: {**T(w), "dispute_pk": w["team_dispute"].pk}),
    "arbiter:endroll": Route("arbiter", lambda w: {**R(w), "table_number": 1}),
    "arbiter:endroll_undo": Route("arbiter", lambda w: {**R(w), "table_number": 1}, "post", ok=302),
    "manage:circuits": Route("organiser_global"),
    "manage:circuit": Route("organiser_circuit", lambda w: {"pk": w["circuit"].pk}),
    "manage:circuit_season_rule": Route("organiser_circuit", lambda w: {"pk": w["circuit"].pk}),
    "manage:circuit_tournament_remove": Route("organiser_circuit", lambda w: {
        "pk": w["circuit"].pk, "entry_pk": w["circuit"].entries.get().pk}, "post", ok=302),
    # club rules: the published ones every organiser's, an own rule its owner's alone
    "manage:club_rules": Route("organiser_global"),
    "manage:club_rule_create": Route("organiser_global"),
    "manage:club_rule_example": Route("organiser_global", method="post", data=lambda w: {"name": "x"}),
    "manage:club_rule_upload": Route("organiser_global", method="post"),
    "manage:club_rule": Route("organiser_player", lambda w: {"pk": w["club_rule"].pk}),
    "manage:club_rule_download": Route("organiser_player", lambda w: {"pk": w["club_rule"].pk}),
    "manage:club_rule_delete": Route("organiser_player", lambda w: {"pk": w["club_rule"].pk}, "post", ok=302),
    "manage:what_if_draft": Route("organiser", method="post",
                                  data=lambda w: blank_data() | {"tournament": w["tournament"].pk}),
    "manage:club_rule_copy": Route("organiser_global", lambda w: {"pk": ClubRule.objects.get(key="master").pk},
                                   "post", ok=302),
}


def _names(resolver, prefix=""):
    for p in resolver.url_patterns:
        if isinstance(p, URLResolver):
            if p.namespace in IGNORED_NAMESPACES:
                continue
            ns = f"{prefix}{p.namespace}:" if p.namespace else prefix
            yield from _names(p, ns)
        elif isinstance(p, URLPattern) and p.name:
            yield prefix + p.name


def test_every_url_is_in_the_matrix():
    names = set(_names(get_resolver()))
    unguarded = sorted(names - PUBLIC - set(MATRIX))
    assert unguarded == [], f"URL patterns with no role-matrix entry: {unguarded}"
    assert sorted(set(MATRIX) - names) == []


def _arbiter_without_password(tournament, username="senza-password"):
    account = UserFactory(username=username)
    account.set_unusable_password()
    account.save()
    tournament.arbiters.add(account)
    AccountOwner.objects.create(account=account, owner=tournament.organiser)
    return account


def _build_world(tournament, organiser, tag=""):
    """One club's tournament with a round, a penalty, disputes, teams, players and an account of its own."""
    club = ClubFactory(name=f"Club del mondo{tag}", created_by=organiser)
    circuit = Circuit.objects.create(name=f"Circuito{tag}", season="2026", organiser=organiser)
    CircuitTournament.objects.create(circuit=circuit, tournament=tournament)
    rnd = seat_round(tournament, [[RegistrationFactory(tournament=tournament) for _ in range(4)]])
    seat = rnd.tables.get().seats.first()
    Phase.objects.create(tournament=tournament, order=1, kind="qualifying", name="Qualifying", rounds=3)
    teams = [Team.objects.create(tournament=tournament, name=f"Squadra {i}") for i in range(2)]
    for team in teams:
        for captain in (True, False):
            TeamMember.objects.create(team=team, registration=RegistrationFactory(tournament=tournament),
                                      captain=captain)
    team_penalty = TeamPenalty.objects.create(tournament=tournament, team=teams[0], day=1, points=1, reason="x",
                                              created_by=organiser)
    return {
        "team": teams[0], "team_penalty": team_penalty,
        "team_dispute": TeamDispute.objects.create(tournament=tournament, about="standing", day=1, raised_by="x",
                                                   text="x", recorded_by=organiser),
        "team_match": TeamMatch.objects.create(tournament=tournament, round=1, home=teams[0], away=teams[1]),
        "seat": seat,
        "penalty": Penalty.objects.create(tournament=tournament, registration=seat.registration, seat=seat,
                                          kind="warning", reason="x", created_by=organiser),
        "dispute": Dispute.objects.create(tournament=tournament, about="result", table=seat.table,
                                          raised_by="x", text="x", recorded_by=organiser),
        "circuit": circuit,
        "club_rule": ClubRule.objects.create(key=f"r-mondo{tag}", owner=organiser, name="Regola", document={
            "schema": "torneo.rule/1", "name": "Regola", "formula": "bonus50"}),
        "tournament": tournament, "club": club,
        "empty_club": ClubFactory(name=f"Club senza giocatori{tag}", created_by=organiser),
        "registration": RegistrationFactory(tournament=tournament, player__created_by=organiser),
        "free_player": PlayerFactory(club=club, created_by=organiser),
        "foreign_player": PlayerFactory(created_by=None),   # nobody's card: everyone sees it, nobody changes it
        "link_arbiter": _arbiter_without_password(tournament, f"senza-password{tag}"),
    }


def _people():
    """The people of tests/conftest.py's fixtures of the same names, made once for a module's world."""
    organiser, arbiter = OrganiserFactory(username="olga"), UserFactory(username="arturo")
    tournament = TournamentFactory(organiser=organiser, name="Torneo di prova")
    tournament.arbiters.add(arbiter)
    other_organiser = OrganiserFactory(username="otto")
    TournamentFactory(organiser=other_organiser)
    other_arbiter = UserFactory(username="alba")
    TournamentFactory().arbiters.add(other_arbiter)
    return {"tournament": tournament, "organiser": organiser, "arbiter": arbiter,
            "other_organiser": other_organiser, "other_arbiter": other_arbiter}


@pytest.fixture(scope="module")
def module_world(module_db, django_db_blocker):
    """Built once for the module's ~700 tests; each test gets its own copy of the objects (as
    Django's setUpTestData does) and its changes to the database are rolled back."""
    with django_db_blocker.unblock():
        p = _people()
        return {**_build_world(p["tournament"], p["organiser"]),
                "users": {"anonymous": None, "player": None, "organiser": p["organiser"], "arbiter": p["arbiter"],
                          "other_organiser": p["other_organiser"], "other_arbiter": p["other_arbiter"]}}


@pytest.fixture
def world(module_world, db):
    return copy.deepcopy(module_world)


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("name", sorted(MATRIX))
def test_role_gets_exact_status(name, role, world, client):
    route = MATRIX[name]
    user = world["users"][role]
    if user is not None:
        client.force_login(user)
    url = reverse(name, kwargs=route.kwargs(world))
    response = getattr(client, route.method)(url, route.data(world))
    expected = SCOPES[route.scope][role]
    if expected == "login":
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))
    elif expected == "ok":
        assert response.status_code == route.ok, response.content[:500]
    else:
        assert response.status_code == expected


@pytest.mark.parametrize("name", sorted(n for n, r in MATRIX.items() if r.method == "post"))
def test_state_changing_url_refuses_get(name, world, client):
    client.force_login(world["users"]["organiser"])
    response = client.get(reverse(name, kwargs=MATRIX[name].kwargs(world)))
    assert response.status_code == 405


@pytest.mark.parametrize("name", sorted(n for n, r in MATRIX.items() if r.method == "post"))
def test_state_changing_url_requires_csrf(name, world):
    from django.test import Client
    client = Client(enforce_csrf_checks=True)
    client.force_login(world["users"]["organiser"])
    response = client.post(reverse(name, kwargs=MATRIX[name].kwargs(world)), MATRIX[name].data(world))
    assert response.status_code == 403


def test_organiser_gets_404_for_a_registration_of_another_tournament(world, client):
    other = RegistrationFactory(tournament=TournamentFactory())
    client.force_login(world["users"]["organiser"])
    url = reverse("manage:registration_action", kwargs={"pk": world["tournament"].pk, "reg_pk": other.pk,
                                                        "action": "paid"})
    assert client.post(url, {"value": "1"}).status_code == 404


def test_public_page_of_unpublished_tournament_is_404(world, client):
    t = world["tournament"]
    t.published = False
    t.save()
    assert client.get(reverse("public:tournament", args=[t.pk])).status_code == 404


# The live channel of an unpublished tournament: its arbiters' and organiser's dashboards refresh by
# it; to anyone else the tournament does not exist.
LIVE_UNPUBLISHED = {"anonymous": 404, "player": 404, "other_arbiter": 404, "arbiter": 200, "other_organiser": 404,
                    "organiser": 200}


@pytest.mark.parametrize("role", ROLES)
def test_the_live_channel_of_an_unpublished_tournament_is_its_staffs_only(role, world, client, settings):
    settings.LIVE_STREAM_SECONDS = 0.01
    t = world["tournament"]
    t.published = False
    t.save()
    if world["users"][role] is not None:
        client.force_login(world["users"][role])
    assert client.get(reverse("public:live", args=[t.pk])).status_code == LIVE_UNPUBLISHED[role]


# What an allowed POST leaves behind in the matrix's world: an audit entry (every change is audited),
# or, for the routes below, what they do instead. The world holds no roll to take back, an open
# schedule, a round with a table still to report and a day without its result: those routes answer
# with the service's refusal, which is checked too (the page must not pretend it worked).
NO_AUDIT = {
    "manage:seat_tap": "a first tap selects the player (kept in the session)",
    "manage:registration_import": "the pasted list is previewed, nothing is saved yet",
    "manage:club_rule_example": "the worked example of a rule being composed, nothing is saved",
    "manage:club_rule_upload": "no file sent: the page says so, nothing is saved",
    "manage:what_if_draft": "a draft rule replayed on the results, nothing is saved",
    "arbiter:own_tables": "the arbiter's own tables, kept in their session on their phone",
}
REFUSED_IN_THE_WORLD = {
    "arbiter:endroll_undo": "No roll to take back.",
    "arbiter:team_day_publish": "Every match of day 1 needs its result before its standings are published.",
    "manage:phase_action": "This phase has no seating to publish.",
    "manage:round_action": "Tables still without a result: 1.",
    "manage:team_delete": "The schedule is made: teams can no longer change.",
    "manage:championship_team_dissolve": "The 2vs2 schedule is made: teams can no longer change.",
    "manage:team_schedule": "The schedule is already made.",
}


@pytest.mark.parametrize("name", sorted(n for n, r in MATRIX.items() if r.method == "post"
                                        and "ok" in (SCOPES[r.scope]["organiser"], SCOPES[r.scope]["arbiter"])))
def test_allowed_post_takes_effect(name, world, client):
    route = MATRIX[name]
    role = "organiser" if SCOPES[route.scope]["organiser"] == "ok" else "arbiter"
    client.force_login(world["users"][role])
    before = AuditLog.objects.count()
    response = client.post(reverse(name, kwargs=route.kwargs(world)), route.data(world), follow=True)
    shown = [str(m) for m in response.context["messages"]] if response.context else []
    if name in REFUSED_IN_THE_WORLD:
        assert (AuditLog.objects.count(), shown) == (before, [REFUSED_IN_THE_WORLD[name]])
    elif name in NO_AUDIT:
        assert AuditLog.objects.count() == before
        assert response.status_code == 200
    else:
        assert AuditLog.objects.count() > before, shown
        assert not any(m.level_tag == "error" for m in response.context["messages"]), shown
