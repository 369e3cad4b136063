"""The Italian guide (docs/organiser/, docs/arbiter/, docs/index.md) names the screens' buttons, tabs and
fields in bold: each such label must be on the page it describes, as the site writes it in Italian.

Every bold phrase of the guide is a label, and WHERE says on which page it is; a bold phrase WHERE does not
place fails, as does a label the page does not show (a button renamed, a tab removed), and a place WHERE
keeps for a label the guide no longer names."""
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from tests.factories import RegistrationFactory, UserFactory, report, seat_round
from tests.html import parse, text
from tournaments.club_rules.services import club_rule_create
from tables.models import Round

DOCS = Path(settings.BASE_DIR) / "docs"
GUIDE = sorted([DOCS / "index.md", *(DOCS / "organiser").glob("*.md"), *(DOCS / "arbiter").glob("*.md")])
BOLD = re.compile(r"\*\*(.+?)\*\*", re.S)

# What a reader can tap or fill in: links (the tabs are links), buttons, summaries, form labels and legends.
CONTROLS = "a, button, summary, label, legend, input[type=submit]"


def _tournament(world):
    return [world["fresh"].pk]


def _round(name, number=1):
    return lambda world: [world[name].pk, number]


# label in the guide -> (who looks, the page: its URL name and its arguments from the world)
WHERE = {
    # Preparare una serata
    "Nuovo torneo": ("organiser", "manage:home", None),
    "Copia": ("organiser", "manage:tournament_create", None),
    "Regolamento del club": ("organiser", "manage:tournament_create", None),
    "Riepilogo": ("organiser", "manage:tournament", _tournament),
    "Giocatori": ("organiser", "manage:tournament", _tournament),
    "Presenze": ("organiser", "manage:tournament", _tournament),
    "Turni": ("organiser", "manage:tournament", _tournament),
    "Modifica": ("organiser", "manage:tournament", _tournament),
    "Crea l'account": ("organiser", "manage:arbiters", _tournament),
    "Tutti presenti": ("organiser", "manage:checkin", _tournament),
    "Sorteggia": ("organiser", "manage:rounds", _tournament),
    "Pubblica i tavoli": ("organiser", "manage:round", _round("draft")),
    "Stampa le schede dei tavoli": ("organiser", "manage:round", _round("draft")),
    "Maxischermo": ("organiser", "manage:round", _round("playing")),
    # Chiudere un turno
    "Risultati": ("organiser", "manage:tournament", _tournament),
    "Chiudi il turno": ("organiser", "manage:round_dashboard", _round("playing")),
    "Pubblica la classifica": ("organiser", "manage:round_dashboard", _round("closed")),
    "Riapri il turno": ("organiser", "manage:round_dashboard", _round("closed")),
    "Registro": ("organiser", "manage:tournament", _tournament),
    # Un Raduno, le stagioni passate, il regolamento del circolo
    "Formato": ("organiser", "manage:tournament", _tournament),
    "Punteggio": ("organiser", "manage:tournament", _tournament),
    "Importa un torneo passato": ("organiser", "manage:home", None),
    "Regolamenti dei club": ("organiser", "manage:home", None),
    "Nuovo regolamento vuoto": ("organiser", "manage:club_rules", None),
    "Ricalcola": ("organiser", "manage:formulas_compared", _tournament),
    # Arbitri
    "Punti tavolo": ("arbiter", "arbiter:table", lambda world: [world["playing"].pk, 1, 1]),
    "RisiKo!": ("arbiter", "arbiter:table", lambda world: [world["playing"].pk, 1, 1]),
    "Salva il risultato": ("arbiter", "arbiter:table", lambda world: [world["playing"].pk, 1, 1]),
    "Questi sono i miei tavoli": ("arbiter", "arbiter:home", lambda world: [world["playing"].pk]),
    "Penalità": ("arbiter", "arbiter:home", lambda world: [world["playing"].pk]),
    "Ricorsi": ("arbiter", "arbiter:home", lambda world: [world["playing"].pk]),
}


def guide_labels():
    """{label: [guide pages naming it]} for every bold phrase of the guide."""
    found = {}
    for page in GUIDE:
        for label in BOLD.findall(page.read_text()):
            found.setdefault(" ".join(label.split()), []).append(page.relative_to(DOCS).as_posix())
    return found


def controls(page):
    """The words of every control of a page as a reader sees them: a field's label without its colon, a
    button without the words only a screen reader says (.sr-only)."""
    document = parse(page)
    for hidden in document.select(".sr-only"):
        hidden.decompose()
    return {" ".join(text(node).split()).rstrip(":").strip() for node in document.select(CONTROLS)} | {
        node.get("value", "") for node in document.select("input[type=submit]")}


@pytest.fixture
def world(organiser, arbiter, tournament):
    """Four tournaments of the organiser, `arbiter` arbitrating each: one with no round yet (players checked
    in), one with a draft round, one with a round being played, one with its round closed."""
    from tests.factories import TournamentFactory
    found = {"fresh": tournament}
    for name in ("draft", "playing", "closed"):
        found[name] = TournamentFactory(organiser=organiser, name=f"Torneo {name}")
        found[name].arbiters.add(arbiter)
    for name, t in found.items():
        regs = [RegistrationFactory(tournament=t, present=True) for _ in range(4)]
        if name != "fresh":
            rnd = seat_round(t, [regs], status="draft" if name == "draft" else "published")
            if name == "closed":
                report(rnd.tables.get(), [(60,), (40,), (30,), (20,)])
                Round.objects.filter(pk=rnd.pk).update(status=Round.Status.CLOSED)
    club_rule_create(user=organiser, document={"schema": "torneo.rule/1", "name": "Serata", "formula": "bonus50"})
    return found


def test_every_label_the_guide_names_in_bold_is_placed_on_a_page():
    assert sorted(set(guide_labels()) - set(WHERE)) == []


def test_every_place_kept_here_is_for_a_label_the_guide_names():
    assert sorted(set(WHERE) - set(guide_labels())) == []


@pytest.mark.django_db
@pytest.mark.parametrize("label", sorted(WHERE))
def test_the_label_is_on_the_page_the_guide_describes(label, world, client, organiser, arbiter):
    who, name, arguments = WHERE[label]
    client.force_login(organiser if who == "organiser" else arbiter)
    page = client.get(reverse(name, args=arguments(world) if arguments else None), HTTP_ACCEPT_LANGUAGE="it")
    assert page.status_code == 200
    assert label in controls(page), f"{label!r} is not a control of {name} (guide: {guide_labels().get(label)})"
