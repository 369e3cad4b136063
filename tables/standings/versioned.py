"""The one version-keyed cache: a value for a tournament (or a circuit) at a version of what it is
computed from, computed once across processes.

A value is filed under a `Slot`: what it is (`name`), whose it is (`scope`: a tournament's pk with
its creation time, since a restored database may reuse a pk; a circuit's) and the version it was
computed from (a tournament's results version, tournaments.versions, bumped by every audited change).
A slot's value never changes, so it is never invalidated: a change makes a new version, and the next
request asks for a new slot. Entries go after `CACHE_SECONDS`, which only bounds the cache's size.

`computed(slot, compute)` is the one way in: the value when it is there; else one process takes the
slot's lock (a `cache.add`, so one holder across every server) and computes it, while every other
asking for the same slot waits for that value (`wait_for_holder`, every `WAIT_STEP` s) rather than
compute it again: at a Raduno every phone's poll asks for a new version at once. A waiter that finds
the lock free (its holder failed, or vanished) takes it and computes the value itself; one that has
waited `WAIT_SECONDS` computes it too. Selectors read through this module; no other module writes
these entries.
"""
import time
from dataclasses import dataclass

from django.core.cache import cache

from tournaments.versions import results_version

CACHE_SECONDS = 15 * 60
# How long a waiter waits for the holder of a slot's lock; the lock of a process that died goes
# after as long (and a second).
WAIT_SECONDS, WAIT_STEP = 5.0, 0.02


@dataclass(frozen=True)
class Slot:
    """Where one value is filed: `name` ("standings", "circuit-order"...), `scope` and `version`."""

    name: str
    scope: str
    version: str

    @property
    def key(self):
        return f"{self.name}:{self.scope}:{self.version}"

    @property
    def lock(self):
        return f"{self.key}:computing"

    def part(self, name):
        """A value beside this one, of the same scope and version (the standings' "provisional" flag,
        their table rendered as HTML in one language...)."""
        return Slot(f"{self.name}.{name}", self.scope, self.version)


def tournament_slot(name, tournament, version=None):
    """The slot of `name` for `tournament` at `version` (its results version now, if not given)."""
    version = results_version(tournament.pk) if version is None else version
    return Slot(name, f"{tournament.pk}:{tournament.created_at.timestamp()}", str(version))


@dataclass(frozen=True)
class Waited:
    """What a wait for another process ended with: its `value`, or `holding` the lock (then compute)."""

    value: object = None
    holding: bool = False


def wait_for_holder(read, take_lock, seconds=None, step=WAIT_STEP):
    """Wait for whoever computes a value: `read()` until it gives one (not None), or until the lock
    is free again and this process took it (`take_lock()` true: it computes now). `seconds`: give up
    after that long (neither value nor lock), None to wait as long as the lock is held by another."""
    waited = 0.0
    while seconds is None or waited < seconds:
        time.sleep(step)
        waited += step
        value = read()
        if value is not None:
            return Waited(value=value)
        if take_lock():
            return Waited(holding=True)
    return Waited()


def peek(slot):
    """The slot's value when it is there, else None: nothing is computed."""
    return cache.get(slot.key)


def store(slot, value):
    """File a value beside the one being computed (a `part` of its slot)."""
    cache.set(slot.key, value, CACHE_SECONDS)


def _take(slot):
    return cache.add(slot.lock, 1, int(WAIT_SECONDS) + 1)


def computed(slot, compute):
    """The value of `slot`: from the cache, or `compute()`d once across processes (see the module)."""
    value = cache.get(slot.key)
    if value is not None:
        return value
    holding = _take(slot)
    if not holding:
        waited = wait_for_holder(lambda: cache.get(slot.key), lambda: _take(slot), WAIT_SECONDS)
        if waited.value is not None:
            return waited.value
        holding = waited.holding
    try:
        value = compute()
        cache.set(slot.key, value, CACHE_SECONDS)
    finally:
        if holding:
            cache.delete(slot.lock)
    return value


def memo(key, compute):
    """A value that never changes for its key (the QR code of an address), computed once and kept."""
    return cache.get_or_set(f"memo:{key}", compute, None)
