"""A stream never sends an older page than the one its screen holds: a message read late (from the
cache after a newer one came through Redis, or filed by a job that finished after a later one) is
skipped; a newer one is sent, with the page its screen shows."""
import pytest
from django.core.cache import cache

from tables.live import channel
from tables.live.selectors import announcement_key


@pytest.fixture(autouse=True)
def quick(settings):
    settings.LIVE_POLL_SECONDS, settings.LIVE_STREAM_SECONDS, settings.LIVE_HEARTBEAT_SECONDS = 0.02, 0.3, 60


def _message(through, page="PAGE"):
    return {"version": f"{through}-{through}-1.0:0", "what": "result", "pages": {"/t/1/classifica/": {"it": page}}}


def _sent(pk, holds, message):
    cache.set(announcement_key(pk), message)
    text = "".join(channel.sync_stream(pk, holds, ("/t/1/classifica/", "it")))
    return [block for block in text.split("\n\n") if block.startswith("id: ")]


def test_an_older_message_is_never_sent():
    assert _sent(1, "20-20-1.0:0", _message(12, page="OLD")) == []


def test_a_newer_message_is_sent_with_the_page():
    sent = _sent(1, "20-20-1.0:0", _message(21, page="NEW"))
    assert len(sent) == 1 and sent[0].startswith("id: 21-21-1.0:0\nevent: page\n") and '"gzip": "NEW"' in sent[0]


def test_the_same_changes_with_the_window_closed_are_sent():
    sent = _sent(1, "20-20-1.0:0", {**_message(20), "version": "20-20-1.0:1"})
    assert [s.split("\n", 1)[0] for s in sent] == ["id: 20-20-1.0:1"]
