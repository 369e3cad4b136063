"""The organiser's "Importa un torneo passato": a file previewed round by round (rows in error marked,
namesakes asked about), the formula and settings chosen, then the import and its standings."""
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.factories import ClubFactory, PlayerFactory
from tests.html import alerts, attr, messages, one, select, tr
from tests.transfer.workbooks.books import club_habits, club_rows, gestione_sheets, season_rounds, xlsx
from tournaments.models import Formula, Tournament

URL = reverse("manage:past_import")


def upload(client, data, name="2019-10-12 Torneo d'autunno.xlsx"):
    return client.post(URL, {"file": SimpleUploadedFile(name, data)})


def confirm(client, preview, **extra):
    token = attr(preview, "input[name=preview]", "value")[0]
    data = {"preview": token, "confirm": "1", "name": "Autunno", "start_date": "2019-10-12",
            "formula": "standard", "bonus": "50", "spartaco_malus": "14", "discard_worst": "0", "tiebreak_1":
            "best_results", **extra}
    return client.post(URL, data)


def test_the_organisers_home_links_the_import(organiser, client):
    client.force_login(organiser)
    assert attr(client.get(reverse("manage:home")), "[data-past-import-link]", "href") == [URL]


def test_the_preview_shows_every_rounds_tables_and_the_settings(organiser, client):
    client.force_login(organiser)
    page = upload(client, xlsx(club_rows(season_rounds())))
    assert page.status_code == 200
    assert attr(page, "[data-round]", "data-round") == ["1", "2"]
    assert len(select(page, "[data-round='1'] [data-table]")) == 2
    assert len(select(page, "[data-round='2'] [data-table='1'] tbody tr")) == 4
    assert select(page, "[data-row-error]") == []
    # name and date from the file name, the formula to choose
    assert one(page, "input[name=name]")["value"] == "Torneo d'autunno"
    assert one(page, "input[name=start_date]")["value"] == "2019-10-12"
    assert one(page, "select[name=formula]") is not None
    assert attr(page, "[data-state]", "data-state") == ["new"] * 8


def test_rows_in_error_are_marked_and_nothing_can_be_imported(organiser, client):
    client.force_login(organiser)
    rounds = season_rounds()
    rounds[1][0][2]["points"] = "venti"
    page = upload(client, xlsx(club_rows(rounds)))
    assert page.status_code == 400
    assert attr(page, "[data-row-error]", "data-line") == ["4"]
    assert one(page, "[data-round='2'] [data-table='1']").has_attr("data-table-error")
    assert select(page, "#confirm-past-import") == [] and select(page, "input[name=preview]") == []
    assert tr("“%(value)s” is not a number", value="venti") in " ".join(alerts(page))


def test_a_file_that_is_not_a_workbook_is_said_so(organiser, client):
    client.force_login(organiser)
    page = upload(client, b"\x89PNG\r\n\x1a\n\x00\x00", name="foto.xlsx")
    assert page.status_code == 400
    assert tr("This file is not a workbook: open it and save it as .xlsx, .xls, .ods or .csv.") in " ".join(
        alerts(page))


def test_confirming_imports_the_tournament_and_shows_its_standings(organiser, client):
    client.force_login(organiser)
    preview = upload(client, xlsx(gestione_sheets(season_rounds())))
    response = confirm(client, preview, published="on")
    tournament = Tournament.objects.get(name="Autunno")
    assert response.status_code == 302 and response["Location"] == reverse("public:standings", args=[tournament.pk])
    assert tournament.formula == "standard" and tournament.rounds.count() == 2 and tournament.published
    page = client.get(response["Location"])
    assert len(select(page, "[data-player]")) >= 8 or page.status_code == 200
    assert tr("%(name)s imported: %(rounds)d rounds, %(players)d players (%(new)d new).", name="Autunno", rounds=2,
              players=8, new=8) in messages(page)


def test_an_unpublished_import_shows_the_standings_on_the_organisers_page(organiser, client):
    client.force_login(organiser)
    response = confirm(client, upload(client, xlsx(club_rows(season_rounds()))))
    tournament = Tournament.objects.get(name="Autunno")
    assert response["Location"] == reverse("manage:formulas_compared", args=[tournament.pk])
    assert not tournament.published


