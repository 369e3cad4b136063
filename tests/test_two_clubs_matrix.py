"""Two clubs on one server: organiser A with arbiter arturo, organiser B (otto) with his own arbiter, each
with a full tournament. Every URL of the role matrix, asked by B's organiser and B's arbiter with GET and
with POST, about A's tournament, accounts and players, answers without reaching them: 404 (405 for a
method the URL never takes, 403 for an arbiter on organisers' pages), and nothing of A's changes. Asked
on B's own tournament with A's objects' ids, the answer is 404 too. Then B registers one of A's players in
B's tournaments, which gives B nothing of their card: no e-mail, no edit, no merge, no delete."""
import copy
import uuid

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from tests.factories import TournamentFactory, UserFactory
from tests.html import attr, messages, one, select, tr
from tests.test_role_matrix import MATRIX, SCOPES, _build_world, _people
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


@pytest.fixture(scope="module")
def module_clubs(module_db, django_db_blocker):
    """Built once for the module's tests; each test gets its own copy of the objects and its changes
    to the database are rolled back (tests/database.py)."""
    with django_db_blocker.unblock():
        p = _people()
        organiser, other_organiser = p["organiser"], p["other_organiser"]
        a = {**_build_world(p["tournament"], organiser), "users": {"organiser": organiser, "arbiter": p["arbiter"]}}
        b_tournament = TournamentFactory(organiser=other_organiser, name="Torneo di Otto")
        b_arbiter = UserFactory(username="bice")
        b_tournament.arbiters.add(b_arbiter)
        b = _build_world(b_tournament, other_organiser, tag=" B")
        return {"a": a, "b": b, "b_organiser": other_organiser, "b_arbiter": b_arbiter}


@pytest.fixture
def clubs(module_clubs, db):
    return copy.deepcopy(module_clubs)


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


# --- a shared player: B registers A's player, and reaches nothing of A's card ------------------------

def _a_rows(a_organiser):
    """Every row of A's that another club might reach through a shared player: A's players and clubs
    (every field), A's tournaments, their registrations and their log."""
    from tournaments.models import Club, Registration, Tournament
    return {
        "players": list(Player.all_players.filter(created_by=a_organiser).order_by("pk").values()),
        "clubs": list(Club.objects.filter(created_by=a_organiser).order_by("pk").values()),
        "tournaments": list(Tournament.objects.filter(organiser=a_organiser).order_by("pk").values()),
        "registrations": list(Registration.objects.filter(tournament__organiser=a_organiser).order_by("pk").values()),
        "log": list(AuditLog.objects.filter(tournament__organiser=a_organiser).order_by("pk").values_list("pk", flat=True)),
    }


@pytest.fixture
def shared(clubs, client):
    """A's player Paola (e-mail set, A's club) plays in A's published tournament; A's draft has a player
    of its own, Dora. B registers Paola in B's published tournament and in B's draft, through the page."""
    a, b = clubs["a"], clubs["b"]
    organiser_a = a["tournament"].organiser
    paola = a["free_player"]
    paola.first_name, paola.last_name, paola.email = "Paola", "Condivisa", "paola@example.org"
    paola.save()
    from tests.factories import RegistrationFactory
    RegistrationFactory(tournament=a["tournament"], player=paola)
    a_draft = TournamentFactory(organiser=organiser_a, name="Bozza di A", published=False)
    dora = RegistrationFactory(tournament=a_draft, player__first_name="Dora", player__last_name="Nascosta",
                               player__email="dora@example.org", player__created_by=organiser_a).player
    b_draft = TournamentFactory(organiser=clubs["b_organiser"], name="Bozza di B", published=False)
    puppet = Player.objects.create(first_name="Paola", last_name="Fantoccio", created_by=clubs["b_organiser"])
    client.force_login(clubs["b_organiser"])
    for tournament in (b["tournament"], b_draft):
        response = client.post(reverse("manage:registration_add", args=[tournament.pk]), {"player": paola.pk})
        assert response.status_code == 302
        assert tournament.registrations.filter(player=paola).exists()
    return {"paola": paola, "dora": dora, "puppet": puppet, "a_club": a["club"], "b_draft": b_draft,
            "organiser_a": organiser_a}


def _b_requests(s, b_tournament):
    """Every player and club URL that B may aim at A's player, A's club or A's draft's player, GET and POST."""
    paola, dora, club, puppet = s["paola"], s["dora"], s["a_club"], s["puppet"]
    edit = {"first_name": "Rinominata", "last_name": "Da B", "email": "b@example.org", "club": ""}
    return [
        ("get", reverse("manage:player_edit", args=[paola.pk]), {}, 200),
        ("post", reverse("manage:player_edit", args=[paola.pk]), edit, 403),
        ("post", reverse("manage:player_delete", args=[paola.pk]), {}, 403),
        ("post", reverse("manage:player_merge", args=[paola.pk]), {"into": puppet.pk}, 302),
        ("post", reverse("manage:player_merge", args=[puppet.pk]), {"into": paola.pk}, 302),
        ("get", reverse("manage:player_edit", args=[dora.pk]), {}, 404),
        ("post", reverse("manage:player_edit", args=[dora.pk]), edit, 404),
        ("post", reverse("manage:player_delete", args=[dora.pk]), {}, 404),
        ("post", reverse("manage:player_merge", args=[dora.pk]), {"into": puppet.pk}, 404),
        ("post", reverse("manage:player_merge", args=[puppet.pk]), {"into": dora.pk}, 404),
        ("post", reverse("manage:player_merge_request", args=[puppet.pk]), {"into": dora.pk}, 404),
        ("post", reverse("manage:registration_add", args=[b_tournament.pk]), {"player": dora.pk}, 404),
        ("post", reverse("manage:registration_add_selected", args=[b_tournament.pk]), {"players": [dora.pk]}, 302),
        ("get", reverse("manage:club_edit", args=[club.pk]), {}, 200),
        ("post", reverse("manage:club_edit", args=[club.pk]), {"name": "Club di B", "city": ""}, 403),
        ("post", reverse("manage:club_delete", args=[club.pk]), {}, 403),
        ("get", reverse("manage:players"), {}, 200),
        ("get", reverse("manage:players"), {"q": "Nascosta"}, 200),
        ("get", reverse("manage:registration_search", args=[b_tournament.pk]), {"q": "Nascosta"}, 200),
        ("get", reverse("manage:tournament_json", args=[b_tournament.pk]), {}, 200),
        ("get", reverse("manage:tournament_json", args=[s["b_draft"].pk]), {}, 200),
    ]


