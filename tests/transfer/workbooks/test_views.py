"""The organiser's "Importa un torneo passato": a file previewed round by round (rows in error marked,
namesakes asked about), the formula and settings chosen, then the import and its standings."""
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.factories import ClubFactory, PlayerFactory
from tests.html import alerts, attr, messages, one, select, tr
from tests.transfer.workbooks.books import club_rows, gestione_sheets, season_rounds, xlsx
from tournaments.models import Tournament

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
