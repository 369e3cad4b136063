"""Club rules as data: the published rules are rows nobody edits; an organiser starts a rule blank or
from a copy, composes it in a form whose worked example is computed as they type, saves it as their
club's rule (audited), shares it as a JSON file, and fills a new tournament's settings from it."""
import json
import time
from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse

from scoring.__main__ import run
from scoring.rule_document import EXAMPLE_GAMES, parse_rule_document, published_rules
from tests.factories import TournamentFactory
from tests.html import alerts, field_errors, one, select, text, tr
from tournaments.club_rules import services
from tournaments.club_rules.forms import blank_initial
from tournaments.models import AuditLog, ClubRule, Tournament

pytestmark = pytest.mark.django_db


def form_data(**changes):
    """The blank rule's form as a browser posts it, with `changes`."""
    data = {name: ("" if value is None else value) for name, value in blank_initial().items()}
    data.update(name="Regola del Circolo", club="RCU Nuovo", description="Come giochiamo noi")
    data.update(changes)
    return data


@pytest.fixture
def own_rule(organiser):
    return services.club_rule_create(user=organiser, document={
        "schema": "torneo.rule/1", "name": "Serata Gufo", "club": "RCU Nuovo", "formula": "bonus50",
        "params": {"bonus": 20, "tiebreak": ["wins"]}, "tournament": {"rounds_planned": 4}})


def test_the_published_rules_are_rows_published_by_their_clubs_owned_by_nobody():
    rows = ClubRule.objects.filter(published=True).order_by("pk")
    assert [r.key for r in rows] == [r.key for r in published_rules()]
    assert {r.owner_id for r in rows} == {None}
    assert [parse_rule_document(r.document) for r in rows] == list(published_rules())


def test_a_published_rule_is_never_changed_nor_deleted(client, organiser):
    master = ClubRule.objects.get(key="master")
    client.force_login(organiser)
    response = client.post(reverse("manage:club_rule", args=[master.pk]), form_data(formula="bonus50"))
    assert select(response, "[data-published-rule]") and not select(response, "#save-club-rule")
    assert client.post(reverse("manage:club_rule_delete", args=[master.pk])).status_code == 403
    master.refresh_from_db()
    assert master.document["formula"] == "millesimi"
    assert not AuditLog.objects.filter(action__startswith="club_rule.").exists()


def test_a_blank_rule_saved_from_the_form_is_the_organisers_own_audited(client, organiser):
    client.force_login(organiser)
    response = client.post(reverse("manage:club_rule_create"),
                           form_data(formula="bonus50", bonus="30", tiebreak_1="wins", discard_worst="1"))
    rule = ClubRule.objects.get(owner=organiser)
    assert response.status_code == 302 and response["Location"] == reverse("manage:club_rule", args=[rule.pk])
    assert (rule.key, rule.name, rule.club, rule.published) == (f"r{rule.pk}", "Regola del Circolo", "RCU Nuovo", False)
    assert rule.document["params"] == {"bonus": 30, "discard_worst": 1, "tiebreak": ["wins"]}
    assert rule.document["tournament"] == {"rounds_planned": 3, "table_size": 4, "dispute_window_minutes": 120}
    entry = AuditLog.objects.get(action="club_rule.create")
    assert (entry.user, entry.object_id, entry.after["document"]) == (organiser, str(rule.pk), rule.document)


def test_editing_a_rule_records_what_it_was_and_what_it_became(client, organiser, own_rule):
    client.force_login(organiser)
    response = client.post(reverse("manage:club_rule", args=[own_rule.pk]),
                           form_data(name="Serata Gufo", formula="bonus50", bonus="25"))
    assert response.status_code == 302
    own_rule.refresh_from_db()
    assert own_rule.document["params"]["bonus"] == 25
    entry = AuditLog.objects.get(action="club_rule.update")
    assert (entry.before["document"]["params"]["bonus"], entry.after["document"]["params"]["bonus"]) == (20, 25)


def test_a_copy_of_a_published_rule_is_a_new_rule_of_the_organiser_with_its_settings(client, organiser):
    raduno = ClubRule.objects.get(key="raduno_open")
    client.force_login(organiser)
    response = client.post(reverse("manage:club_rule_copy", args=[raduno.pk]))
    copy = ClubRule.objects.get(owner=organiser)
    assert response["Location"] == reverse("manage:club_rule", args=[copy.pk])
    assert not copy.published and "published" not in copy.document and "key" not in copy.document
    assert (copy.document["formula"], copy.document["params"], copy.document["format"]) == (
        "bonus50", raduno.document["params"], {"preset": "raduno"})
    assert AuditLog.objects.filter(action="club_rule.copy", user=organiser).count() == 1


