"""Two clubs on one server: organiser A with arbiter arturo, organiser B (otto) with his own arbiter, each
with a full tournament. Every URL of the role matrix, asked by B's organiser and B's arbiter with GET and
with POST, about A's tournament, accounts and players, answers without reaching them: 404 (405 for a
method the URL never takes, 403 for an arbiter on organisers' pages), and nothing of A's changes. Asked
on B's own tournament with A's objects' ids, the answer is 404 too."""
import uuid

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from tests.factories import TournamentFactory, UserFactory
from tests.test_role_matrix import MATRIX, SCOPES, _build_world
from tournaments.models import AuditLog, Player

pytestmark = pytest.mark.django_db

# What B's people get on A's objects, per scope of the route ("ok": the route is not A's to guard).
ACROSS = {
    "organiser": {"b_organiser": 404, "b_arbiter": 404},
    "arbiter": {"b_organiser": 404, "b_arbiter": 404},
    "organiser_player": {"b_organiser": 404, "b_arbiter": 403},
    "organiser_circuit": {"b_organiser": 404, "b_arbiter": 404},
    "organiser_club": {"b_organiser": 403, "b_arbiter": 403},
    "organiser_global": {"b_organiser": "ok", "b_arbiter": 403},
    "admin": {"b_organiser": 403, "b_arbiter": 403},
    "login": {"b_organiser": "ok", "b_arbiter": "ok"},
}
GUARDED = sorted(n for n, r in MATRIX.items() if r.scope in ("organiser", "arbiter", "organiser_player",
                                                             "organiser_circuit", "organiser_club"))
# Object ids in the URL besides the tournament's (and the round's and table's numbers).
OBJECT_KWARGS = {"reg_pk", "penalty_pk", "dispute_pk", "team_pk", "match_pk", "user_pk", "player_pk"}


def _url_kwargs(resolver=None, prefix=""):
    """Each URL name with the names of the values its path takes."""
    found = {}
    for p in (resolver or get_resolver()).url_patterns:
        if isinstance(p, URLResolver):
            found.update(_url_kwargs(p, f"{prefix}{p.namespace}:" if p.namespace else prefix))
        elif isinstance(p, URLPattern) and p.name:
            found[prefix + p.name] = set(p.pattern.converters)
    return found


URL_KWARGS = _url_kwargs()


@pytest.fixture
def clubs(tournament, organiser, arbiter, other_organiser):
    a = {**_build_world(tournament, organiser), "users": {"organiser": organiser, "arbiter": arbiter}}
    b_tournament = TournamentFactory(organiser=other_organiser, name="Torneo di Otto")
    b_arbiter = UserFactory(username="bice")
    b_tournament.arbiters.add(b_arbiter)
    b = _build_world(b_tournament, other_organiser, tag=" B")
    return {"a": a, "b": b, "b_organiser": other_organiser, "b_arbiter": b_arbiter}


def _a_state(a):
    t = a["tournament"]
    return (AuditLog.objects.filter(tournament=t).count(),
            AuditLog.objects.filter(player__in=[a["free_player"], a["registration"].player]).count(),
            sorted(t.arbiters.values_list("username", flat=True)),
            t.registrations.count(), Player.objects.filter(pk=a["free_player"].pk).exists(),
            a["link_arbiter"].__class__.objects.get(pk=a["link_arbiter"].pk).password,
            list(t.rounds.values_list("status", "standings_published_at")))


def test_every_scope_is_judged():
    assert set(SCOPES) == set(ACROSS)


@pytest.mark.parametrize("who", ["b_organiser", "b_arbiter"])
@pytest.mark.parametrize("method", ["get", "post"])
@pytest.mark.parametrize("name", GUARDED)
def test_the_other_club_never_reaches_this_ones_objects(name, method, who, clubs, client):
    route, a = MATRIX[name], clubs["a"]
    client.force_login(clubs[who])
    before = _a_state(a)
    url = reverse(name, kwargs=route.kwargs(a))
    response = getattr(client, method)(url, route.data(a) if method == route.method else {})
    expected = ACROSS[route.scope][who]
    if method == route.method or response.status_code != 405:
        assert response.status_code == expected, (url, method)
    assert _a_state(a) == before


@pytest.mark.parametrize("name", sorted(n for n in GUARDED if OBJECT_KWARGS & URL_KWARGS[n] and "pk" in URL_KWARGS[n]
                                        and MATRIX[n].scope != "organiser_circuit"))
def test_the_other_clubs_ids_on_ones_own_tournament_are_404(name, clubs, client):
    """B's organiser (or arbiter, on arbiters' pages) on B's tournament, naming A's objects by id."""
    route, a, b = MATRIX[name], clubs["a"], clubs["b"]
    who = "b_organiser" if route.scope != "arbiter" else "b_arbiter"
    client.force_login(clubs[who])
    kwargs = {**route.kwargs(a), "pk": b["tournament"].pk} if "pk" in route.kwargs(a) else route.kwargs(a)
    before = _a_state(a)
    response = getattr(client, route.method)(reverse(name, kwargs=kwargs), route.data(a))
    assert response.status_code == 404
    assert _a_state(a) == before


def test_the_offline_sync_endpoint_refuses_the_other_clubs_arbiter(clubs, client):
    a = clubs["a"]
    table = a["seat"].table
    data = {"version": "0", "submission": str(uuid.uuid4())}
    for i, seat in enumerate(table.seats.order_by("position")):
        data.update({f"p{i}-seat": seat.pk, f"p{i}-table_points": str([62, 48, 30, 0][i])})
    client.force_login(clubs["b_arbiter"])
    url = reverse("arbiter:table", args=[a["tournament"].pk, 1, 1])
    response = client.post(url, data, headers={"X-Torneo-Sync": "1"})
    assert response.status_code == 404
    table.refresh_from_db()
    assert table.version == 0
    # the same form, sent to B's own table 1 with A's seat ids: it is B's table that is saved, never A's
    b_table = clubs["b"]["seat"].table
    url = reverse("arbiter:table", args=[clubs["b"]["tournament"].pk, 1, 1])
    response = client.post(url, data, headers={"X-Torneo-Sync": "1"})
    assert response.json()["status"] == "saved"
    table.refresh_from_db()
    b_table.refresh_from_db()
    assert (table.version, b_table.version) == (0, 1)
    assert list(table.seats.values_list("table_points", flat=True)) == [None] * 4
    assert sorted(s["seat"] for s in response.json()["saved"]) == sorted(b_table.seats.values_list("pk", flat=True))
