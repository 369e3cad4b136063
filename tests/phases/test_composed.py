"""Composed formats (SCORING.md section 12): direct finalists, semifinal range, repêchage, absent
qualifiers replaced, played end to end through the services."""
import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from phases import draw
from phases import services as phase_services
from tables.rounds import services as table_services
from tables.models import Round
from tables.standings import selectors as standings_selectors
from tests.factories import report, seat_round
from tests.phases.helpers import report_order, seated
from tests.html import attr, field_errors, one, select, text, texts, tr
from tournaments.models import AuditLog, Registration, Tournament

# Table points of each player in rounds 1-4 (None: absent). Under `punti_tavolo` the points are the
# table points. One result is discarded. K scores 99 once (3 games); L joins at round 3 (2 games)
# with the best single game of all, 100, but the repêchage needs 3 games.
POINTS = {
    "A": [90, 90, 90, 90], "B": [85, 85, 85, 85], "C": [80, 80, 80, 80], "D": [75, 75, 75, 75],
    "E": [70, 70, 70, 70], "F": [65, 65, 65, 65], "G": [60, 60, 60, 60], "H": [55, 55, 55, 55],
    "I": [50, 50, 50, 50], "J": [45, 45, 45, 45], "K": [10, 10, 99, None], "L": [None, None, 100, 40],
}
TABLES = [["A", "B", "C", "D"], ["E", "F", "G", "H"], ["I", "J", "K", "L"]]


@pytest.fixture
def club(tournament, organiser):
    Tournament.objects.filter(pk=tournament.pk).update(formula="punti_tavolo")
    tournament.refresh_from_db()
    regs = {name: Registration.objects.create(
        tournament=tournament, status=Registration.Status.CONFIRMED, present=True,
        player=_player(name)) for name in POINTS}
    return tournament, regs


def _player(name):
    from tests.factories import PlayerFactory
    return PlayerFactory(last_name=name, first_name="X")


def _play_evenings(tournament, organiser, regs, rounds=4):
    for n in range(rounds):
        tables = [[regs[p] for p in t if POINTS[p][n] is not None] for t in TABLES]
        rnd = seat_round(tournament, tables)
        for table, names in zip(rnd.tables.order_by("number"), tables):
            report(table, [(POINTS[r.player.last_name][n],) for r in names], user=organiser)
        table_services.round_close(user=organiser, rnd=rnd)


def _by_name(regs, ids):
    names = {r.pk: n for n, r in regs.items()}
    return [names[i] for i in ids]


def _close(rnd, organiser):
    return table_services.round_close(user=organiser, rnd=Round.objects.get(pk=rnd.pk))