def test_namesakes_are_asked_with_a_select_and_the_pick_is_kept(organiser, client):
    client.force_login(organiser)
    known = [PlayerFactory(first_name="Chiara", last_name="Ricci", club=ClubFactory(name=c), created_by=organiser)
             for c in ("Club A", "Club B")]
    preview = upload(client, xlsx(club_rows(season_rounds())))
    choose = one(preview, "[data-state='choose']")
    key = choose["data-person"]
    assert attr(preview, f"select[name='pick-{key}'] option", "value") == ["", str(known[0].pk), str(known[1].pk),
                                                                          "new"]
    assert one(preview, "[data-import-choose]")["data-import-choose"] == "1"
    unanswered = confirm(client, preview)
    assert unanswered.status_code == 400 and not Tournament.objects.exists()
    # Asked again in the page's words, never the command's.
    assert messages(unanswered) == [tr("Choose which known player %(names)s is in the list of players, then import.",
                                       plural="Choose which known player each of %(names)s is in the list of "
                                              "players, then import.", count=1, names="Chiara Ricci")]
    confirm(client, preview, **{f"pick-{key}": str(known[1].pk)})
    tournament = Tournament.objects.get(name="Autunno")
    assert tournament.registrations.filter(player=known[1]).exists()


def test_the_players_to_choose_come_before_the_import_button(organiser, client):
    client.force_login(organiser)
    for club in ("Club A", "Club B"):
        PlayerFactory(first_name="Chiara", last_name="Ricci", club=ClubFactory(name=club), created_by=organiser)
    preview = upload(client, xlsx(club_rows(season_rounds())))
    pick = one(preview, "select[data-pick]")
    assert pick.find_next(id="confirm-past-import") is not None
    assert one(preview, "#confirm-past-import").find_next("select", attrs={"data-pick": True}) is None


def test_a_bad_setting_keeps_the_preview(organiser, client):
    client.force_login(organiser)
    response = confirm(client, upload(client, xlsx(club_rows(season_rounds()))), formula="conversione300")
    assert response.status_code == 400 and not Tournament.objects.exists()
    assert select(response, "#confirm-past-import")


def test_a_forged_preview_is_refused(organiser, client):
    client.force_login(organiser)
    response = client.post(URL, {"preview": "forged", "confirm": "1", "name": "X", "start_date": "2019-10-12",
                                 "formula": "standard"})
    assert response.status_code == 302 and response["Location"] == URL and not Tournament.objects.exists()


def test_another_organiser_opens_the_page_but_an_arbiter_does_not(other_organiser, arbiter, client):
    client.force_login(other_organiser)
    assert client.get(URL).status_code == 200
    client.force_login(arbiter)
    assert client.get(URL).status_code == 403


def test_a_typo_and_a_name_at_another_club_are_asked_on_the_preview(organiser, client):
    """"Giulia Bianci" asks "did you mean Giulia Bianchi?"; Marco Rossi of "Club Lariano" known at "Il Gufo"
    asks whether he is the same person; the answers import them as the known players."""
    giulia = PlayerFactory(first_name="Giulia", last_name="Bianchi", club=ClubFactory(name="Carri Milano"),
                           created_by=organiser)
    marco = PlayerFactory(first_name="Marco", last_name="Rossi", club=ClubFactory(name="Il Gufo"),
                          created_by=organiser)
    rounds = season_rounds()
    for tables in rounds:
        for table in tables:
            for s in table:
                if s["name"] == "Giulia Bianchi":
                    s["name"] = "Giulia Bianci"
    client.force_login(organiser)
    page = upload(client, xlsx(club_rows(rounds)))
    assert page.status_code == 200
    states = dict(zip(attr(page, "[data-person]", "data-person"), attr(page, "[data-person]", "data-state")))
    assert sorted(states.values()) == ["elsewhere", "near"] + ["new"] * 6
    asked = {state: key for key, state in states.items() if state != "new"}
    assert attr(page, f"select[name='pick-{asked['near']}'] option", "value") == ["", str(giulia.pk), "new"]
    assert attr(page, f"select[name='pick-{asked['elsewhere']}'] option", "value") == ["", str(marco.pk), "new"]
    assert sorted(attr(page, "[data-question]", "data-question")) == ["elsewhere", "near"]
    done = confirm(client, page, **{f"pick-{asked['near']}": str(giulia.pk),
                                    f"pick-{asked['elsewhere']}": str(marco.pk)})
    assert done.status_code == 302
    tournament = Tournament.objects.get(name="Autunno")
    assert {giulia.pk, marco.pk} <= set(tournament.registrations.values_list("player_id", flat=True))


