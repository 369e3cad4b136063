"""Bulk registration: a list straight into the tournament, register selected, everybody present."""
import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from tests.factories import ClubFactory, PlayerFactory, RegistrationFactory
from tests.html import alerts, attr, messages, one, parse, text, tr
from tournaments.registration import imports
from tournaments.models import AuditLog, Player, Registration

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("line, expected", [
    ("Marco Rossi", ("Marco", "Rossi")),
    ("Maria Grazia Rossi", ("Maria Grazia", "Rossi")),
    ("Luca De Santis", ("Luca", "De Santis")),
    ("Anna della Valle", ("Anna", "della Valle")),
    ("Giovanni Della Torre di Montebello", ("Giovanni", "Della Torre di Montebello")),
    ("Maria Grazia Della Valle", ("Maria Grazia", "Della Valle")),
    ("Cher", ("Cher", "")),
])
def test_split_full_name(line, expected):
    assert imports.split_full_name(line) == expected


def test_pasted_list_becomes_a_csv_with_clubs():
    text = imports.pasted_list_to_csv("Marco Rossi; Lario\n\n  Luca De Santis\nAnna Neri\tComo\n")
    assert text.splitlines() == ["name;surname;club", "Marco;Rossi;Lario", ";;", "Luca;De Santis;", "Anna;Neri;Como"]


def test_list_registers_known_players_and_creates_new_ones(organiser, tournament):
    lario = ClubFactory(name="Lario")
    known = PlayerFactory(first_name="Niccolò", last_name="Forlì", club=lario)
    already = PlayerFactory(first_name="Pia", last_name="Verdi", club=None)
    RegistrationFactory(tournament=tournament, player=already)
    text = imports.pasted_list_to_csv("Niccolo Forli; Lario\nPia Verdi\nAnna Neri; Club Nuovo\n")
    preview = imports.players_csv_preview(text, tournament=tournament)
    assert [(r.player, r.registered, r.new_club, r.errors) for r in preview.rows] == [
        (known, False, False, []), (already, True, False, []), (None, False, True, [])]
    registered, created = imports.registrations_import(user=organiser, tournament=tournament, text=text)
    assert (registered, created) == (2, 1)
    names = sorted(r.player.full_name for r in tournament.registrations.all())
    assert names == ["Anna Neri", "Niccolò Forlì", "Pia Verdi"]
    assert AuditLog.objects.filter(action="registration.add", tournament=tournament).count() == 2
    assert imports.import_summary(registered, created) == "2 players registered (1 new)."


def test_list_with_an_error_registers_nobody(organiser, tournament):
    text = "name;surname\nMarco;Rossi\n;Neri\n"
    with pytest.raises(ValidationError):
        imports.registrations_import(user=organiser, tournament=tournament, text=text)
    assert (Player.objects.count(), tournament.registrations.count()) == (0, 0)


def test_same_player_twice_in_the_list_is_an_error(tournament):
    preview = imports.players_csv_preview("name,surname\nMarco,Rossi\nmarco,ROSSI\n", tournament=tournament)
    assert preview.rows[1].errors == ["same player as line 2"]


def test_register_selected_and_everybody_present(client, organiser, tournament):
    players = [PlayerFactory() for _ in range(3)]
    client.force_login(organiser)
    response = client.post(reverse("manage:registration_add_selected", args=[tournament.pk]),
                           {"players": [p.pk for p in players[:2]] + ["x", "99999999999999999999"]})
    assert response.status_code == 302
    assert sorted(r.player_id for r in tournament.registrations.all()) == sorted(p.pk for p in players[:2])
    RegistrationFactory(tournament=tournament, status=Registration.Status.PENDING)
    response = client.post(reverse("manage:checkin_all", args=[tournament.pk]))
    assert response.status_code == 302
    assert sorted(tournament.registrations.values_list("status", "present")) == [
        ("confirmed", True), ("confirmed", True), ("pending", False)]
    assert AuditLog.objects.filter(action="registration.checkin").count() == 2


def test_register_selected_with_nothing_ticked_says_so(client, organiser, tournament):
    client.force_login(organiser)
    response = client.post(reverse("manage:registration_add_selected", args=[tournament.pk]), follow=True)
    assert messages(response) == [tr("Tick at least one player to register.")]
    assert tournament.registrations.count() == 0


def test_import_preview_then_confirm(client, organiser, tournament):
    client.force_login(organiser)
    url = reverse("manage:registration_import", args=[tournament.pk])
    response = client.post(url, {"names": "Marco Rossi; Lario\nAnna Neri"})
    assert response.status_code == 200
    assert tournament.registrations.count() == 0
    csv_text = response.context["csv_text"]
    response = client.post(url, {"confirm": "1", "csv_text": csv_text}, follow=True)
    assert messages(response) == [_summary(2, 2)]
    assert tournament.registrations.count() == 2


