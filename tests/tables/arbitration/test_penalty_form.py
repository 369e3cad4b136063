"""The penalty form: the game list follows the chosen player (htmx), a warning may be about the whole
tournament; withdrawing an expulsion reinstates only a player the expulsion withdrew."""
import pytest
from django.urls import reverse

from tables.arbitration import services as arbitration
from tables.models import Penalty
from tests.factories import RegistrationFactory, seat_round
from tests.html import field_errors, one, parse, select, text, texts, tr
from tournaments import services
from tournaments.models import AuditLog, Registration

pytestmark = pytest.mark.django_db


@pytest.fixture
def regs(tournament):
    return {n: RegistrationFactory(tournament=tournament, player__first_name=n.lower(), player__last_name=n)
            for n in ["Rossi", "Bianchi", "Verdi", "Neri", "Gialli", "Blu", "Viola", "Rosa"]}


@pytest.fixture
def rounds(tournament, regs):
    r = regs
    first = seat_round(tournament, [[r["Rossi"], r["Bianchi"], r["Verdi"], r["Neri"]],
                                  [r["Gialli"], r["Blu"], r["Viola"], r["Rosa"]]])
    second = seat_round(tournament, [[r["Gialli"], r["Blu"], r["Viola"], r["Rosa"]],
                                  [r["Neri"], r["Verdi"], r["Rossi"], r["Bianchi"]]])
    draft = seat_round(tournament, [[r["Rossi"], r["Gialli"], r["Verdi"], r["Viola"]]], status="draft")
    return first, second, draft


GAME = "Round %(r)d, table %(t)d — with %(mates)s"


