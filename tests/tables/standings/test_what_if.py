"""What if: on the side-by-side page an organiser replays the tournament's results under any rule —
published, their club's own, or a draft from the rule form never saved — and sees the podium now and
under the rule, and every player who changes place."""
import pytest
from django.urls import reverse

from tables.standings.selectors import tournament_standings
from tests.factories import RegistrationFactory, TournamentFactory, report, seat_round
from tests.html import one, select, text, texts
from tournaments.club_rules import services
from tournaments.club_rules.forms import blank_data
from tournaments.models import ClubRule

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(tournament):
    """Eight players, one round under conversione150: A wins table 1 with 62, E table 2 with 40 (F 39)."""
    regs = {n: RegistrationFactory(tournament=tournament, player__last_name=n, player__first_name="X")
            for n in "ABCDEFGH"}
    rnd = seat_round(tournament, [[regs[n] for n in "ABCD"], [regs[n] for n in "EFGH"]])
    report(rnd.tables.get(number=1), [(62,), (48,), (30,), (0, 1)])
    report(rnd.tables.get(number=2), [(40,), (39,), (2,), (1,)])
    return regs


@pytest.fixture
def table_points_rule(organiser):
    return services.club_rule_create(user=organiser, document={
        "schema": "torneo.rule/1", "name": "Solo punti tavolo", "formula": "punti_tavolo", "params": {}})


def names(page, css):
    return [t.split()[-1] for t in texts(page, css)]


def test_an_own_rule_replayed_shows_the_changed_podium_and_every_moved_player(
        client, organiser, tournament, played, table_points_rule):
    client.force_login(organiser)
    page = client.get(reverse("manage:formulas_compared", args=[tournament.pk]), {"regola": table_points_rule.key})
    assert one(page, "#what-if-rule option[selected]")["value"] == table_points_rule.key
    assert names(page, "[data-podium=now] li") == ["A", "E", "F"]     # F's 39 close behind E's 40
    assert names(page, "[data-podium=rule] li") == ["A", "B", "E"]     # 62, 48, 40 table points
    assert one(page, "[data-podium-changed]")["data-podium-changed"] == "yes"
    now = {r.registration_id: r.rank for r in tournament_standings(tournament).rows}
    under = {r.registration_id: r.rank for r in tournament_standings(tournament, "punti_tavolo").rows}
    moved = {played[n].player.pk: n for n in played if now[played[n].pk] != under[played[n].pk]}
    shown = {int(row["data-moved-player"]): (int(text(one(row, "[data-rank-now]"))), int(text(one(row, "[data-rank-rule]"))))
             for row in select(page, "[data-moved] tr[data-moved-player]")}
    assert set(shown) == set(moved) and {"B", "E"} <= set(moved.values())
    assert shown[played["B"].player.pk] == (now[played["B"].pk], 2) and shown[played["E"].player.pk] == (2, 3)
    assert now[played["B"].pk] > 3


def test_a_published_rule_replays_and_the_tournament_is_unchanged(client, organiser, tournament, played):
    client.force_login(organiser)
    page = client.get(reverse("manage:formulas_compared", args=[tournament.pk]), {"regola": "finale_2004"})
    assert select(page, "[data-what-if]") and not select(page, "[data-what-if-refused]")
    tournament.refresh_from_db()
    assert (tournament.formula, tournament.club_preset) == ("conversione150", "")


def test_another_organisers_rule_is_not_replayed(client, other_organiser, tournament, played, table_points_rule):
    mine = TournamentFactory(organiser=other_organiser)
    client.force_login(other_organiser)
    page = client.get(reverse("manage:formulas_compared", args=[mine.pk]), {"regola": table_points_rule.key})
    assert not select(page, "[data-what-if]")
    assert table_points_rule.key not in [o["value"] for o in select(page, "#what-if-rule option")]


def test_a_rule_the_results_do_not_suit_is_named_refused(client, organiser, tournament):
    regs = [RegistrationFactory(tournament=tournament) for _ in range(4)]
    report(seat_round(tournament, [regs]).tables.get(), [(48,), (48,), (30,), (0, 1)])   # a tie for first
    rule = services.club_rule_create(user=organiser, document={
        "schema": "torneo.rule/1", "name": "Maialino", "formula": "maialino_2024"})
    client.force_login(organiser)
    page = client.get(reverse("manage:formulas_compared", args=[tournament.pk]), {"regola": rule.key})
    assert page.status_code == 200 and select(page, "[data-what-if-refused]")
    assert not select(page, "[data-moved]")