def test_another_organiser_never_sees_nor_changes_a_rule_of_mine(client, other_organiser, own_rule):
    client.force_login(other_organiser)
    listed = client.get(reverse("manage:club_rules"))
    assert not select(listed, f'[data-club-rule="{own_rule.pk}"]')
    assert len(select(listed, "[data-published-rules] [data-club-rule]")) == len(published_rules())
    for name in ("manage:club_rule", "manage:club_rule_download"):
        assert client.get(reverse(name, args=[own_rule.pk])).status_code == 404
    assert client.post(reverse("manage:club_rule_delete", args=[own_rule.pk])).status_code == 404
    assert ClubRule.objects.filter(pk=own_rule.pk).exists()


def test_deleting_a_rule_keeps_it_in_the_log(client, organiser, own_rule):
    client.force_login(organiser)
    assert client.post(reverse("manage:club_rule_delete", args=[own_rule.pk])).status_code == 302
    assert not ClubRule.objects.filter(pk=own_rule.pk).exists()
    assert AuditLog.objects.get(action="club_rule.delete").before["name"] == "Serata Gufo"


# --- the worked example, computed as the organiser types -----------------------------------------------

def example_totals(response):
    return {row["data-player"]: text(one(row, "[data-total]"))
            for row in select(response, "[data-example-standings] tr[data-player]")}


def test_the_worked_example_follows_the_rule_being_composed(client, organiser):
    client.force_login(organiser)
    url = reverse("manage:club_rule_example")
    with_50 = example_totals(client.post(url, form_data(formula="bonus50", bonus="50")))
    with_20 = example_totals(client.post(url, form_data(formula="bonus50", bonus="20")))
    # Anna wins round 1 with 62 (62 + the bonus) and is second in round 2 with 35.
    assert (with_50["Anna"], with_20["Anna"]) == ("147", "117")
    discarded = example_totals(client.post(url, form_data(formula="bonus50", bonus="20", discard_worst="1")))
    assert discarded["Anna"] == "82"  # 62 + 20, the 35 of round 2 discarded


def test_the_worked_example_marks_each_discarded_result(client, organiser):
    client.force_login(organiser)
    url = reverse("manage:club_rule_example")
    assert select(client.post(url, form_data(formula="bonus50")), "[data-dropped]") == []
    page = client.post(url, form_data(formula="bonus50", bonus="20", discard_worst="1"))
    # Anna's 35 of round 2 is the one discarded (62 + 20 counts); each player has one result discarded
    marked = {(game["data-example-game"], text(cell.find_parent("tr").select("td")[0]).split(" · ")[0])
              for game in select(page, "[data-example-game]") for cell in game.select("[data-dropped]")}
    assert ("2-1", "Anna") in marked and ("1-1", "Anna") not in marked
    assert len(marked) == 8 and len({name for _game, name in marked}) == 8


def test_the_worked_example_has_two_players_level_and_names_the_tie_break_that_parts_them(client, organiser):
    client.force_login(organiser)
    url = reverse("manage:club_rule_example")
    page = client.post(url, form_data(formula="bonus50", tiebreak_1="best_results"))
    assert example_totals(page)["Dario"] == example_totals(page)["Carla"] == "56"
    tie = one(page, "[data-example-tie]")
    assert (tie["data-example-tie"], tie["data-decided-by"]) == ("Dario-Carla", "best_results")   # 56 to 30
    assert text(tie) == tr("%(a)s and %(b)s have the same total (%(total)s): %(a)s is ahead by the tie-break "
                           "“%(rule)s”, %(va)s to %(vb)s.", a="Dario", b="Carla", total="56",
                           rule="Best single results", va="56", vb="30")
    # another chain, another tie-break at work: more table points... equal (56 each), so wins decide nothing
    # either and the two share the rank
    shared = one(client.post(url, form_data(formula="bonus50", tiebreak_1="table_points")), "[data-example-tie]")
    assert not shared.has_attr("data-decided-by")


def test_the_worked_example_names_the_setting_the_engine_refuses(client, organiser):
    client.force_login(organiser)
    response = client.post(reverse("manage:club_rule_example"),
                           form_data(formula="bonus50", corrective_scope="table_points", como_reference=""))
    assert "corrective_scope" in text(one(response, "[data-example-error]"))
    assert not select(response, "[data-example-standings]")


# --- shared as a file ------------------------------------------------------------------------------

