"""The penalty form on a phone and a desktop: choosing the player reloads the game list with the table
mates of each game; a warning about the whole tournament needs no game."""
import pytest

from tables.models import Penalty, Seat
from tests.browser.catalogue import it
from tests.browser.conftest import PHONE
from tests.factories import RegistrationFactory, seat_round

pytestmark = pytest.mark.django_db(transaction=True)
DESKTOP = {"width": 1280, "height": 800}


def _options(page):
    return page.eval_on_selector_all("#id_seat option", "els => els.map(e => e.textContent.trim())")


def _seat(rnd, registration):
    return Seat.objects.get(table__round=rnd, registration=registration).pk


def _game(round_number, table_number, mates):
    return it("Round %(r)d, table %(t)d — with %(mates)s", r=round_number, t=table_number, mates=mates)


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_game_list_follows_the_player_and_a_warning_needs_no_game(live_server, browser, login, shot,
                                                                     tournament, viewport):
    regs = {n: RegistrationFactory(tournament=tournament, player__first_name="Gioc", player__last_name=n)
            for n in ["Rossi", "Bianchi", "Ferrari", "Romano", "Colombo", "Ricci", "Marino", "Greco"]}
    r = regs
    first = seat_round(tournament, [[r["Rossi"], r["Bianchi"], r["Ferrari"], r["Romano"]],
                                    [r["Colombo"], r["Ricci"], r["Marino"], r["Greco"]]])
    second = seat_round(tournament, [[r["Colombo"], r["Rossi"], r["Marino"], r["Bianchi"]],
                                     [r["Ricci"], r["Ferrari"], r["Greco"], r["Romano"]]])
    context = browser.new_context(viewport=viewport, locale="it-IT", is_mobile=viewport is PHONE,
                                  has_touch=viewport is PHONE)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    login(page, "arturo")
    page.goto(f"{live_server.url}/arbitro/t/{tournament.pk}/penalita/")
    page.click("details.panel summary")
    whole = it("— whole tournament —")
    assert _options(page) == [whole]

    page.select_option("#id_registration", str(r["Rossi"].pk))
    page.wait_for_selector(f"#id_seat option[value='{_seat(second, r['Rossi'])}']", state="attached")
    assert _options(page) == [whole, _game(1, 1, "Bianchi, Ferrari, Romano"), _game(2, 1, "Colombo, Marino, Bianchi")]
    page.select_option("#id_registration", str(r["Greco"].pk))
    page.wait_for_selector(f"#id_seat option[value='{_seat(first, r['Greco'])}']", state="attached")
    assert _options(page) == [whole, _game(1, 2, "Colombo, Ricci, Marino"), _game(2, 2, "Ricci, Ferrari, Romano")]
    page.select_option("#id_seat", index=2)
    shot(page, f"penalty-games-of-the-player-{viewport['width']}")

    page.select_option("#id_kind", "warning")
    page.select_option("#id_seat", index=0)
    page.fill("#id_reason", "Linguaggio offensivo verso un avversario")
    page.click("main form button[type=submit]")
    page.wait_for_selector(".msg-success")
    penalty = Penalty.objects.get()
    card = page.locator(f".card[data-penalty='{penalty.pk}']")
    assert it("whole tournament") in card.inner_text()
    shot(page, f"penalty-warning-whole-tournament-{viewport['width']}")
    assert (penalty.kind, penalty.seat, penalty.registration_id) == ("warning", None, r["Greco"].pk)
    assert errors == []
    context.close()