def test_preset_in_a_few_clicks_then_played_to_the_final(client, club, organiser):
    tournament, regs = club
    client.force_login(organiser)
    response = client.post(reverse("manage:formats", args=[tournament.pk]), {
        "form": "format", "preset": "evenings_top2_repechage", "games": "4", "discards": "1", "final": "on"})
    assert response.status_code == 302
    tournament.refresh_from_db()
    phases = list(tournament.phases.order_by("order"))
    assert [p.kind for p in phases] == ["qualifying", "semifinal", "final"]
    assert phases[0].settings["qualify"]["tiers"][0] == {
        "up_to": 24, "direct": 2, "semifinal": [3, 9], "repechage": {"seats": 1, "min_games": 3}}
    assert (tournament.rounds_planned, tournament.discard_worst) == (4, 1)

    _play_evenings(tournament, organiser, regs)
    # Qualifying standings with the worst result (an absence is a 0) discarded.
    rows = standings_selectors.qualifying_standings(tournament)
    totals = {_by_name(regs, [r.player])[0]: r.total for r in rows}
    assert (totals["A"], totals["K"], totals["L"], totals["J"]) == (270, 119, 140, 135)
    assert _by_name(regs, [r.player for r in rows]) == list("ABCDEFGHILJK")

    # C is not checked in: the range moves down (L, 10th, plays); the repêchage goes to K (best game 99
    # among those with 3 games), not to L (100 in 2 games) nor J (45).
    Registration.objects.filter(pk=regs["C"].pk).update(present=False)
    client_response = client.post(reverse("manage:phase_action", args=[tournament.pk, 2, "draw"]))
    assert client_response.status_code == 302
    semi = tournament.phases.get(order=2)
    assert _by_name(regs, semi.settings["seeded_to_final"]) == ["A", "B"]
    assert _by_name(regs, semi.settings["semifinalists"]) == list("DEFGHIL")
    assert _by_name(regs, semi.settings["repechage"]) == ["K"]
    assert _by_name(regs, semi.settings["absent"]) == ["C"]
    formats_page = client.get(reverse("manage:formats", args=[tournament.pk]))
    notices = [str(m) for m in formats_page.context["messages"]]
    assert any("C X" in m or "X C" in m for m in notices), notices
    # The notice stays on the phase's card.
    assert [v.notice for v in formats_page.context["phases"] if v.notice] == [notices[-1]]
    assert texts(formats_page, "[data-absent-notice]") == [notices[-1]]
    rnd = semi.round_set.get() if hasattr(semi, "round_set") else Round.objects.get(phase=semi)
    assert seated(rnd) == [["D", "G", "H", "K"], ["E", "F", "I", "L"]]
    entry = AuditLog.objects.filter(action="phase.draw").latest("pk")
    assert entry.after["repechage"] == [regs["K"].pk] and entry.after["absent"] == [regs["C"].pk]

    phase_services.phase_publish(user=organiser, phase=semi)
    t1, t2 = rnd.tables.order_by("number")
    report_order(t1, [regs["K"], regs["D"], regs["G"], regs["H"]], user=organiser)
    report_order(t2, [regs["F"], regs["E"], regs["I"], regs["L"]], user=organiser)
    _close(rnd, organiser)

    final_phase = tournament.phases.get(order=3)
    final = draw.phase_draw(user=organiser, phase=final_phase, seed=1)
    assert sorted(seated(final)[0]) == ["A", "B", "F", "K"]
    phase_services.phase_publish(user=organiser, phase=final_phase)
    report_order(final.tables.get(), [regs["K"], regs["A"], regs["F"], regs["B"]], user=organiser)
    _close(final, organiser)

    result = standings_selectors.final_standings(tournament)
    order = [r.registration.player.last_name for r in result.rows]
    assert order[:4] == ["K", "A", "F", "B"]
    assert order[4:] == ["C", "D", "E", "G", "H", "I", "L", "J"]
    assert [r.phase for r in result.rows[:5]] == ["final"] * 4 + ["qualifying"]
    assert result.complete


def test_one_direct_three_semifinals_of_four_with_the_repechage(club, organiser):
    tournament, regs = club
    phase_services.format_apply(user=organiser, tournament=tournament, preset="evenings_top1_repechage",
                                games=4, discards=1)
    _play_evenings(tournament, organiser, regs)
    semi = tournament.phases.get(order=2)
    rnd = draw.phase_draw(user=organiser, phase=semi, seed=1)
    semi.refresh_from_db()
    # 1st to the final; 2nd-11th (only 12 players: L is 10th, J 11th) plus the repêchage: min 1 game,
    # the best single game left is K's 99: 11 seats at 3 tables of 4+4+3.
    assert _by_name(regs, semi.settings["seeded_to_final"]) == ["A"]
    assert _by_name(regs, semi.settings["semifinalists"]) == list("BCDEFGHILJK")
    assert semi.settings["repechage"] == []
    assert sorted(len(t) for t in seated(rnd)) == [3, 4, 4]


def test_repechage_with_a_minimum_of_one_game_takes_the_late_joiner(club, organiser):
    tournament, regs = club
    phase_services.format_apply(user=organiser, tournament=tournament, preset="composed", games=4, discards=1,
                                composition={"tiers": [{"up_to": None, "direct": 2, "semifinal": [3, 8],
                                                        "repechage": {"seats": 2, "min_games": 1}}],
                                             "final_size": 4})
    _play_evenings(tournament, organiser, regs)
    outcome = standings_selectors.qualifying_outcome(tournament, standings_selectors.composition_of(tournament))
    assert _by_name(regs, outcome.result.semifinal) == list("CDEFGH")
    # L's 100 (2 games) first, then K's 99: in the order of choice.
    assert _by_name(regs, outcome.result.repechage) == ["L", "K"]
    assert outcome.games[regs["L"].pk] == [100, 40]


