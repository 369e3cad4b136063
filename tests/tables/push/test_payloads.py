"""What a player's phone shows when a round is published: "Turno 2 — Tavolo 7, con Rossi, Bianchi,
Verdi" (the others at the table by surname, in seat order), in the language of the page the phone
subscribed from; the tournament as the title; a tap opens the player's page."""
import pytest
from django.urls import reverse

from tables.push.selectors import round_notifications
from tables.push.services import subscription_save
from tests.factories import RegistrationFactory, seat_round
from tests.tables.push.conftest import phone


def _seat(tournament, names, number, table_number):
    """Round `number` whose table `table_number` seats players of these surnames (other tables empty)."""
    regs = [RegistrationFactory(tournament=tournament, player__last_name=n) for n in names]
    tables = [[] for _ in range(table_number - 1)] + [regs]
    for n in range(1, number):
        seat_round(tournament, [], number=n, status="closed")
    return seat_round(tournament, tables, number=number), regs


def _follow(reg, n=1, language="it"):
    data = phone(n)
    return subscription_save(registration=reg, endpoint=data["endpoint"], p256dh=data["keys"]["p256dh"],
                             auth=data["keys"]["auth"], language=language)


@pytest.mark.parametrize("language, body", [
    ("it", "Turno 2 — Tavolo 7, con Rossi, Bianchi, Verdi"),
    ("en", "Round 2 — Table 7, with Rossi, Bianchi, Verdi"),
])
def test_a_table_of_four_names_the_three_others_by_surname(vapid, tournament, language, body):
    rnd, regs = _seat(tournament, ["Esposito", "Rossi", "Bianchi", "Verdi"], number=2, table_number=7)
    _follow(regs[0], language=language)
    [note] = round_notifications(rnd.pk)
    assert note.payload == {"title": tournament.name, "body": body, "tag": f"torneo-{tournament.pk}",
                            "url": reverse("public:player", args=[tournament.pk, regs[0].pk])}


@pytest.mark.parametrize("language, body", [
    ("it", "Turno 1 — Tavolo 3, con Esposito, Rossi, Bianchi, Verdi"),
    ("en", "Round 1 — Table 3, with Esposito, Rossi, Bianchi, Verdi"),
])
def test_a_table_of_five_names_the_four_others_in_seat_order(vapid, tournament, language, body):
    rnd, regs = _seat(tournament, ["Esposito", "Rossi", "Neri", "Bianchi", "Verdi"], number=1, table_number=3)
    _follow(regs[2], language=language)
    [note] = round_notifications(rnd.pk)
    assert note.payload["body"] == body


def test_two_others_of_one_surname_are_told_apart_by_their_initial(vapid, tournament):
    regs = [RegistrationFactory(tournament=tournament, player__first_name=f, player__last_name=n)
            for f, n in [("Anna", "Neri"), ("Mario", "Rossi"), ("Luca", "Rossi"), ("Sara", "Bianchi")]]
    rnd = seat_round(tournament, [regs])
    _follow(regs[0])
    [note] = round_notifications(rnd.pk)
    assert note.payload["body"] == "Turno 1 — Tavolo 1, con Rossi M., Rossi L., Bianchi"


def test_a_phone_subscribed_from_a_page_in_another_language_gets_the_sites_italian(vapid, tournament):
    vapid.LANGUAGE_CODE = "it"
    rnd, regs = _seat(tournament, ["Esposito", "Rossi", "Bianchi", "Verdi"], number=1, table_number=1)
    sub = _follow(regs[0], language="fr")
    assert sub.language == "it"
    [note] = round_notifications(rnd.pk)
    assert note.payload["body"] == "Turno 1 — Tavolo 1, con Rossi, Bianchi, Verdi"


def test_each_phone_of_the_round_gets_its_own_table(vapid, tournament):
    first = [RegistrationFactory(tournament=tournament, player__last_name=n) for n in ["A", "B", "C", "D"]]
    second = [RegistrationFactory(tournament=tournament, player__last_name=n) for n in ["E", "F", "G", "H"]]
    rnd = seat_round(tournament, [first, second])
    _follow(first[1], 1)
    _follow(second[3], 2, language="en")
    bodies = sorted(note.payload["body"] for note in round_notifications(rnd.pk))
    assert bodies == ["Round 1 — Table 2, with E, F, G", "Turno 1 — Tavolo 1, con A, C, D"]
