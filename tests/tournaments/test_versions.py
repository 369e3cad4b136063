"""The tournament's version: read again from the database once a change commits, `changes_committed` sent
once per transaction whatever the number of audit entries it writes; a rolled-back change moves
nothing; the version read before a commit never names it."""
import pytest
from django.core.cache import cache
from django.db import transaction

from tables.live import snapshot
from tests.factories import TournamentFactory
from tournaments import versions
from tournaments.audit.services import audit, audit_many
from tournaments.models import AuditLog


SNAPSHOT = "tables.live.snapshot"  # the dispatch_uid tables/apps.py connects the snapshot's receiver with


@pytest.fixture
def told():
    """`changes_committed` as sent: [pk, ...], in place of its one receiver (the snapshot's)."""
    seen = []

    def receiver(sender, pk, closes_at, **kwargs):
        seen.append(pk)
    assert versions.changes_committed.disconnect(dispatch_uid=SNAPSHOT)  # it was connected
    versions.changes_committed.connect(receiver, weak=False)
    yield seen
    versions.changes_committed.disconnect(receiver)
    versions.changes_committed.connect(snapshot.changes_committed, dispatch_uid=SNAPSHOT)


@pytest.mark.django_db(transaction=True)
def test_a_table_of_four_seats_moves_the_version_once_at_the_commit_naming_its_last_entry(told):
    tournament = TournamentFactory()
    before = versions.results_version(tournament.pk)
    with transaction.atomic():
        made = audit_many([dict(user=None, action="result.enter", tournament=tournament) for _ in range(4)])
        assert versions.results_version(tournament.pk) == before  # not committed: not named
    assert told == [tournament.pk]
    assert versions.results_through(versions.results_version(tournament.pk)) == made[-1].pk


@pytest.mark.django_db(transaction=True)
def test_separate_transactions_move_it_separately(told):
    tournament = TournamentFactory()
    first = audit_in_own_transaction(tournament, "one")
    second = audit_in_own_transaction(tournament, "two")
    assert told == [tournament.pk, tournament.pk]
    assert versions.results_through(versions.results_version(tournament.pk)) == second.pk > first.pk


def audit_in_own_transaction(tournament, action):
    with transaction.atomic():
        return audit(user=None, action=action, tournament=tournament)


@pytest.mark.django_db(transaction=True)
def test_a_rolled_back_change_moves_nothing_and_the_next_change_does(told):
    tournament = TournamentFactory()
    before = versions.results_version(tournament.pk)
    with pytest.raises(RuntimeError), transaction.atomic():
        audit(user=None, action="one", tournament=tournament)
        raise RuntimeError
    assert told == [] and versions.results_version(tournament.pk) == before
    entry = audit_in_own_transaction(tournament, "two")
    assert told == [tournament.pk]
    assert versions.results_through(versions.results_version(tournament.pk)) == entry.pk


@pytest.mark.django_db(transaction=True)
def test_a_savepoint_rolled_back_with_its_callback_leaves_the_later_changes_theirs(told):
    tournament = TournamentFactory()
    with transaction.atomic():
        with pytest.raises(RuntimeError), transaction.atomic():
            audit(user=None, action="one", tournament=tournament)
            raise RuntimeError
        kept = audit(user=None, action="two", tournament=tournament)
    assert told == [tournament.pk]
    assert versions.results_through(versions.results_version(tournament.pk)) == kept.pk
    assert AuditLog.objects.filter(tournament=tournament).count() == 1


@pytest.mark.django_db(transaction=True)
def test_an_unannounced_change_moves_the_version_and_tells_nobody(told):
    tournament = TournamentFactory()
    with versions.unannounced(), transaction.atomic():
        entry = audit(user=None, action="import", tournament=tournament)
    assert told == []
    assert versions.results_through(versions.results_version(tournament.pk)) == entry.pk


@pytest.mark.django_db
def test_a_version_written_by_a_commit_while_one_is_read_from_the_database_is_not_overwritten(monkeypatch):
    """The cache lost the version; while one request reads it from the database a change commits: the
    commit's version stays (the older reading must not replace it)."""
    tournament = TournamentFactory()
    real = versions._from_database

    def read_while_a_change_commits(pk):
        entry = real(pk)
        cache.set(versions._key(pk), ("123456-1-0", None), None)
        return entry
    monkeypatch.setattr(versions, "_from_database", read_while_a_change_commits)
    cache.delete(versions._key(tournament.pk))
    versions.results_version(tournament.pk)
    assert versions.results_through(versions.results_version(tournament.pk)) == 123456


@pytest.mark.django_db
def test_the_standings_turn_final_at_the_very_moment_the_dispute_window_closes(monkeypatch):
    from datetime import timedelta

    from django.utils import timezone
    tournament = TournamentFactory(dispute_window_minutes=30)
    published = timezone.now().replace(microsecond=0)
    closes = published + timedelta(minutes=30)
    cache.set(versions._key(tournament.pk), ("1-1-0", closes), None)
    for moment, closed in ((closes - timedelta(microseconds=1), "0"), (closes, "1"),
                           (closes + timedelta(seconds=1), "1")):
        monkeypatch.setattr(versions.timezone, "now", lambda moment=moment: moment)
        assert versions.results_version(tournament.pk).rsplit(":", 1)[1] == closed, moment


@pytest.mark.django_db(transaction=True)
def test_several_changes_in_one_transaction_tell_the_listeners_once(told):
    tournament = TournamentFactory()
    with transaction.atomic():
        entries = [audit(user=None, action=f"change.{n}", tournament=tournament) for n in range(3)]
    assert told == [tournament.pk]
    assert versions.results_through(versions.results_version(tournament.pk)) == entries[-1].pk