def test_a_club_rule_chosen_on_the_page_gives_its_settings(organiser, client):
    client.force_login(organiser)
    page = upload(client, xlsx(club_rows(season_rounds())))
    done = confirm(client, page, formula="", preset="torneo_gufo")
    assert done.status_code == 302
    tournament = Tournament.objects.get(name="Autunno")
    assert (tournament.formula, tournament.como_reference, tournament.club_preset) == ("standard", 4, "torneo_gufo")


def test_my_own_rule_is_offered_and_gives_its_settings_another_organisers_is_not(organiser, other_organiser,
                                                                                 client):
    from tournaments.club_rules.services import club_rule_create
    document = {"schema": "torneo.rule/1", "name": "Serata Gufo", "club": "RCU Nuovo", "formula": "bonus50",
                "params": {"bonus": 20, "tiebreak": ["wins"]}}
    mine, theirs = club_rule_create(user=organiser, document=document), club_rule_create(user=other_organiser,
                                                                                          document=document)
    client.force_login(organiser)
    page = upload(client, xlsx(club_rows(season_rounds())))
    offered = attr(page, "select[name=preset] option", "value")
    assert mine.key in offered and theirs.key not in offered
    assert client.post(URL, {"preview": attr(page, "input[name=preview]", "value")[0], "confirm": "1",
                             "name": "Altrui", "start_date": "2019-10-12", "preset": theirs.key}).status_code == 400
    done = confirm(client, page, formula="", preset=mine.key)
    assert done.status_code == 302
    tournament = Tournament.objects.get(name="Autunno")
    assert (tournament.formula, tournament.bonus, tournament.tiebreak, tournament.club_preset) == (
        "bonus50", 20, "wins", mine.key)


def test_totals_and_the_table_points_rule_are_listed_in_the_preview(organiser, client):
    client.force_login(organiser)
    page = upload(client, xlsx(club_habits(season_rounds(), sheet_names=("Turno 1", "Turno 2"), totals=True)))
    assert page.status_code == 200
    assert one(page, "#import-notes")["data-import-notes"] == "6"
    assert len(select(page, "#import-notes [data-note]")) == 6


def test_a_gestionetorneo_file_without_the_order_of_elimination_names_the_formulas_that_need_it(organiser, client):
    """GestioneTorneo keeps points only: two players at 0 at one table have no order. The preview names
    the formulas that would need it; one that does not imports."""
    from tests.transfer.workbooks.books import gestione_rounds, gestione_written, gestione_xls
    rounds = gestione_rounds()
    rounds[1][1][2]["points"], rounds[1][1][2]["eliminated"] = 0, 2     # a second player out, table 2
    client.force_login(organiser)
    page = upload(client, gestione_xls(gestione_written(rounds)), name="2019-10-12 ModuloTorneo.xls")
    assert page.status_code == 200
    named = one(page, "#import-order-formulas")
    assert int(named["data-order-formulas"]) >= 1
    assert str(dict(Formula.choices)["standard"]) in named.get_text()
    assert str(dict(Formula.choices)["punti_tavolo"]) not in named.get_text()
    refused = confirm(client, page, formula="standard")
    assert refused.status_code == 400 and not Tournament.objects.exists()
    done = confirm(client, page, formula="punti_tavolo")
    assert done.status_code == 302 and Tournament.objects.get().formula == "punti_tavolo"


def test_one_person_written_two_ways_is_noted_and_the_organisers_import_goes_ahead(organiser, client):
    rounds = season_rounds()
    rounds[1][1][0]["name"] = "Giulia Bianci"
    client.force_login(organiser)
    page = upload(client, xlsx(club_rows(rounds)))
    assert page.status_code == 200 and len(select(page, "#import-notes [data-note]")) == 1
    assert confirm(client, page).status_code == 302
    assert Tournament.objects.get(name="Autunno").registrations.count() == 9
