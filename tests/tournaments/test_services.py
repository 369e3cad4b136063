import pytest
from django.core.exceptions import ValidationError

from tests.factories import ClubFactory, PlayerFactory, RegistrationFactory, TournamentFactory
from tournaments import services
from tournaments.registration import services as roster
from tournaments.registration import imports
from tournaments.models import AuditLog, Player, Registration


def test_player_save_refuses_same_name_and_club(organiser):
    club = ClubFactory(name="Lario")
    services.player_save(user=organiser, data={"first_name": "Marco", "last_name": "Rossi", "club": club})
    with pytest.raises(ValidationError) as exc:
        services.player_save(user=organiser, data={"first_name": "marco ", "last_name": "ROSSI", "club": club})
    assert "last_name" in exc.value.error_dict
    assert Player.objects.filter(last_name="Rossi").count() == 1


def test_player_save_allows_same_name_in_another_club(organiser):
    services.player_save(user=organiser, data={"first_name": "Marco", "last_name": "Rossi", "club": ClubFactory()})
    services.player_save(user=organiser, data={"first_name": "Marco", "last_name": "Rossi", "club": ClubFactory()})
    assert Player.objects.filter(last_name="Rossi").count() == 2


def test_player_save_writes_audit_entry_with_before_and_after(organiser):
    player = services.player_save(user=organiser, data={"first_name": "Anna", "last_name": "Neri"})
    services.player_save(user=organiser, player=player, data={"nickname": "Kamchatka"})
    entry = AuditLog.objects.filter(action="player.update").get()
    assert entry.user == organiser
    assert entry.before["nickname"] == ""
    assert entry.after["nickname"] == "Kamchatka"


def test_audit_log_refuses_delete_and_update(organiser):
    services.club_save(user=organiser, data={"name": "Lario"})
    entry = AuditLog.objects.get()
    with pytest.raises(PermissionError):
        entry.delete()
    with pytest.raises(PermissionError):
        AuditLog.objects.all().delete()
    with pytest.raises(PermissionError):
        AuditLog.objects.update(action="x")
    entry.action = "changed"
    with pytest.raises(PermissionError):
        entry.save()
    assert AuditLog.objects.get().action == "club.create"


@pytest.mark.django_db(transaction=True)
def test_audit_outside_transaction_is_refused():
    from tests.factories import UserFactory
    from tournaments.audit.services import audit
    organiser = UserFactory()
    with pytest.raises(RuntimeError):
        audit(user=organiser, action="x")


def test_registration_add_refuses_a_second_registration(tournament, organiser):
    player = PlayerFactory()
    services.registration_add(user=organiser, tournament=tournament, player=player)
    with pytest.raises(ValidationError):
        services.registration_add(user=organiser, tournament=tournament, player=player)
    assert Registration.objects.filter(player=player).count() == 1


def test_registration_after_first_round_is_a_late_entry(tournament, organiser):
    from tables.models import Round
    Round.objects.create(tournament=tournament, number=1)
    reg = services.registration_add(user=organiser, tournament=tournament, player=PlayerFactory())
    assert (reg.late_entry, reg.from_round) == (True, 2)


def test_withdraw_keeps_registration_and_clears_presence(tournament, organiser):
    reg = RegistrationFactory(tournament=tournament, present=True)
    services.registration_withdraw(user=organiser, registration=reg)
    reg.refresh_from_db()
    assert (reg.status, reg.present) == (Registration.Status.WITHDRAWN, False)
    assert reg.withdrawn_at is not None
    assert AuditLog.objects.filter(action="registration.withdraw", player=reg.player).count() == 1


def test_check_in_refuses_pending_registration(tournament, organiser):
    reg = RegistrationFactory(tournament=tournament, status=Registration.Status.PENDING)
    with pytest.raises(ValidationError):
        services.registration_check_in(user=organiser, registration=reg, present=True)
    reg.refresh_from_db()
    assert reg.present is False


def test_signup_creates_pending_registration(tournament):
    tournament.signup_open = True
    tournament.save()
    reg = roster.registration_signup(tournament=tournament, data={
        "first_name": "Pia", "last_name": "Verdi", "email": "pia@example.org"})
    assert reg.status == Registration.Status.PENDING
    assert reg.self_registered is True


def test_signup_on_closed_tournament_is_refused(db):
    t = TournamentFactory(signup_open=False)
    with pytest.raises(ValidationError):
        roster.registration_signup(tournament=t, data={"first_name": "Pia", "last_name": "Verdi"})
    assert Registration.objects.count() == 0


CSV_OK = "name,surname,nickname,club,city,email\nMarco,Rossi,Il Generale,Lario,Como,marco@example.org\nAnna,Neri,,,,\n"


def test_csv_preview_lists_rows_without_errors(db):
    preview = imports.players_csv_preview(CSV_OK)
    assert preview.ok
    assert [(r.line, r.values["surname"], r.new_club) for r in preview.rows] == [(2, "Rossi", True), (3, "Neri", False)]


def test_csv_preview_reports_each_broken_row(db):
    text = "nome;cognome;club\nMarco;;Lario\n;Neri;\nLuca;Bianchi;Lario\nLuca;Bianchi;Lario\n"
    preview = imports.players_csv_preview(text)
    assert not preview.ok
    assert [(r.line, r.errors) for r in preview.rows] == [
        (2, ["surname is empty"]), (3, ["name is empty"]), (4, []), (5, ["same player as line 4"])]


def test_csv_preview_flags_existing_player(organiser):
    club = ClubFactory(name="Lario")
    PlayerFactory(first_name="Marco", last_name="Rossi", club=club)
    preview = imports.players_csv_preview(CSV_OK, user=organiser)
    assert preview.rows[0].errors == ["already in the list: Marco Rossi, Lario"]


@pytest.mark.parametrize("text, message", [
    ("", "The file is empty."),
    ("surname\nRossi\n", "Missing columns: name. Expected: name, surname, nickname, club, city, email."),
    ("name,surname,shoe\nA,B,42\n", "Unknown columns: shoe. Expected: name, surname, nickname, club, city, email."),
    ("name,surname\n", "The file has no players."),
])
def test_csv_preview_file_level_errors(db, text, message):
    assert imports.players_csv_preview(text).file_errors == [message]


def test_csv_import_with_a_broken_row_saves_nothing(organiser):
    with pytest.raises(ValidationError):
        imports.players_import_csv(user=organiser, text=CSV_OK + "Solo,,x\n")
    assert Player.objects.count() == 0
    assert AuditLog.objects.count() == 0


def test_csv_import_creates_players_and_clubs(organiser):
    created = imports.players_import_csv(user=organiser, text=CSV_OK)
    assert [p.full_name for p in created] == ["Marco Rossi", "Anna Neri"]
    assert created[0].club.name == "Lario"
    assert created[1].club is None
