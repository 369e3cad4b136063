"""The tournament's version: one bump when a change starts, one when it commits, whatever the number
of audit entries the change writes."""
import pytest
from django.core.cache import cache
from django.db import transaction

from tests.factories import RegistrationFactory, TournamentFactory, report, seat_round
from tournaments import versions
from tournaments.audit.services import audit
from tournaments.models import AuditLog


@pytest.fixture
def counted_bumps(monkeypatch):
    """Every write of a tournament's version to the cache: (pk, through)."""
    seen = []
    real = versions._bump

    def recording(pk, through=None, closes_at=versions._READ):
        seen.append((pk, through))
        real(pk, through, closes_at)

    monkeypatch.setattr(versions, "_bump", recording)
    return seen


def _token(tournament):
    return cache.get(versions._key(tournament.pk))[0]


@pytest.mark.django_db(transaction=True)
def test_a_table_of_four_seats_bumps_once_now_and_once_at_the_commit_naming_its_last_entry(counted_bumps):
    tournament = TournamentFactory()
    regs = [RegistrationFactory(tournament=tournament) for _ in range(4)]
    table = seat_round(tournament, [regs]).tables.get()
    counted_bumps.clear()
    assert not AuditLog.objects.filter(tournament=tournament).exists()

    report(table, [(60,), (30,), (10,), (0, 1)])

    written = list(AuditLog.objects.filter(tournament=tournament, )
                   .order_by("pk").values_list("pk", flat=True))
    assert len(written) == 4  # one entry a seat
    assert counted_bumps == [(tournament.pk, None), (tournament.pk, written[-1])]
    assert versions.results_through(versions.results_version(tournament.pk)) == written[-1]


@pytest.mark.django_db(transaction=True)
def test_separate_transactions_bump_separately(counted_bumps):
    tournament = TournamentFactory()
    entries = []
    for action in ("one", "two"):
        with transaction.atomic():
            entries.append(audit(user=None, action=action, tournament=tournament))
    assert counted_bumps == [(tournament.pk, None), (tournament.pk, entries[0].pk),
                             (tournament.pk, None), (tournament.pk, entries[1].pk)]


@pytest.mark.django_db(transaction=True)
def test_a_rolled_back_change_leaves_no_commit_bump_and_the_next_change_bumps_at_once(counted_bumps):
    tournament = TournamentFactory()
    with pytest.raises(RuntimeError):
        with transaction.atomic():
            audit(user=None, action="lost", tournament=tournament)
            raise RuntimeError
    assert counted_bumps == [(tournament.pk, None)]
    before = _token(tournament)
    with transaction.atomic():
        entry = audit(user=None, action="kept", tournament=tournament)
        inside = _token(tournament)
    assert inside != before
    assert counted_bumps == [(tournament.pk, None), (tournament.pk, None), (tournament.pk, entry.pk)]
    assert versions.results_through(versions.results_version(tournament.pk)) == entry.pk


@pytest.mark.django_db
def test_each_atomic_block_inside_an_outer_transaction_bumps_at_once(counted_bumps):
    """A test's transaction (or any outer one) wraps many changes: each one's block still makes the
    pages stale as it writes, so nothing is served under a version older than the data."""
    tournament = TournamentFactory()
    tokens = []
    for action in ("one", "two", "three"):
        with transaction.atomic():
            audit(user=None, action=action, tournament=tournament)
            audit(user=None, action=action + "-again", tournament=tournament)
        tokens.append(_token(tournament))
    assert len(set(tokens)) == 3
    assert counted_bumps == [(tournament.pk, None)] * 3


@pytest.mark.django_db(transaction=True)
def test_a_results_commit_keeps_the_windows_closing_time_the_last_version_names(monkeypatch):
    """A table's result cannot move the dispute window: its commit does not read it again, and keeps
    the closing time of the last version written, even one written meanwhile by another server's
    publication; any other change reads it again at its commit."""
    import datetime

    from django.utils import timezone
    tournament = TournamentFactory()
    regs = [RegistrationFactory(tournament=tournament) for _ in range(4)]
    table = seat_round(tournament, [regs]).tables.get()
    versions.results_version(tournament.pk)  # the version is in the cache, as once anybody has looked
    reads = []
    real = versions._closes_at
    monkeypatch.setattr(versions, "_closes_at", lambda pk: (reads.append(pk), real(pk))[1])
    published_elsewhere = timezone.now() + datetime.timedelta(minutes=90)
    with transaction.atomic():
        report(table, [(60,), (30,), (10,), (0, 1)])
        # Another server's publication commits before this save and writes its version.
        versions._bump(tournament.pk, closes_at=published_elsewhere)
    assert cache.get(versions._key(tournament.pk))[1] == published_elsewhere
    assert reads == []
    with transaction.atomic():
        audit(user=None, action="round.publish_standings", tournament=tournament)
    assert reads == [tournament.pk]  # read again: the closing time is the database's
    assert cache.get(versions._key(tournament.pk))[1] is None


@pytest.mark.django_db(transaction=True)
def test_two_changes_in_one_transaction_name_the_last_of_them():
    tournament = TournamentFactory()
    with transaction.atomic():
        first = audit(user=None, action="one", tournament=tournament)
        second = audit(user=None, action="two", tournament=tournament)
    assert second.pk > first.pk
    assert versions.results_through(versions.results_version(tournament.pk)) == second.pk


@pytest.mark.django_db
def test_a_version_bumped_while_it_is_read_from_the_database_is_not_overwritten(monkeypatch):
    """The cache lost the version; while one request reads it from the database a change bumps it: the
    change's version stays (the older reading must not replace it)."""
    tournament = TournamentFactory()
    real = versions._from_database

    def read_while_a_change_bumps(pk):
        entry = real(pk)
        versions._bump(pk, through=123456)
        return entry
    monkeypatch.setattr(versions, "_from_database", read_while_a_change_bumps)
    cache.delete(versions._key(tournament.pk))
    versions.results_version(tournament.pk)
    assert _token(tournament).startswith("123456.")
    assert versions.results_through(versions.results_version(tournament.pk)) == 123456


@pytest.mark.django_db
def test_the_standings_turn_final_at_the_very_moment_the_dispute_window_closes(monkeypatch):
    from datetime import timedelta

    from django.utils import timezone
    tournament = TournamentFactory(dispute_window_minutes=30)
    published = timezone.now().replace(microsecond=0)
    closes = published + timedelta(minutes=30)
    cache.set(versions._key(tournament.pk), ("token", closes), None)
    for moment, closed in ((closes - timedelta(microseconds=1), "0"), (closes, "1"),
                           (closes + timedelta(seconds=1), "1")):
        monkeypatch.setattr(versions.timezone, "now", lambda moment=moment: moment)
        assert versions.results_version(tournament.pk).rsplit(":", 1)[1] == closed, moment