def test_a_rule_downloads_as_its_document_and_uploads_as_a_new_rule(client, organiser, other_organiser, own_rule):
    client.force_login(organiser)
    response = client.get(reverse("manage:club_rule_download", args=[own_rule.pk]))
    assert response["Content-Type"].startswith("application/json")
    assert "attachment" in response["Content-Disposition"]
    document = json.loads(response.content)
    assert document == {"schema": "torneo.rule/1", "name": {"it": "Serata Gufo"}, "club": "RCU Nuovo",
                        "formula": "bonus50", "params": {"bonus": 20, "tiebreak": ["wins"]},
                        "tournament": {"rounds_planned": 4}}
    client.force_login(other_organiser)
    upload = SimpleUploadedFile("serata.json", response.content, content_type="application/json")
    assert client.post(reverse("manage:club_rule_upload"), {"document": upload}).status_code == 302
    theirs = ClubRule.objects.get(owner=other_organiser)
    assert theirs.document == document and theirs.name == "Serata Gufo"
    assert AuditLog.objects.filter(action="club_rule.upload", user=other_organiser).count() == 1


def test_a_downloaded_rule_checked_offline_ranks_the_worked_example_as_the_page(client, organiser, own_rule):
    """The club checks its rule with `python -m scoring`, the downloaded file as its `params`, on the
    page's own example: the same totals as the form's worked example."""
    client.force_login(organiser)
    document = json.loads(client.get(reverse("manage:club_rule_download", args=[own_rule.pk])).content)
    games = [{"round": g.round, "table": g.table, "players": [
        {"id": p.id, "table_points": float(p.table_points), **({"eliminated": p.eliminated} if p.eliminated else {}),
         **({"risiko": True} if p.risiko else {})} for p in g.players]} for g in EXAMPLE_GAMES]
    code, out, err = run(json.dumps({"params": document, "games": games}).encode())
    assert (code, err) == (0, "")
    offline = {row["player"]: row["total"] for row in json.loads(out)["standings"]}
    page = example_totals(client.get(reverse("manage:club_rule", args=[own_rule.pk])))
    assert {player: float(total) for player, total in page.items()} == offline


@pytest.mark.parametrize("content, named", [
    (b'{"schema": "torneo.rule/1", "name": "X", "formula": "bonus50", "colour": "red"}', "colour"),
    (b'{"schema": "torneo.rule/1", "name": "X", "formula": "bonus50", "params": {"malus": 3}}', "malus"),
    (b'{"schema": "torneo.rule/1", "name": "X", "formula": "nessuna"}', "formula"),
    (b'{"schema": "torneo.rule/9", "name": "X", "formula": "bonus50"}', "schema"),
    (b'not json', "JSON"),
])
def test_a_wrong_file_is_refused_by_the_field_at_fault_and_nothing_is_saved(client, organiser, content, named):
    client.force_login(organiser)
    response = client.post(reverse("manage:club_rule_upload"),
                           {"document": SimpleUploadedFile("rule.json", content)})
    assert response.status_code == 200
    assert named in " ".join(field_errors(response, "document"))
    assert not ClubRule.objects.filter(owner=organiser).exists()


def test_a_file_larger_than_a_rule_is_refused_unread(client, organiser):
    client.force_login(organiser)
    big = b'{"schema": "torneo.rule/1", "name": "' + b"x" * services.MAX_UPLOAD_BYTES + b'", "formula": "bonus50"}'
    response = client.post(reverse("manage:club_rule_upload"), {"document": SimpleUploadedFile("rule.json", big)})
    assert "KB" in " ".join(field_errors(response, "document"))
    assert not ClubRule.objects.filter(owner=organiser).exists()


# --- the new-tournament screen offers the organiser's rules beside the published ones ----------------

def test_the_new_tournament_screen_offers_my_rules_and_fills_the_settings_from_one(client, organiser, own_rule):
    client.force_login(organiser)
    offered = [o["value"] for o in select(client.get(reverse("manage:tournament_create")), "#club-rule option")]
    assert offered[1:] == [r.key for r in published_rules()] + [own_rule.key]
    response = client.get(reverse("manage:tournament_create"), {"regolamento": own_rule.key})
    assert one(response, "[data-club-rule-filled]")["data-club-rule-filled"] == own_rule.key
    form = response.context["form"]
    data = {f.name: ("" if f.value() is None else f.value()) for f in form if f.value() is not False}
    data.update({"name": "Serata di dicembre", "start_date": "2026-12-08"})
    assert client.post(reverse("manage:tournament_create"), data).status_code == 302
    saved = Tournament.objects.get(name="Serata di dicembre")
    assert (saved.club_preset, saved.formula, saved.bonus, saved.tiebreak, saved.rounds_planned) == (
        own_rule.key, "bonus50", Decimal("20"), "wins", 4)


