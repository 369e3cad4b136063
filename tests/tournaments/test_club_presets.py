"""Club presets (SCORING.md 13.12): each club's rule fills every setting of the new-tournament and the
settings screens (every one still editable), is saved as the tournament's `club_preset` (audited), is
named on the tournament's pages, and is applied from the formats page until the first result."""
from decimal import Decimal

import pytest
from django.urls import reverse

from tables.engine import params_for
from tests.factories import RegistrationFactory, report, seat_round
from tests.html import alerts, attr, messages, one, text, tr
from tournaments.club_presets import BASE_SETTINGS, CLUB_PRESETS
from tournaments.models import FORMAT_PRESETS, AuditLog, Tournament

pytestmark = pytest.mark.django_db

URL = "manage:tournament_create"
AGREED_FORMATS = {"", "raduno", "master", "team_championship"}


def test_each_preset_sets_what_section_13_12_names():
    settings = {key: preset.tournament_settings for key, preset in CLUB_PRESETS.items()}
    assert list(settings) == ["raduno_open", "master", "torneo_gufo", "campionato_gufo", "maialino_2024",
                              "finale_2004", "campionato_squadre", "gt_raduno", "gt_master", "gt_gufo",
                              "gt_nazionale"]
    changed = {key: {name: value for name, value in s.items() if name == "formula" or BASE_SETTINGS[name] != value}
               for key, s in settings.items()}
    assert changed == {
        "raduno_open": {"formula": "bonus50", "como_reference": 4, "corrective_scope": "table_points",
                        "tiebreak": "best_results,previous_round", "rounds_planned": 2},
        "master": {"formula": "millesimi", "tiebreak": "best_results,previous_round", "rounds_planned": 2},
        "torneo_gufo": {"formula": "standard", "standard_eliminated": "position", "como_reference": 4,
                        "corrective_scope": "table_points"},
        "campionato_gufo": {"formula": "spartaco", "spartaco_risiko_losers": "own_tp"},
        "maialino_2024": {"formula": "maialino_2024", "best_of": 6, "rounds_planned": 8},
        "finale_2004": {"formula": "bonus50", "bonus": Decimal("20"), "risiko_total": Decimal("110")},
        "campionato_squadre": {"formula": "standard"},
        # GestioneTorneo's own scoring of its types (its code, where its manual says otherwise)
        "gt_raduno": {"formula": "bonus50", "tiebreak": "best_results,previous_round"},
        "gt_master": {"formula": "millesimi", "tiebreak": "best_results,previous_round"},
        "gt_gufo": {"formula": "standard", "standard_eliminated": "position", "como_reference": 4,
                    "corrective_scope": "table_points"},
        "gt_nazionale": {"formula": "bonus50"},
    }
    assert {key: p.format for key, p in CLUB_PRESETS.items() if p.format} == {
        "raduno_open": "raduno", "master": "master", "campionato_squadre": "team_championship"}
    assert {p.format for p in CLUB_PRESETS.values()} <= AGREED_FORMATS
    for preset in CLUB_PRESETS.values():   # a format is offered only once this application has it
        assert preset.format_available == (preset.format in dict(FORMAT_PRESETS))


@pytest.mark.parametrize("key", list(CLUB_PRESETS))
def test_the_new_tournament_form_filled_by_a_preset_saves_it_audited(client, organiser, key):
    preset = CLUB_PRESETS[key]
    client.force_login(organiser)
    response = client.get(reverse(URL), {"regolamento": key})
    assert one(response, "#club-rule option[selected]")["value"] == key
    assert one(response, "[data-club-rule-filled]")["data-club-rule-filled"] == key
    assert one(response, "input[name=club_preset]")["value"] == key
    form = response.context["form"]
    data = {name: ("" if value is None else value) for name, value in
            ((f.name, f.value()) for f in form) if not isinstance(value, bool) or value}
    data.update({"name": f"Torneo {key}", "start_date": "2026-12-08"})
    assert client.post(reverse(URL), data).status_code == 302
    saved = Tournament.objects.get(name=f"Torneo {key}")
    assert saved.club_preset == key
    assert {name: getattr(saved, name) for name in preset.tournament_settings} == preset.tournament_settings
    params_for(saved)   # the engine accepts the settings
    entry = AuditLog.objects.get(tournament=saved, action="tournament.create")
    assert entry.after["club_preset"] == key