def test_import_without_file_or_names_is_refused(client, organiser, tournament):
    client.force_login(organiser)
    response = client.post(reverse("manage:registration_import", args=[tournament.pk]), {"names": "  "})
    assert response.status_code == 400
    assert tr("Choose a CSV file or paste a list of names.") in alerts(response)


def test_htmx_check_in_answers_the_row_and_the_count(client, organiser, tournament):
    reg = RegistrationFactory(tournament=tournament)
    RegistrationFactory(tournament=tournament)
    client.force_login(organiser)
    url = reverse("manage:registration_action", args=[tournament.pk, reg.pk, "checkin"])
    response = client.post(url, {"value": "1", "row": "checkin"}, HTTP_HX_REQUEST="true")
    fragment = parse(response)
    assert fragment.find(True).name == "li" and fragment.find(True)["id"] == f"checkin-{reg.pk}"   # the row first
    counts = fragment.template.find(id="reg-counts")   # htmx's out-of-band swap, carried in a <template>
    assert counts["hx-swap-oob"] == "true"
    assert text(counts) == " · ".join([tr("%(p)s present", plural="%(p)s present", count=1, p=1),
                                       tr("%(n)s registered", plural="%(n)s registered", count=2, n=2)])
    reg.refresh_from_db()
    assert reg.present is True


def _summary(registered, created):
    """The message of an import: "2 players registered (2 new)." in the catalogue's words."""
    return (tr("%(n)d player registered", plural="%(n)d players registered", count=registered, n=registered)
            + " (" + tr("%(n)d new", plural="%(n)d new", count=created, n=created) + ").")


PASTED = "Marco Rossi; Lario\nAnna Neri\n\nmarco rossi; Lario\nLuca Bianchi\nX\n"


def test_pasted_list_rows_are_numbered_from_the_first_name(tournament):
    preview = imports.players_csv_preview(imports.pasted_list_to_csv(PASTED), tournament=tournament, pasted=True)
    assert [(r.line, r.errors) for r in preview.rows] == [
        (1, []), (2, []), (4, ["same player as line 1"]), (5, []), (6, ["surname is empty"])]
    assert preview.error_lines == [4, 6]


def test_a_pasted_list_with_bad_rows_stays_in_the_box_with_the_rows_marked(client, organiser, tournament):
    client.force_login(organiser)
    url = reverse("manage:registration_import", args=[tournament.pk])
    response = client.post(url, {"names": PASTED})
    assert response.status_code == 400
    assert tournament.registrations.count() == 0
    assert response.context["import_form"]["names"].value() == PASTED      # not emptied
    assert attr(response, "[data-row-error]", "data-line") == ["4", "6"]
    assert text(one(response, "button[data-register-valid]")) == tr(
        "Register the %(n)s valid row", plural="Register the %(n)s valid rows", count=3, n=3)


def test_registering_the_valid_rows_leaves_the_bad_lines_in_the_box(client, organiser, tournament):
    client.force_login(organiser)
    url = reverse("manage:registration_import", args=[tournament.pk])
    preview = client.post(url, {"names": PASTED}).context
    post = {"confirm": "1", "valid_only": "1", "source": "paste", "csv_text": preview["csv_text"],
            "names": preview["names"]}
    response = client.post(url, post)
    assert sorted(r.player.full_name for r in tournament.registrations.all()) == [
        "Anna Neri", "Luca Bianchi", "Marco Rossi"]
    # "marco rossi; Lario" only repeated a name now registered: done, not left in the box, nor counted
    assert response.context["import_form"]["names"].value() == "X"
    assert messages(response) == [_summary(3, 3), tr(
        "The line with an error is left in the box: correct it and preview again.",
        plural="The %(n)d lines with errors are left in the box: correct them and preview again.", count=1, n=1)]
    assert attr(response, "[data-import-errors]", "data-import-errors") == ["1"]
    # The same action sent twice registers nobody twice.
    client.post(url, post)
    assert tournament.registrations.count() == 3
    assert AuditLog.objects.filter(action="registration.add", tournament=tournament).count() == 3


def test_a_csv_file_with_bad_rows_registers_its_valid_rows_in_one_action(client, organiser, tournament):
    from django.core.files.uploadedfile import SimpleUploadedFile
    client.force_login(organiser)
    url = reverse("manage:registration_import", args=[tournament.pk])
    upload = SimpleUploadedFile("club.csv", b"nome;cognome\nMarco;Rossi\n;Neri\nPia;Verdi\n", "text/csv")
    response = client.post(url, {"file": upload})
    assert response.status_code == 400
    assert attr(response, "[data-row-error]", "data-line") == ["3"]    # the header is line 1
    response = client.post(url, {"confirm": "1", "valid_only": "1", "csv_text": response.context["csv_text"]},
                           follow=True)
    assert sorted(r.player.full_name for r in tournament.registrations.all()) == ["Marco Rossi", "Pia Verdi"]
    assert tr("Line %(lines)s of the file was not registered: correct it in the file and import it again.",
              plural="Lines %(lines)s of the file were not registered: correct them in the file and import it again.",
              count=1, lines="3") in messages(response)