def test_b_registers_as_player_and_reaches_nothing_of_their_card(clubs, shared, client):
    """After B registers A's player in B's published tournament and B's draft, every player and club URL,
    GET and POST, answers B without A's data (no e-mail, no draft player) and leaves A's rows as they were."""
    before = _a_rows(shared["organiser_a"])
    client.force_login(clubs["b_organiser"])
    for method, url, data, status in _b_requests(shared, clubs["b"]["tournament"]):
        response = getattr(client, method)(url, data)
        assert response.status_code == status, (method, url)
        dora_card = reverse("manage:player_edit", args=[shared["dora"].pk]).encode()
        for secret in (b"paola@example.org", b"dora@example.org", dora_card):
            assert secret not in response.content, (method, url, secret)
    assert _a_rows(shared["organiser_a"]) == before
    assert not Player.objects.filter(pk=shared["paola"].pk, merged_into__isnull=False).exists()
    assert not shared["dora"].registrations.exclude(tournament__organiser=shared["organiser_a"]).exists()


def test_b_sees_as_player_read_only_and_is_told_who_merges(clubs, shared, client):
    client.force_login(clubs["b_organiser"])
    page = client.get(reverse("manage:player_edit", args=[shared["paola"].pk]))
    assert one(page, "[data-read-only]") is not None
    assert select(page, "form#merge-form") == [] and select(page, "[data-action=delete-player]") == []
    assert select(page, "input[name=email]") == []
    assert [r.tournament.pk for r in page.context["registered"]] == sorted(
        [clubs["b"]["tournament"].pk, shared["b_draft"].pk])
    # B's puppet, same first name, is another record: B asks an administrator instead of merging
    page = client.get(reverse("manage:player_edit", args=[shared["puppet"].pk]))
    assert select(page, "form#merge-form") == []
    response = client.post(reverse("manage:player_merge", args=[shared["puppet"].pk]), {"into": shared["paola"].pk},
                           follow=True)
    assert messages(response) == [tr(
        "%(drop)s and %(keep)s were created by different organisers: only an administrator can merge them.",
        drop=shared["puppet"], keep=shared["paola"])]


def test_b_asks_an_administrator_who_merges_from_the_players_list(clubs, shared, client):
    puppet = shared["puppet"]
    puppet.last_name = "Condivisa"
    puppet.save()
    client.force_login(clubs["b_organiser"])
    page = client.get(reverse("manage:player_edit", args=[puppet.pk]))
    assert attr(page, "#merge-request-into option", "value") == [str(shared["paola"].pk)]
    response = client.post(reverse("manage:player_merge_request", args=[puppet.pk]), {"into": shared["paola"].pk},
                           follow=True)
    assert messages(response) == [tr("An administrator has been asked to merge %(drop)s into %(keep)s.",
                                     drop=Player.objects.get(pk=puppet.pk), keep=shared["paola"])]
    assert client.get(reverse("manage:players")).context["merge_requests"] == []   # an organiser sees none
    admin = UserFactory(username="capo", is_superuser=True)
    client.force_login(admin)
    listed = client.get(reverse("manage:players"))
    assert attr(listed, "[data-merge-request]", "data-merge-request") == [f"{puppet.pk}-{shared['paola'].pk}"]
    client.post(reverse("manage:player_merge", args=[puppet.pk]), {"into": shared["paola"].pk})
    assert Player.all_players.get(pk=puppet.pk).merged_into_id == shared["paola"].pk
    assert select(client.get(reverse("manage:players")), "[data-merge-request]") == []


def test_bs_export_carries_none_of_as_emails(clubs, shared, client):
    from transfer.export import tournament_export
    for tournament in (clubs["b"]["tournament"], shared["b_draft"]):
        document = tournament_export(tournament=tournament)
        emails = {row["pk"]: row["fields"]["email"] for row in document["players"]}
        assert emails[shared["paola"].pk] == ""
        assert shared["dora"].pk not in emails
    document = tournament_export(tournament=clubs["a"]["tournament"])   # A's own export keeps it
    assert {row["pk"]: row["fields"]["email"] for row in document["players"]}[shared["paola"].pk] == "paola@example.org"


def test_the_other_club_hears_nothing_of_an_unpublished_tournament(clubs, client, settings):
    """The live channel of A's unpublished tournament: 404 to B's organiser and arbiter, as to anyone
    outside A's staff."""
    settings.LIVE_STREAM_SECONDS = 0.01
    tournament = clubs["a"]["tournament"]
    tournament.published = False
    tournament.save()
    for who in ("b_organiser", "b_arbiter"):
        client.force_login(clubs[who])
        assert client.get(reverse("public:live", args=[tournament.pk])).status_code == 404
