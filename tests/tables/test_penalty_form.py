"""The penalty form: the game list follows the chosen player (htmx), a warning may be about the whole
tournament; withdrawing an expulsion reinstates only a player the expulsion withdrew."""
import pytest
from django.urls import reverse

from tables.arbitration import services as arbitration
from tables.models import Penalty
from tests.factories import RegistrationFactory, seat_round
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
    one = seat_round(tournament, [[r["Rossi"], r["Bianchi"], r["Verdi"], r["Neri"]],
                                  [r["Gialli"], r["Blu"], r["Viola"], r["Rosa"]]])
    two = seat_round(tournament, [[r["Gialli"], r["Blu"], r["Viola"], r["Rosa"]],
                                  [r["Neri"], r["Verdi"], r["Rossi"], r["Bianchi"]]])
    draft = seat_round(tournament, [[r["Rossi"], r["Gialli"], r["Verdi"], r["Viola"]]], status="draft")
    return one, two, draft


def _games(client, tournament, registration, lang="en"):
    response = client.get(reverse("arbiter:penalty_games", args=[tournament.pk]),
                          {"registration": registration}, HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 200
    return " ".join(response.content.decode().split())


def _seat(rnd, name):
    return rnd.tables.get(seats__registration__player__last_name=name).seats.get(
        registration__player__last_name=name)


def test_choosing_a_player_lists_their_games_with_their_table_mates(client, arbiter, tournament, regs, rounds):
    one, two, _draft = rounds
    client.force_login(arbiter)
    body = _games(client, tournament, regs["Rossi"].pk)
    assert body == ('<option value="">— whole tournament —</option>'
                    f'<option value="{_seat(one, "Rossi").pk}">Round 1, table 1 — with Bianchi, Verdi, Neri</option>'
                    f'<option value="{_seat(two, "Rossi").pk}">Round 2, table 2 — with Neri, Verdi, Bianchi</option>')


def test_the_game_list_reads_in_italian(client, arbiter, tournament, regs, rounds):
    client.force_login(arbiter)
    body = _games(client, tournament, regs["Gialli"].pk, lang="it")
    assert "Turno 1, tavolo 2 — con Blu, Viola, Rosa" in body
    assert "Turno 2, tavolo 1 — con Blu, Viola, Rosa" in body
    assert "— tutto il torneo —" in body


def test_a_draft_round_and_an_unknown_player_list_no_game(client, arbiter, tournament, regs, rounds):
    client.force_login(arbiter)
    assert "Round 3" not in _games(client, tournament, regs["Rossi"].pk)
    other = RegistrationFactory()  # another tournament's registration
    for value in [other.pk, "", "x", "99999999"]:
        assert _games(client, tournament, value) == '<option value="">— whole tournament —</option>'


def test_the_form_lists_only_the_chosen_players_games(client, arbiter, tournament, regs, rounds):
    one, two, _draft = rounds
    client.force_login(arbiter)
    page = client.get(reverse("arbiter:penalties", args=[tournament.pk])).content.decode()
    assert "Round 1, table" not in page  # no player chosen yet: no game
    # a refused form comes back with the chosen player's games
    response = client.post(reverse("arbiter:penalties", args=[tournament.pk]),
                           {"registration": regs["Blu"].pk, "kind": "forfeit", "reason": "assente"})
    assert response.status_code == 400
    page = " ".join(response.content.decode().split())
    assert "Choose the game this penalty applies to." in page
    assert "Round 1, table 2 — with Gialli, Viola, Rosa" in page
    assert "Round 2, table 1 — with Gialli, Viola, Rosa" in page
    assert "with Bianchi" not in page and Penalty.objects.count() == 0


def test_a_game_of_another_player_is_refused(client, arbiter, tournament, regs, rounds):
    one, _two, _draft = rounds
    client.force_login(arbiter)
    response = client.post(reverse("arbiter:penalties", args=[tournament.pk]),
                           {"registration": regs["Rossi"].pk, "kind": "game_dq", "reason": "x",
                            "seat": _seat(one, "Gialli").pk})
    assert response.status_code == 400
    assert Penalty.objects.count() == 0


def test_a_warning_may_apply_to_the_whole_tournament(client, arbiter, tournament, regs, rounds):
    client.force_login(arbiter)
    response = client.post(reverse("arbiter:penalties", args=[tournament.pk]),
                           {"registration": regs["Verdi"].pk, "kind": "warning", "reason": "linguaggio offensivo"})
    assert response.status_code == 302
    penalty = Penalty.objects.get()
    assert (penalty.kind, penalty.seat, penalty.registration) == ("warning", None, regs["Verdi"])
    page = client.get(reverse("arbiter:penalties", args=[tournament.pk])).content.decode()
    assert "whole tournament" in page.split("linguaggio offensivo")[0].rsplit("<li", 1)[1]
    assert AuditLog.objects.filter(action="penalty.warning", table_label="").count() == 1


def test_a_warning_about_one_game_names_it(client, arbiter, tournament, regs, rounds):
    one, _two, _draft = rounds
    client.force_login(arbiter)
    client.post(reverse("arbiter:penalties", args=[tournament.pk]),
                {"registration": regs["Verdi"].pk, "kind": "warning", "reason": "ritardo", "seat": _seat(one, "Verdi").pk})
    assert Penalty.objects.get().seat == _seat(one, "Verdi")


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