def test_settings_by_number_of_participants(club, organiser):
    tournament, regs = club
    phase_services.format_apply(user=organiser, tournament=tournament, preset="composed", games=4, discards=1,
                                composition={"tiers": [
                                    {"up_to": 11, "direct": 2, "semifinal": [3, 9], "repechage": {"seats": 1, "min_games": 3}},
                                    {"up_to": None, "direct": 1, "semifinal": [2, 12], "repechage": {"seats": 1, "min_games": 3}}],
                                    "final_size": 4})
    _play_evenings(tournament, organiser, regs)
    outcome = standings_selectors.qualifying_outcome(tournament, standings_selectors.composition_of(tournament))
    assert outcome.participants == 12 and outcome.rules.direct == 1 and outcome.tables == 3


@pytest.mark.parametrize("composition, field", [
    ({"tiers": [{"up_to": None, "direct": 2, "semifinal": [2, 9], "repechage": {"seats": 1, "min_games": 3}}],
      "final_size": 4}, "semifinal_from"),
    ({"tiers": [{"up_to": None, "direct": 2, "semifinal": [3, 4], "repechage": {"seats": 0, "min_games": 3}}],
      "final_size": 4}, "semifinal_to"),
    ({"tiers": [{"up_to": None, "direct": 4, "semifinal": None, "repechage": {"seats": 0, "min_games": 1}}],
      "final_size": 5}, "direct"),
    ({"tiers": [{"up_to": None, "direct": 1, "semifinal": [2, 12], "repechage": {"seats": 1, "min_games": 1}}],
      "final_size": 6}, "final_size"),
    ({"tiers": [{"up_to": None, "direct": 1, "semifinal": [2, 12], "repechage": {"seats": 1, "min_games": 6}}],
      "final_size": 4}, "repechage_min_games"),
    ({"tiers": [{"up_to": 24, "direct": 2, "semifinal": [3, 9], "repechage": {"seats": 1, "min_games": 5}},
                {"up_to": None, "direct": 1, "semifinal": [2, 12], "repechage": {"seats": 1, "min_games": 6}}],
      "final_size": 4}, "repechage_min_games"),
])
def test_composed_format_refused_with_the_field_at_fault(tournament, organiser, composition, field):
    with pytest.raises(ValidationError) as exc:
        phase_services.format_apply(user=organiser, tournament=tournament, preset="composed", games=5,
                                    composition=composition)
    assert list(exc.value.error_dict) == [field]
    assert not tournament.phases.exists()


def test_form_builds_a_composed_format_with_a_threshold(client, tournament, organiser):
    client.force_login(organiser)
    response = client.post(reverse("manage:formats", args=[tournament.pk]), {
        "form": "format", "preset": "composed", "games": "9", "best_of": "6", "direct": "2",
        "semifinal_from": "3", "semifinal_to": "9", "repechage_seats": "1", "repechage_min_games": "3",
        "final_size": "4", "threshold": "24", "direct_above": "1", "semifinal_from_above": "2",
        "semifinal_to_above": "12", "repechage_seats_above": "1"})
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.format_preset, tournament.rounds_planned, tournament.best_of) == ("composed", 9, 6)
    tiers = tournament.phases.get(order=1).settings["qualify"]["tiers"]
    assert [t["up_to"] for t in tiers] == [24, None] and tiers[1]["semifinal"] == [2, 12]
    page = client.get(reverse("manage:formats", args=[tournament.pk]))
    assert page.context["form"].initial["threshold"] == 24


def test_form_shows_a_bad_range_on_the_field(client, tournament, organiser):
    client.force_login(organiser)
    response = client.post(reverse("manage:formats", args=[tournament.pk]), {
        "form": "format", "preset": "composed", "games": "5", "direct": "2", "semifinal_from": "2",
        "semifinal_to": "9"})
    assert response.status_code == 400
    assert response.context["form"].errors["semifinal_from"]
    assert not tournament.phases.exists()


def _min_games_refused(games, min_games):
    return tr("At most %(games)d: the qualifying rounds play %(games)d game, so a minimum of %(min)d leaves "
              "nobody to pick.",
              plural="At most %(games)d: the qualifying rounds play %(games)d games, so a minimum of %(min)d "
                     "leaves nobody to pick.", count=games, games=games, min=min_games)


COMPOSED_POST = {"form": "format", "preset": "composed", "direct": "1", "semifinal_from": "2",
                 "semifinal_to": "12", "repechage_seats": "1", "final_size": "4"}