def _games_response(client, tournament, registration, lang="en"):
    response = client.get(reverse("arbiter:penalty_games", args=[tournament.pk]),
                          {"registration": registration}, HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 200
    return response


def _games(client, tournament, registration):
    """The game list's options, (value, label), checking that the answer holds nothing else."""
    fragment = parse(_games_response(client, tournament, registration))
    assert {tag.name for tag in fragment.find_all(True)} == {"option"}
    return _options(fragment)


def _options(node):
    return [(option["value"], text(option)) for option in select(node, "option")]


def _seat(rnd, name):
    return rnd.tables.get(seats__registration__player__last_name=name).seats.get(
        registration__player__last_name=name)


def test_choosing_a_player_lists_their_games_with_their_table_mates(client, arbiter, tournament, regs, rounds):
    first, second, _draft = rounds
    client.force_login(arbiter)
    assert _games(client, tournament, regs["Rossi"].pk) == [
        ("", tr("— whole tournament —")),
        (str(_seat(first, "Rossi").pk), tr(GAME, r=1, t=1, mates="Bianchi, Verdi, Neri")),
        (str(_seat(second, "Rossi").pk), tr(GAME, r=2, t=2, mates="Neri, Verdi, Bianchi"))]


def test_the_game_list_reads_in_italian(client, arbiter, tournament, regs, rounds):
    client.force_login(arbiter)
    body = " ".join(_games_response(client, tournament, regs["Gialli"].pk, lang="it").content.decode().split())
    assert "Turno 1, tavolo 2 — con Blu, Viola, Rosa" in body
    assert "Turno 2, tavolo 1 — con Blu, Viola, Rosa" in body
    assert "— tutto il torneo —" in body


def test_a_draft_round_and_an_unknown_player_list_no_game(client, arbiter, tournament, regs, rounds):
    client.force_login(arbiter)
    draft_seat = str(_seat(rounds[2], "Rossi").pk)
    listed = [value for value, _label in _games(client, tournament, regs["Rossi"].pk)]
    assert len(listed) == 3 and draft_seat not in listed   # the whole tournament, rounds 1 and 2
    other = RegistrationFactory()  # another tournament's registration
    for value in [other.pk, "", "x", "99999999"]:
        assert _games(client, tournament, value) == [("", tr("— whole tournament —"))]


def test_the_form_lists_only_the_chosen_players_games(client, arbiter, tournament, regs, rounds):
    first, second, _draft = rounds
    client.force_login(arbiter)
    page = client.get(reverse("arbiter:penalties", args=[tournament.pk]))
    assert [value for value, _label in _options(one(page, "select#id_seat"))] == [""]  # no player chosen: no game
    # a refused form comes back with the chosen player's games
    response = client.post(reverse("arbiter:penalties", args=[tournament.pk]),
                           {"registration": regs["Blu"].pk, "kind": "forfeit", "reason": "assente"})
    assert response.status_code == 400
    assert field_errors(response, "seat") == [tr("Choose the game this penalty applies to.")]
    assert _options(one(response, "select#id_seat")) == [
        ("", tr("— whole tournament —")),
        (str(_seat(first, "Blu").pk), tr(GAME, r=1, t=2, mates="Gialli, Viola, Rosa")),
        (str(_seat(second, "Blu").pk), tr(GAME, r=2, t=1, mates="Gialli, Viola, Rosa"))]
    assert Penalty.objects.count() == 0


def test_a_game_of_another_player_is_refused(client, arbiter, tournament, regs, rounds):
    first, _second, _draft = rounds
    client.force_login(arbiter)
    response = client.post(reverse("arbiter:penalties", args=[tournament.pk]),
                           {"registration": regs["Rossi"].pk, "kind": "game_dq", "reason": "x",
                            "seat": _seat(first, "Gialli").pk})
    assert response.status_code == 400
    assert Penalty.objects.count() == 0


def test_a_warning_may_apply_to_the_whole_tournament(client, arbiter, tournament, regs, rounds):
    client.force_login(arbiter)
    response = client.post(reverse("arbiter:penalties", args=[tournament.pk]),
                           {"registration": regs["Verdi"].pk, "kind": "warning", "reason": "linguaggio offensivo"})
    assert response.status_code == 302
    penalty = Penalty.objects.get()
    assert (penalty.kind, penalty.seat, penalty.registration) == ("warning", None, regs["Verdi"])
    card = one(client.get(reverse("arbiter:penalties", args=[tournament.pk])), f"[data-penalty='{penalty.pk}']")
    about, reason = texts(card, "p")[:2]
    assert about.startswith(f"{tr('whole tournament')} · arturo · ") and reason == "linguaggio offensivo"
    assert AuditLog.objects.filter(action="penalty.warning", table_label="").count() == 1


def test_a_warning_about_one_game_names_it(client, arbiter, tournament, regs, rounds):
    first, _second, _draft = rounds
    client.force_login(arbiter)
    client.post(reverse("arbiter:penalties", args=[tournament.pk]),
                {"registration": regs["Verdi"].pk, "kind": "warning", "reason": "ritardo",
                 "seat": _seat(first, "Verdi").pk})
    assert Penalty.objects.get().seat == _seat(first, "Verdi")


def test_withdrawing_an_expulsion_reinstates_the_player_it_withdrew(tournament, regs, rounds, arbiter):
    reg = regs["Neri"]
    penalty = arbitration.penalty_give(user=arbiter, tournament=tournament, registration=reg, kind="expulsion",
                                       reason="grave scorrettezza")
    reg.refresh_from_db()
    assert reg.status == Registration.Status.WITHDRAWN
    arbitration.penalty_withdraw(user=arbiter, penalty=penalty, reason="errore")
    reg.refresh_from_db()
    assert reg.status == Registration.Status.CONFIRMED


def test_withdrawing_an_expulsion_leaves_a_player_who_had_withdrawn_withdrawn(tournament, regs, rounds, arbiter,
                                                                             organiser):
    reg = regs["Neri"]
    services.registration_withdraw(user=organiser, registration=reg)
    penalty = arbitration.penalty_give(user=arbiter, tournament=tournament, registration=reg, kind="expulsion",
                                       reason="grave scorrettezza")
    arbitration.penalty_withdraw(user=arbiter, penalty=penalty, reason="errore")
    reg.refresh_from_db()
    assert reg.status == Registration.Status.WITHDRAWN
    assert not AuditLog.objects.filter(action="registration.reinstate").exists()