def test_a_preset_s_setting_edited_before_saving_is_kept(client, organiser):
    client.force_login(organiser)
    form = client.get(reverse(URL), {"regolamento": "master"}).context["form"]
    data = {name: ("" if value is None else value) for name, value in
            ((f.name, f.value()) for f in form) if not isinstance(value, bool) or value}
    data.update({"name": "Master di Natale", "start_date": "2026-12-20", "table_size": "5"})
    assert client.post(reverse(URL), data).status_code == 302
    saved = Tournament.objects.get(name="Master di Natale")
    assert (saved.formula, saved.table_size, saved.tiebreak, saved.club_preset) == (
        "millesimi", 5, "best_results,previous_round", "master")


def test_an_unknown_rule_fills_nothing(client, organiser):
    client.force_login(organiser)
    response = client.get(reverse(URL), {"regolamento": "briscola"})
    assert response.status_code == 200
    assert not response.context["preset"]
    assert one(response, "input[name=club_preset]").get("value", "") == ""


def test_the_settings_screen_fills_a_preset_and_saving_audits_the_change(client, organiser, tournament):
    client.force_login(organiser)
    url = reverse("manage:tournament_edit", args=[tournament.pk])
    form = client.get(url, {"regolamento": "torneo_gufo"}).context["form"]
    assert (form["formula"].value(), form["standard_eliminated"].value(), form["como_reference"].value(),
            form["corrective_scope"].value(), form["club_preset"].value()) == (
        "standard", "position", 4, "table_points", "torneo_gufo")
    assert form["name"].value() == tournament.name   # the tournament's own fields stay
    data = {name: ("" if value is None else value) for name, value in
            ((f.name, f.value()) for f in form) if not isinstance(value, bool) or value}
    assert client.post(url, data).status_code == 302
    tournament.refresh_from_db()
    assert (tournament.formula, tournament.standard_eliminated, tournament.club_preset) == (
        "standard", "position", "torneo_gufo")
    entry = AuditLog.objects.get(tournament=tournament, action="tournament.update")
    assert (entry.before["club_preset"], entry.after["club_preset"]) == ("", "torneo_gufo")
    for page in (reverse("manage:tournament", args=[tournament.pk]), reverse("public:tournament", args=[tournament.pk])):
        assert text(one(client.get(page), "#club-rule-name")) == "Torneo Gufo (RCU Roma)"


def test_a_tournament_without_a_club_rule_names_none(client, organiser, tournament):
    client.force_login(organiser)
    assert not one(client.get(reverse("manage:tournament", args=[tournament.pk])), "dl.facts").select(
        "#club-rule-name")


def test_the_formats_page_applies_a_preset_audited(client, organiser, tournament):
    client.force_login(organiser)
    url = reverse("manage:formats", args=[tournament.pk])
    response = client.post(url, {"form": "club", "club_preset": "campionato_gufo"}, follow=True)
    assert tr("Club rule applied: its settings are saved, every one still editable in the settings.") in \
        messages(response)
    tournament.refresh_from_db()
    assert (tournament.formula, tournament.spartaco_risiko_losers, tournament.club_preset) == (
        "spartaco", "own_tp", "campionato_gufo")
    entry = AuditLog.objects.get(tournament=tournament, action="tournament.update")
    assert entry.after["club_preset"] == "campionato_gufo" and entry.after["formula"] == "spartaco"
    assert text(one(response, "#club-rule-name")) == "Campionato Gufo (RCU Roma)"


def test_the_formats_page_refuses_a_preset_once_results_are_entered(client, organiser, tournament):
    regs = [RegistrationFactory(tournament=tournament) for _ in range(4)]
    report(seat_round(tournament, [regs]).tables.get(), [(62,), (48,), (30,), (0, 1)])
    before = AuditLog.objects.count()
    client.force_login(organiser)
    response = client.post(reverse("manage:formats", args=[tournament.pk]),
                           {"form": "club", "club_preset": "master"})
    assert response.status_code == 400
    assert tr("Results are already entered: a club rule can no longer be applied from here. Change single "
              "settings on the tournament's settings page.") in alerts(response)
    tournament.refresh_from_db()
    assert (tournament.formula, tournament.club_preset) == ("conversione150", "")
    assert AuditLog.objects.count() == before