def test_form_refuses_a_repechage_minimum_above_the_qualifying_games(client, tournament, organiser):
    client.force_login(organiser)
    response = client.post(reverse("manage:formats", args=[tournament.pk]),
                           {**COMPOSED_POST, "games": "4", "repechage_min_games": "5"})
    assert response.status_code == 400
    assert field_errors(response, "repechage_min_games") == [_min_games_refused(4, 5)]
    assert not tournament.phases.exists()
    tournament.refresh_from_db()
    assert tournament.format_preset != "composed"


def test_form_refuses_a_presets_repechage_minimum_above_fewer_games(client, tournament, organiser):
    """The preset's own repêchage asks for 3 games played: with 2 qualifying games it could pick nobody."""
    client.force_login(organiser)
    response = client.post(reverse("manage:formats", args=[tournament.pk]), {
        "form": "format", "preset": "evenings_top2_repechage", "games": "2", "discards": "0", "final": "on"})
    assert response.status_code == 400
    assert field_errors(response, "repechage_min_games") == [_min_games_refused(2, 3)]
    assert not tournament.phases.exists()


def test_form_refuses_a_repechage_minimum_of_two_for_a_single_game_in_italian(client, tournament, organiser):
    client.force_login(organiser)
    client.cookies["django_language"] = "it"
    response = client.post(reverse("manage:formats", args=[tournament.pk]),
                           {**COMPOSED_POST, "games": "1", "repechage_min_games": "2"})
    assert response.status_code == 400
    assert field_errors(response, "repechage_min_games") == [
        "Al massimo 1: le qualificazioni prevedono 1 partita, quindi con un minimo di 2 non resta nessuno da "
        "ripescare."]


def test_form_takes_a_repechage_minimum_equal_to_the_qualifying_games(client, tournament, organiser):
    client.force_login(organiser)
    response = client.post(reverse("manage:formats", args=[tournament.pk]),
                           {**COMPOSED_POST, "games": "4", "repechage_min_games": "4"})
    assert response.status_code == 302
    tiers = tournament.phases.get(order=1).settings["qualify"]["tiers"]
    assert [t["repechage"] for t in tiers] == [{"seats": 1, "min_games": 4}]


def _zone(page, zone):
    return [int(pk) for pk in attr(page, f"[data-zone={zone}] li[data-registration]", "data-registration")]


def test_public_standings_show_the_cut_lines_during_the_evenings(client, club, organiser):
    tournament, regs = club
    Tournament.objects.filter(pk=tournament.pk).update(published=True)
    phase_services.format_apply(user=organiser, tournament=tournament, preset="evenings_top2_repechage",
                                games=4, discards=1)
    _play_evenings(tournament, organiser, regs, rounds=3)
    page = client.get(reverse("public:standings", args=[tournament.pk]))
    assert one(page, "[data-cut-lines]")
    assert _zone(page, "final") == [regs["A"].pk, regs["B"].pk]
    # After 3 evenings (one discarded) K has 109 and is 9th; L (100, shares 10th with I, ahead on
    # the best game) played 1 game only: I (best game 50, 3 games) holds the repêchage seat.
    assert _zone(page, "semifinal") == [regs[p].pk for p in "CDEFGHK"]
    assert _zone(page, "repechage") == [regs["I"].pk]
    [seat] = select(page, "[data-zone=repechage] li[data-registration]")
    assert (seat["data-best"], seat["data-played"]) == ("50", "3")
    assert text(one(page, "[data-trademark]")).startswith("RisiKo! è un marchio registrato")
    lines = standings_selectors.qualifying_outcome(tournament, standings_selectors.composition_of(tournament))
    assert lines.games[regs["K"].pk] == [10, 10, 99]


def test_cut_lines_leave_once_the_semifinals_are_seated(client, club, organiser):
    from tables.standings.selectors import standings_cut_lines as cut_lines
    tournament, regs = club
    phase_services.format_apply(user=organiser, tournament=tournament, preset="evenings_top2_repechage",
                                games=4, discards=1)
    tournament.refresh_from_db()
    assert cut_lines(tournament) is None  # no result yet
    _play_evenings(tournament, organiser, regs)
    lines = cut_lines(tournament)
    assert [h.registration for h in lines.repechage] == [regs["K"]]
    assert (lines.repechage[0].best, lines.repechage[0].played, lines.repechage[0].rank) == (99, 3, 12)
    draw.phase_draw(user=organiser, phase=tournament.phases.get(order=2), seed=1)
    assert cut_lines(tournament) is None


