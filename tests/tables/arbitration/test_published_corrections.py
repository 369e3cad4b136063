"""After a round's standings are published, a result changes only through the arbitration: the
organiser corrects it, or an arbiter corrects a table under an open dispute (upheld, it links the
correction). An arbiter alone is refused with the rule."""
import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from tables.arbitration import services as arbitration
from tables.rounds import services
from tables.models import Seat
from tests.factories import RegistrationFactory, report, seat_round
from tests.html import alerts, one, text, tr
from tournaments.models import AuditLog

pytestmark = pytest.mark.django_db

RULE_MESSAGE = ("The standings of round %(round)d are published: a correction of table %(table)d is a dispute "
                "decision. Record the dispute about this table's result first, or ask the organiser.")
RULE = RULE_MESSAGE % {"round": 1, "table": 1}


@pytest.fixture
def published(tournament, organiser):
    regs = [RegistrationFactory(tournament=tournament, player__last_name=n) for n in "ABCD"]
    rnd = seat_round(tournament, [regs])
    report(rnd.tables.get(), [(62,), (48,), (30,), (0, 1)])
    services.round_close(user=organiser, rnd=rnd)
    services.standings_publish(user=organiser, rnd=rnd)
    return rnd


def _points(rnd):
    return [s.table_points for s in Seat.objects.filter(table__round=rnd).order_by("position")]


def test_arbiter_alone_cannot_correct_a_result_once_the_standings_are_published(published, arbiter):
    table = published.tables.get()
    with pytest.raises(ValidationError) as exc:
        report(table, [(62,), (70,), (30,), (0, 1)], user=arbiter)
    assert exc.value.messages == [RULE]
    assert _points(published) == [62, 48, 30, 0]
    assert not AuditLog.objects.filter(action="result.correct").exists()


def test_arbiter_correction_through_the_result_page_shows_the_rule(client_for, published, arbiter):
    table = published.tables.get()
    seats = list(table.seats.order_by("position"))
    data = {"version": table.version}
    for i, (seat, tp) in enumerate(zip(seats, ("62", "70", "30", "0"))):
        data.update({f"p{i}-seat": seat.pk, f"p{i}-table_points": tp})
    data["p3-eliminated"] = "1"
    response = client_for(arbiter).post(reverse("arbiter:table", args=[published.tournament.pk, 1, 1]), data)
    assert response.status_code == 400
    assert alerts(response) == [tr(RULE_MESSAGE, round=1, table=1)]
    assert _points(published) == [62, 48, 30, 0]


def test_arbiter_corrects_under_an_open_result_dispute_and_upholding_links_it(published, arbiter, tournament):
    table = published.tables.get()
    dispute = arbitration.dispute_record(user=arbiter, tournament=tournament, about="result", raised_by="B",
                                         text="B aveva 70 punti", table=table)
    report(table, [(62,), (70,), (30,), (0, 1)], user=arbiter)
    decided = arbitration.dispute_decide(user=arbiter, dispute=dispute, state="upheld", decision="accolto")
    assert decided.correction.action == "result.correct"
    assert _points(published) == [62, 70, 30, 0]


def test_a_decided_dispute_no_longer_opens_the_table(published, arbiter, tournament):
    table = published.tables.get()
    dispute = arbitration.dispute_record(user=arbiter, tournament=tournament, about="result", raised_by="B",
                                         text="B aveva 70 punti", table=table)
    arbitration.dispute_decide(user=arbiter, dispute=dispute, state="rejected", decision="respinto")
    with pytest.raises(ValidationError) as exc:
        report(table, [(62,), (70,), (30,), (0, 1)], user=arbiter)
    assert exc.value.messages == [RULE]


def test_an_open_standings_dispute_lets_the_arbiter_correct(published, arbiter, tournament):
    arbitration.dispute_record(user=arbiter, tournament=tournament, about="standing", raised_by="C",
                               text="classifica sbagliata")
    report(published.tables.get(), [(62,), (70,), (30,), (0, 1)], user=arbiter)
    assert _points(published) == [62, 70, 30, 0]


def test_organiser_corrects_a_published_round_and_it_is_logged(published, organiser):
    report(published.tables.get(), [(62,), (70,), (30,), (0, 1)], user=organiser)
    entry = AuditLog.objects.get(action="result.correct")
    assert (entry.user, str(entry.before["table_points"]), str(entry.after["table_points"])) == (organiser, "48", "70")


def test_arbiter_still_corrects_freely_before_the_standings_are_published(tournament, arbiter):
    regs = [RegistrationFactory(tournament=tournament) for _ in range(4)]
    rnd = seat_round(tournament, [regs])
    report(rnd.tables.get(), [(62,), (48,), (30,), (0, 1)], user=arbiter)
    report(rnd.tables.get(), [(62,), (70,), (30,), (0, 1)], user=arbiter)
    assert _points(rnd) == [62, 70, 30, 0]


def test_disputes_page_states_the_rule(client_for, published, arbiter):
    response = client_for(arbiter).get(reverse("arbiter:disputes", args=[published.tournament.pk]))
    assert text(one(response, "[data-message=correction-rule]")) == tr(
        "Once a round's standings are published its results are corrected by the organiser, or by an arbiter while "
        "a dispute about the table's result (or the standings) is open: record the dispute, correct the result, "
        "then uphold the dispute, which links the correction.")


def test_result_page_of_a_published_round_says_who_corrects(client_for, published, arbiter):
    response = client_for(arbiter).get(reverse("arbiter:table", args=[published.tournament.pk, 1, 1]))
    notice = one(response, "[data-message=published-corrections]")
    assert text(notice) == " ".join([tr("The standings of this round are published: a correction is made by the "
                                        "organiser, or by an arbiter while a dispute about this table's result is "
                                        "open."), tr("Disputes")])
    assert notice.a["href"] == reverse("arbiter:disputes", args=[published.tournament.pk])


def test_firenze_sheet_follows_the_same_rule(tournament, arbiter, organiser, client_for):
    from django.utils import timezone

    from phases import services as phase_services
    from tables.results import firenze
    from tables.models import Round
    from tests.phases.helpers import players

    players(tournament, 12)
    phase_services.format_apply(user=organiser, tournament=tournament, preset="knockout")
    client = client_for(organiser)
    for action in ("draw", "publish"):
        assert client.post(reverse("manage:phase_action", args=[tournament.pk, 1, action])).status_code == 302
    Round.objects.filter(tournament=tournament, number=1).update(standings_published_at=timezone.now())
    table = tournament.rounds.get(number=1).tables.get(number=1)
    counts = {seat.pk: {"objective_territories": 10 - i} for i, seat in enumerate(table.seats.all())}
    with pytest.raises(ValidationError) as exc:
        firenze.firenze_sheet_submit(user=arbiter, table=table, counts=counts, version=table.version)
    assert exc.value.messages == [RULE]
    firenze.firenze_sheet_submit(user=organiser, table=table, counts=counts, version=table.version)
    assert Seat.objects.filter(table=table, firenze__isnull=False).count() == 4
