"""The national team championship on a phone (390x844): the organiser composes the fourth club team by
ticking its 4 players; after 3 rounds the public team table shows each team's 9 counted results and
its 3 discarded ones struck through, the individual standings under it. axe-core finds no serious
violation on either page."""
import pytest
from django.urls import reverse

from phases import services as formats
from tests.browser.catalogue import it
from tests.browser.test_accessibility import SERIOUS
from tests.browser.test_room_flow import AXE
from tests.factories import ClubFactory, RegistrationFactory, report, seat_round
from tournaments.teams import championship_services

pytestmark = pytest.mark.django_db(transaction=True)

CLUBS = ("Lario", "Brianza", "Ticino", "Adda")
SURNAMES = ("Bianchi", "Colombo", "Ferrari", "Galli", "Longo", "Marino", "Rinaldi", "Sala", "Testa", "Villa",
            "Conti", "Fontana", "Greco", "Mariani", "Pellegrini", "Vitale")
TABLE_POINTS = ((62,), (48,), (30,), (12,))


def _players(tournament, organiser):
    formats.format_apply(user=organiser, tournament=tournament, preset="team_championship")
    players = {club: [] for club in CLUBS}
    for i, surname in enumerate(SURNAMES):
        club = CLUBS[i % 4]
        players[club].append(RegistrationFactory(tournament=tournament, present=True, player__last_name=surname,
                                                 player__club=ClubFactory(name=club) if i < 4 else
                                                 players[club][0].player.club))
    for n, club in enumerate(CLUBS[:3]):
        championship_services.championship_team_create(user=organiser, tournament=tournament,
                                                        name=f"{club} {'AB'[n % 2]}", registrations=players[club])
    return players


def _play(tournament, players):
    """3 rounds; table t seats the (t + c * r)-th player of club c, one of each club; club c's player
    takes the (c + t * r)-th table points of TABLE_POINTS."""
    for r in range(3):
        rnd = seat_round(tournament, [[players[c][(t + n * r) % 4] for n, c in enumerate(CLUBS)] for t in range(4)])
        for t, table in enumerate(rnd.tables.order_by("number")):
            report(table, [TABLE_POINTS[(c + t * r) % 4] for c in range(4)])


@pytest.mark.skipif(not AXE.exists(), reason="axe-core not installed: make node_modules/.installed")
def test_the_team_table_reads_on_a_phone(live_server, browser, login, tournament, organiser, shot):
    players = _players(tournament, organiser)
    context = browser.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True, locale="it-IT",
                                  is_mobile=True, has_touch=True)
    page = context.new_page()
    login(page, organiser.username)
    page.goto(live_server.url + reverse("manage:championship_teams", args=[tournament.pk]))
    form = page.locator("form#new-team")
    form.locator("[name=name]").fill("Adda B")
    for reg in players["Adda"]:
        form.locator(f"#player-{reg.pk}").check()
    shot(page, "team_championship_compose_phone")
    page.add_script_tag(path=str(AXE))
    assert page.evaluate(SERIOUS) == []
    form.locator("#add-team").click()
    page.wait_for_load_state()
    assert page.locator("#championship-teams li[data-team]").count() == 4
    assert page.locator("ul.messages li.msg").inner_text() == it("Team registered.")

    _play(tournament, players)
    page.goto(live_server.url + reverse("public:championship_standings", args=[tournament.pk]))
    rows = page.locator("#championship-table tbody tr[data-team]")
    assert rows.count() == 4
    assert rows.locator("[data-rank]").all_inner_texts() == ["1", "2", "3", "4"]
    for i in range(4):
        assert rows.nth(i).locator("[data-counted]").count() == 9
        discarded = rows.nth(i).locator("[data-discarded] s")
        assert discarded.count() == 3
        assert discarded.first.evaluate("e => getComputedStyle(e).textDecorationLine") == "line-through"
    assert page.locator("#individual-standings tbody tr[data-reg]").count() == 16
    assert page.locator("#teams-heading").inner_text() == it("Teams")
    # Nothing wider than the phone: the tables fit without scrolling sideways.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "team_championship_phone")
    page.add_script_tag(path=str(AXE))
    assert page.evaluate(SERIOUS) == []
    context.close()