def test_the_formats_page_refuses_an_unknown_rule(client, organiser, tournament):
    client.force_login(organiser)
    response = client.post(reverse("manage:formats", args=[tournament.pk]), {"form": "club", "club_preset": "x"})
    assert response.status_code == 400
    assert Tournament.objects.get(pk=tournament.pk).club_preset == ""


@pytest.mark.parametrize("key", [k for k, p in CLUB_PRESETS.items() if p.format_available])
def test_a_preset_with_its_format_sets_the_format_too(client, organiser, tournament, key):
    client.force_login(organiser)
    client.post(reverse("manage:formats", args=[tournament.pk]), {"form": "club", "club_preset": key})
    tournament.refresh_from_db()
    assert (tournament.format_preset, tournament.club_preset) == (CLUB_PRESETS[key].format, key)
    assert {name: getattr(tournament, name) for name in CLUB_PRESETS[key].tournament_settings} == \
        CLUB_PRESETS[key].tournament_settings
    assert AuditLog.objects.filter(tournament=tournament, action="format.apply").count() == 1



def _form_data(form, **changes):
    data = {name: ("" if value is None else value) for name, value in
            ((f.name, f.value()) for f in form) if not isinstance(value, bool) or value}
    return {**data, **changes}


@pytest.mark.parametrize("key, fmt, phases", [
    ("master", "master", [("qualifying", 2), ("semifinal", 1), ("final", 1)]),
    ("raduno_open", "raduno", [("qualifying", 2), ("semifinal", 1), ("final", 1)]),
    ("campionato_squadre", "team_championship", [("qualifying", 3)]),
])
def test_a_club_rule_picked_on_the_new_tournament_page_sets_its_format(client, organiser, key, fmt, phases):
    client.force_login(organiser)
    form = client.get(reverse(URL), {"regolamento": key}).context["form"]
    response = client.post(reverse(URL), _form_data(form, name="Serata", start_date="2026-12-08"))
    assert response.status_code == 302
    saved = Tournament.objects.get(name="Serata")
    assert saved.format_preset == fmt
    assert [(p.kind, p.rounds) for p in saved.phases.order_by("order")] == phases
    assert AuditLog.objects.filter(tournament=saved, action="format.apply").count() == 1
    page = client.get(reverse("manage:formats", args=[saved.pk]))
    assert page.context["form"]["preset"].value() == fmt
    # The tournament's page, where the organiser lands, names the format's phases.
    landing = client.get(response["Location"])
    assert attr(landing, "#format-phases [data-phase]", "data-phase") == [kind for kind, _rounds in phases]


def test_a_club_rule_with_rounds_its_format_cannot_play_is_refused_by_name(client, organiser):
    client.force_login(organiser)
    form = client.get(reverse(URL), {"regolamento": "master"}).context["form"]
    response = client.post(reverse(URL), _form_data(form, name="Master lungo", start_date="2026-12-08",
                                                     rounds_planned="3"))
    assert response.status_code == 200
    assert response.context["form"].errors["rounds_planned"] == [
        "The club rule Master (millesimi) plays its own format: This format plays 2 to 2 games."]
    assert not Tournament.objects.filter(name="Master lungo").exists()


def test_a_club_rule_picked_on_the_settings_page_sets_its_format(client, organiser, tournament):
    client.force_login(organiser)
    url = reverse("manage:tournament_edit", args=[tournament.pk])
    form = client.get(url, {"regolamento": "raduno_open"}).context["form"]
    assert client.post(url, {**_form_data(form), "confirm": "1"}).status_code == 302
    tournament.refresh_from_db()
    assert (tournament.club_preset, tournament.format_preset) == ("raduno_open", "raduno")
    # Saved again with the same rule, a format chosen since is kept.
    from phases import services as phase_services
    phase_services.format_apply(user=organiser, tournament=tournament, preset="sum3_final")
    form = client.get(url).context["form"]
    assert client.post(url, {**_form_data(form), "confirm": "1"}).status_code == 302
    tournament.refresh_from_db()
    assert tournament.format_preset == "sum3_final"