def test_a_draft_from_the_rule_form_replays_without_being_saved(client, organiser, tournament, played):
    client.force_login(organiser)
    data = blank_data() | {"name": "Bozza", "formula": "punti_tavolo", "tournament": tournament.pk}
    page = client.post(reverse("manage:what_if_draft"), data)
    assert page.status_code == 200
    assert names(page, "[data-podium=rule] li") == ["A", "B", "E"]
    assert "Bozza" in text(one(page, "[data-what-if] h3"))
    assert not ClubRule.objects.filter(owner=organiser).exists()


def test_a_draft_the_engine_refuses_is_named_and_nothing_is_replayed(client, organiser, tournament, played):
    client.force_login(organiser)
    data = blank_data() | {"name": "Bozza", "corrective_scope": "table_points", "como_reference": "",
                           "tournament": tournament.pk}
    page = client.post(reverse("manage:what_if_draft"), data)
    assert page.status_code == 400 and "corrective_scope" in text(one(page, "[data-what-if-refused]"))


def test_a_draft_on_another_organisers_tournament_is_404(client, other_organiser, tournament, played):
    client.force_login(other_organiser)
    data = blank_data() | {"tournament": tournament.pk}
    assert client.post(reverse("manage:what_if_draft"), data).status_code == 404


def _column(page, key):
    """The ranks a column of the side-by-side table gives, by player's last name."""
    headers = [th.get("data-column") for th in select(page, "table.compare thead th")]
    index = headers.index(key)
    return {text(row.select("th")[0]).split()[-1]: text(row.select("th, td")[index])
            for row in select(page, "table.compare tbody tr")}


def test_my_rule_chosen_has_its_podium_card_and_column_beside_the_published_rules(
        client, organiser, tournament, played, table_points_rule):
    client.force_login(organiser)
    page = client.get(reverse("manage:formulas_compared", args=[tournament.pk]), {"regola": table_points_rule.key})
    card = one(page, f".podiums [data-column='preset:{table_points_rule.key}']")
    assert card.has_attr("data-chosen")
    assert [t.split()[-1] for t in texts(card, "ol li")] == names(page, "[data-podium=rule] li") == ["A", "B", "E"]
    ranks = _column(page, f"preset:{table_points_rule.key}")
    assert (ranks["A"], ranks["B"], ranks["E"]) == ("1", "2", "3")
    assert len(select(page, ".podiums [data-chosen]")) == 1


def test_a_published_rule_chosen_is_marked_not_repeated(client, organiser, tournament, played):
    client.force_login(organiser)
    page = client.get(reverse("manage:formulas_compared", args=[tournament.pk]), {"regola": "finale_2004"})
    assert one(page, ".podiums [data-chosen]")["data-column"] == "preset:finale_2004"
    assert len(select(page, "table.compare thead th[data-column='preset:finale_2004']")) == 1


def test_a_draft_replayed_is_the_rule_selected_and_has_its_card_and_column(client, organiser, tournament, played):
    client.force_login(organiser)
    data = blank_data() | {"name": "Bozza", "formula": "punti_tavolo", "tournament": tournament.pk}
    page = client.post(reverse("manage:what_if_draft"), data)
    selected = one(page, "#what-if-rule option[selected]")
    assert selected.has_attr("data-draft-rule") and selected["value"] == ""
    card = one(page, ".podiums [data-column='preset:draft']")
    assert card.has_attr("data-chosen") and [t.split()[-1] for t in texts(card, "ol li")] == ["A", "B", "E"]
    assert _column(page, "preset:draft")["B"] == "2"


def test_without_a_rule_chosen_no_column_is_marked(client, organiser, tournament, played):
    client.force_login(organiser)
    page = client.get(reverse("manage:formulas_compared", args=[tournament.pk]))
    assert select(page, ".podiums [data-chosen]") == [] and select(page, "#what-if-rule option[data-draft-rule]") == []