def test_without_valid_only_a_list_with_errors_still_registers_nobody(organiser, tournament):
    with pytest.raises(ValidationError):
        imports.registrations_import(user=organiser, tournament=tournament,
                                     text=imports.pasted_list_to_csv(PASTED), pasted=True)
    assert tournament.registrations.count() == 0


# --- one person, one record, one seat ----------------------------------------------------------------

def test_a_pasted_name_without_club_is_the_one_known_player(client, organiser, tournament):
    """"Paolo Barbieri" (no club) where Paolo Barbieri of Tana dei Goblin is registered: already registered,
    never a second seat; "giulia  bianchi" is the known Giulia Bianchi, registered as she is."""
    tana = ClubFactory(name="Tana dei Goblin")
    paolo = RegistrationFactory(tournament=tournament, player__first_name="Paolo", player__last_name="Barbieri",
                                player__club=tana).player
    giulia = PlayerFactory(first_name="Giulia", last_name="Bianchi", club=None)
    client.force_login(organiser)
    url = reverse("manage:registration_import", args=[tournament.pk])
    response = client.post(url, {"names": "Paolo Barbieri\ngiulia  bianchi\n"})
    assert response.status_code == 200
    assert attr(response, "[data-row-state]", "data-row-state") == ["registered", "known"]
    assert text(one(response, "[data-row-state=known]")) == tr("known player: %(player)s, %(club)s",
                                                                player="Giulia Bianchi", club=tr("no club"))
    assert one(response, "[data-import-ok]")["data-import-ok"] == "1"
    post = {"confirm": "1", "source": "paste", "csv_text": response.context["csv_text"],
            "names": response.context["names"]}
    done = client.post(url, post, follow=True)
    assert messages(done) == [_summary(1, 0)]
    assert sorted(tournament.registrations.values_list("player", flat=True)) == sorted([paolo.pk, giulia.pk])
    assert Player.objects.count() == 2


def test_a_pasted_name_of_several_known_players_asks_which(client, organiser, tournament, namesakes):
    first, second = namesakes
    client.force_login(organiser)
    url = reverse("manage:registration_import", args=[tournament.pk])
    response = client.post(url, {"names": "Paolo Barbieri\nAnna Neri\n"})
    assert response.status_code == 200
    assert attr(response, "select[data-pick=\"1\"] option", "value") == ["", str(first.pk), str(second.pk), "new"]
    assert one(response, "select[data-pick=\"1\"]")["form"] == one(response, "form#confirm-form")["id"]
    assert one(response, "[data-import-choose]")["data-import-choose"] == "1"
    post = {"confirm": "1", "source": "paste", "csv_text": response.context["csv_text"],
            "names": response.context["names"]}
    refused = client.post(url, post)          # nobody chosen: nothing registered, the row says why
    assert tournament.registrations.count() == 0
    assert attr(refused, "[data-row-error]", "data-line") == ["1"]
    client.post(url, {**post, "pick-1": str(second.pk)})
    assert sorted(tournament.registrations.values_list("player__last_name", "player__club__name")) == [
        ("Barbieri", "Tana dei Goblin"), ("Neri", None)]
    assert Player.objects.filter(last_name="Barbieri").count() == 2


def test_a_pasted_name_may_be_someone_new_when_said_so(organiser, tournament, namesakes):
    text = imports.pasted_list_to_csv("Paolo Barbieri\n")
    registered, created = imports.registrations_import(user=organiser, tournament=tournament, text=text, pasted=True,
                                                       picks={1: "new"})
    assert (registered, created) == (1, 1)
    assert Player.objects.filter(last_name="Barbieri").count() == 3


def test_after_the_valid_rows_the_page_says_what_is_left_not_that_nothing_was_registered(client, organiser,
                                                                                        tournament):
    client.force_login(organiser)
    url = reverse("manage:registration_import", args=[tournament.pk])
    preview = client.post(url, {"names": "Marco Rossi\nAnna Neri\nX\n"}).context
    response = client.post(url, {"confirm": "1", "valid_only": "1", "source": "paste",
                                 "csv_text": preview["csv_text"], "names": preview["names"]})
    assert tournament.registrations.count() == 2
    assert messages(response)[0] == _summary(2, 2)
    assert alerts(response) == [tr("%(n)s row left in the box has errors, marked below: correct it and preview again.",
                                   plural="%(n)s rows left in the box have errors, marked below: correct them and "
                                          "preview again.", count=1, n=1)]