def test_another_organisers_rule_is_neither_offered_nor_filled(client, other_organiser, own_rule):
    client.force_login(other_organiser)
    response = client.get(reverse("manage:tournament_create"), {"regolamento": own_rule.key})
    assert own_rule.key not in [o["value"] for o in select(response, "#club-rule option")]
    assert not select(response, "[data-club-rule-filled]")


def test_the_settings_page_offers_my_rules_and_fills_the_form_from_one(client, organiser, tournament, own_rule):
    client.force_login(organiser)
    response = client.get(reverse("manage:tournament_edit", args=[tournament.pk]), {"regolamento": own_rule.key})
    assert own_rule.key in [o["value"] for o in select(response, "#club-rule option")]
    assert one(response, "[data-club-rule-filled]")["data-club-rule-filled"] == own_rule.key
    assert (one(response, "#id_bonus")["value"], one(response, "input[name=club_preset]")["value"]) == (
        "20", own_rule.key)


def test_the_formats_page_applies_my_rule_and_the_tournament_names_it(client, organiser, tournament, own_rule):
    client.force_login(organiser)
    response = client.post(reverse("manage:formats", args=[tournament.pk]),
                           {"form": "club", "club_preset": own_rule.key}, follow=True)
    tournament.refresh_from_db()
    assert (tournament.club_preset, tournament.formula, tournament.bonus, tournament.rounds_planned) == (
        own_rule.key, "bonus50", Decimal("20"), 4)
    assert text(one(response, "#club-rule-name")) == "Serata Gufo"


def test_another_organisers_rule_is_refused_on_the_formats_page(client, other_organiser, own_rule):
    mine = TournamentFactory(organiser=other_organiser)
    client.force_login(other_organiser)
    response = client.post(reverse("manage:formats", args=[mine.pk]), {"form": "club", "club_preset": own_rule.key})
    assert response.status_code == 400
    mine.refresh_from_db()
    assert mine.club_preset == ""


@pytest.mark.django_db(transaction=True)
def test_the_published_rules_come_back_to_an_emptied_database_after_migrate():
    call_command("flush", interactive=False, verbosity=0)   # empties every table, then says so as migrate does
    assert sorted(ClubRule.objects.filter(published=True, owner=None).values_list("key", flat=True)) == sorted(
        ["raduno_open", "master", "torneo_gufo", "campionato_gufo", "maialino_2024", "finale_2004",
         "campionato_squadre", "gt_raduno", "gt_master", "gt_gufo", "gt_nazionale"])


def test_another_organisers_private_rule_posted_in_the_settings_hidden_field_is_refused(
        client, other_organiser, own_rule):
    mine = TournamentFactory(organiser=other_organiser, published=True)
    client.force_login(other_organiser)
    form = client.get(reverse("manage:tournament_edit", args=[mine.pk])).context["form"]
    data = {f.name: ("" if f.value() is None else f.value()) for f in form if f.value() is not False}
    data.update({"club_preset": own_rule.key, "confirm": "1"})
    response = client.post(reverse("manage:tournament_edit", args=[mine.pk]), data)
    assert response.status_code == 200
    assert alerts(response)[-1:] == [tr("No club rule “%(key)s” is published or yours.", key=own_rule.key)]
    mine.refresh_from_db()
    assert mine.club_preset == ""
    assert not AuditLog.objects.filter(tournament=mine, action="tournament.update").exists()


def test_a_tournament_naming_another_organisers_private_rule_never_shows_its_name(client, other_organiser, own_rule):
    mine = TournamentFactory(organiser=other_organiser, published=True)
    Tournament.objects.filter(pk=mine.pk).update(club_preset=own_rule.key)   # as stored before the check
    response = client.get(reverse("public:tournament", args=[mine.pk]))
    assert response.status_code == 200 and not select(response, "#club-rule-name")
    client.force_login(other_organiser)
    assert not select(client.get(reverse("manage:formats", args=[mine.pk])), "#club-rule-name")


def test_my_own_rule_and_a_published_rule_are_named_on_my_public_page(client, organiser, own_rule):
    mine = TournamentFactory(organiser=organiser, published=True)
    for key, name in ((own_rule.key, "Serata Gufo"), ("master", str(ClubRule.objects.get(key="master").name))):
        Tournament.objects.filter(pk=mine.pk).update(club_preset=key)
        assert text(one(client.get(reverse("public:tournament", args=[mine.pk])), "#club-rule-name")) == name


# --- a hostile rule file: refused by name within a second, the same words on the site and the command line

def _rule(extra=b""):
    return b'{"schema": "torneo.rule/1", "name": "Regola", "formula": "bonus50"' + extra + b"}"