def test_a_player_joining_at_the_fifth_evening(club, organiser):
    """Absences before joining score 0 (and can be discarded); the repêchage counts the player once
    they reach its minimum of games."""
    from tables.standings.selectors import standings_cut_lines as cut_lines
    tournament, regs = club
    phase_services.format_apply(user=organiser, tournament=tournament, preset="evenings_top2_repechage",
                                games=7, discards=3)
    tournament.refresh_from_db()
    members = [regs[n] for n in "ABCDEFGHIJ"]
    points = {r.pk: 90 - 5 * i for i, r in enumerate(members)}
    late = regs["K"]
    late_points = {5: 20, 6: 30, 7: 98}

    def evening(n):
        seats = members + ([late] if n >= 5 else [])
        tables = [seats[:4], seats[4:8], seats[8:]] if n >= 5 else [seats[:4], seats[4:7], seats[7:]]
        rnd = seat_round(tournament, tables)
        for table, regs_at in zip(rnd.tables.order_by("number"), tables):
            report(table, [(late_points[n] if r == late else points[r.pk],) for r in regs_at], user=organiser)
        table_services.round_close(user=organiser, rnd=rnd)

    for n in range(1, 7):
        evening(n)
    lines = cut_lines(tournament)
    assert [h.registration for h in lines.repechage] == [regs["J"]]  # K has 2 games of the 3 needed
    row = next(r for r in standings_selectors.qualifying_standings(tournament) if r.player == late.pk)
    assert list(row.results) == [0, 0, 0, 0, 20, 30] and row.total == 50  # three absences discarded
    evening(7)
    lines = cut_lines(tournament)
    assert [(h.registration, h.best, h.played) for h in lines.repechage] == [(late, 98, 3)]
    row = next(r for r in standings_selectors.qualifying_standings(tournament) if r.player == late.pk)
    assert row.total == 148  # 0 + 20 + 30 + 98: one absence still counts


def test_best_of_replaces_the_presets_discards(club, organiser):
    tournament, regs = club
    phase_services.format_apply(user=organiser, tournament=tournament, preset="evenings_top2_repechage",
                                games=4, best_of=3)
    tournament.refresh_from_db()
    assert (tournament.discard_worst, tournament.best_of) == (0, 3)
    _play_evenings(tournament, organiser, regs)
    totals = {r.player: r.total for r in standings_selectors.qualifying_standings(tournament)}
    assert (totals[regs["K"].pk], totals[regs["L"].pk]) == (119, 140)
    with pytest.raises(ValidationError) as exc:
        phase_services.format_apply(user=organiser, tournament=tournament, preset="evenings_top2_repechage",
                                    games=4, discards=1, best_of=3)
    assert list(exc.value.error_dict) == ["best_of"]


def test_a_forfeited_game_is_not_a_game_for_the_repechage(club, organiser):
    from tables.arbitration.services import penalty_give
    from tables.models import Penalty, Seat
    tournament, regs = club
    phase_services.format_apply(user=organiser, tournament=tournament, preset="evenings_top2_repechage",
                                games=4, discards=1)
    _play_evenings(tournament, organiser, regs)
    # K's first game (10) forfeited: K is left with 10 and 99, two games of the three needed.
    seat = Seat.objects.get(registration=regs["K"], table__round__number=1)
    penalty_give(user=organiser, tournament=tournament, registration=regs["K"], kind=Penalty.Kind.FORFEIT,
                 reason="Ritardo", seat=seat)
    outcome = standings_selectors.qualifying_outcome(tournament, standings_selectors.composition_of(tournament))
    assert outcome.games[regs["K"].pk] == [10, 99]
    assert _by_name(regs, outcome.result.repechage) == ["J"]  # K has 2 games, L 2: J (45, 4 games)


def test_a_repechage_of_one_game_says_one_game_in_italian(club, organiser):
    from django.utils import translation
    tournament, _regs = club
    phase_services.format_apply(user=organiser, tournament=tournament, preset="composed", games=4, discards=1,
                                composition={"tiers": [{"up_to": None, "direct": 2, "semifinal": [3, 8],
                                                        "repechage": {"seats": 1, "min_games": 1}}],
                                             "final_size": 4})
    with translation.override("it"):
        line = standings_selectors.composed_summary(tournament)[0]
        one_game = translation.ngettext("at least %(m)s game", "at least %(m)s games", 1) % {"m": 1}
    assert f"({one_game})" in line and one_game == "almeno 1 partita"