NOT_JSON, NOT_VALID = "The file is not a JSON document: %(detail)s", "The rule is not valid: field “%(field)s”: %(detail)s"
HOSTILE_RULES = [
    (b'{"schema": "torneo.rule/1", "name": "A", "name": "B", "formula": "bonus50"}', None,
     "invalid JSON: the key 'name' is given twice in one object"),
    (_rule(b', "params": {"tiebreak": ' + b"[" * 5000 + b"]" * 5000 + b"}"), None, "invalid JSON: nested too deeply"),
    (_rule(b', "format": {"preset": "natale"}'), "preset",
     "unknown format 'natale' (known: sum3, sum3_final, semis16, master, evenings_final, championship, "
     "evenings_top2_repechage, evenings_top1_repechage, composed, knockout, knockout_second_chance, como, "
     "teams_2vs2, team_championship, raduno)"),
    (_rule(b', "params": []'), "params", "params must be an object"),
    (_rule(b', "params": false'), "params", "params must be an object"),
    (b'{"name": "Regola", "formula": "bonus50"}', "schema",
     'schema is missing: a rule document starts with "schema": "torneo.rule/1"'),
    (_rule(b', "params": {"tiebreak": ["wins", "wins"]}'), "tiebreak",
     "tiebreak names 'wins' twice: each tie-break is given once"),
    (_rule(b', "params": {"tiebreak": [' + b", ".join([b'"best_results"'] * 1500) + b"]}"), "tiebreak",
     "tiebreak names 'best_results' twice: each tie-break is given once"),
    (b'{"schema": "torneo.rule/1", "name": "Re\\u0000gola", "formula": "bonus50"}', "name",
     "name must not hold a NUL character or a lone surrogate"),
    (b'{"schema": "torneo.rule/1", "name": "Re\\ud800gola", "formula": "bonus50"}', "name",
     "name must not hold a NUL character or a lone surrogate"),
]


@pytest.mark.parametrize("content, field, detail", HOSTILE_RULES)
def test_a_hostile_rule_file_is_refused_by_name_at_once_the_same_on_the_site_and_the_command_line(
        client, organiser, content, field, detail):
    client.force_login(organiser)
    client.post(reverse("manage:club_rule_upload"), {"document": SimpleUploadedFile("rule.json", b"{}")})  # warm
    started = time.perf_counter()
    response = client.post(reverse("manage:club_rule_upload"), {"document": SimpleUploadedFile("rule.json", content)})
    assert time.perf_counter() - started < 1
    assert response.status_code == 200
    assert field_errors(response, "document") == [
        tr(NOT_JSON, detail=detail) if field is None else tr(NOT_VALID, field=field, detail=detail)]
    assert not ClubRule.objects.filter(owner=organiser).exists()
    started = time.perf_counter()
    code, out, err = run(b'{"params": ' + content + b', "games": []}')
    assert time.perf_counter() - started < 1
    assert (code, out, err) == (2, "", detail if field is None else f"rule: {detail}")


def test_a_rule_file_with_a_byte_order_mark_is_taken_as_the_command_line_takes_it(client, organiser):
    content = "\ufeff".encode() + _rule(b', "params": {"bonus": 20}')
    client.force_login(organiser)
    response = client.post(reverse("manage:club_rule_upload"), {"document": SimpleUploadedFile("rule.json", content)})
    assert response.status_code == 302
    assert ClubRule.objects.get(owner=organiser).document["params"] == {"bonus": 20}
    code, _out, err = run("\ufeff".encode() + b'{"params": ' + content[3:] + b', "games": []}')
    assert (code, err) == (0, "")


def test_the_formats_page_plays_as_many_qualifying_rounds_as_my_rule_plans(client, organiser, tournament):
    # A six-evening rule with a final: six qualifying rounds on the formats page, as on the new-tournament page
    # (the format's own default is five, and the sixth evening could not be drawn).
    six = services.club_rule_create(user=organiser, document={
        "schema": "torneo.rule/1", "name": "Sei serate", "club": "RCU Nuovo", "formula": "bonus50",
        "params": {"tiebreak": ["wins"]}, "tournament": {"rounds_planned": 6}, "format": {"preset": "evenings_final"}})
    client.force_login(organiser)
    assert client.post(reverse("manage:formats", args=[tournament.pk]),
                       {"form": "club", "club_preset": six.key}).status_code == 302
    tournament.refresh_from_db()
    qualifying = tournament.phases.order_by("order").first()
    assert (tournament.format_preset, tournament.rounds_planned, qualifying.kind, qualifying.rounds) == (
        "evenings_final", 6, "qualifying", 6)
