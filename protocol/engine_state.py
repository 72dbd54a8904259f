"""The engine's state of a Partie, kept per version in the shared cache: nothing replays twice.

Replaying a Partie of 60 Spiele costs milliseconds; feeding one more entry to a kept replay
costs a few hundredths of one. So the engine's replay after the last stored entry (with the
events it was fed and its answer) is kept in Django's cache (config/caches.py: one cache for
every worker), and the save, the live preview, the match page and its state poll, the sheet,
the export and the import read it there before they replay anything.

The key is the match, its ``version`` and ``updated_at`` (every write raises the one and
sets the other, protocol.recording) and the header the engine reads (club, season, date,
place); every key of the cache also carries the code's fingerprint (config.caches), so a
state the engine of an earlier release kept is never read: a kept state can never be stale. A
write that rolls back keeps nothing (states are kept when the transaction commits).

A state is pickled here, with each ruleset pickled by its key (the module's singleton, not a
copy), so every read gets a copy of its own to feed. A save that fed its entry to the state
kept for the version before keeps the new state for this process's readers and, in the cache,
only as that entry after the earlier state's key (:func:`keep_appended`: a few hundred bytes
instead of the whole state pickled, 1-2 ms for 40 Spiele); a reader in another process feeds
the entry to a copy of the earlier state, as a replay would, once. Every ``APPENDED_AT_MOST``-th
save keeps its state whole, so no reader feeds more entries than that.

This is the private cache behind the two doors (architecture.md): pages read through
protocol.reading, which hands out a state nobody can change (``reading.Page``); only
protocol.recording feeds the engine (a fork or a copy of its own) and keeps what it saved;
reading a state kept as an entry after another replays that one stored entry here, on a fork.
"""

from __future__ import annotations

import copyreg
import hashlib
import io
import pickle
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db import transaction

from league.registry.recent import Recent
from protocol.rules import RULESETS, Evaluation, get_ruleset

TIMEOUT = 6 * 60 * 60  # a Partie nobody looked at for six hours leaves the cache


@dataclass
class State:
    """The stored events of a match at ``version`` and the engine's answer: what is kept.

    ``replay`` is the engine fed so far (``Ruleset.start``): the recording door feeds one more
    entry to a fork of it instead of replaying every event again."""

    version: int
    events: list[dict[str, Any]]
    evaluation: Evaluation
    replay: Any = None  # the engine fed so far, to feed one more entry (None: can't be fed)
    members: dict[str, int] | None = None  # seat name -> member id (the cache's rows), if read
    behind: int = 0  # entries kept in the cache as appended since the state was kept whole


    @property
    def computed(self):
        return self.evaluation.match


def key(match, version: int | None = None, updated_at=None) -> str:
    """The cache key of ``match`` at its version (or at ``version``, changed at ``updated_at``:
    what a read found stored; see the module docstring)."""
    if version is None:
        version, updated_at = match.version, match.updated_at
    season = match.season.name if match.season_id else ""
    header = f"{match.club.name}\x1f{season}\x1f{match.date}\x1f{match.place}"
    stamp = hashlib.blake2b(header.encode(), digest_size=6).hexdigest()
    updated = updated_at.isoformat() if updated_at else "-"
    return f"engine:{match.pk}:{version}:{updated}:{stamp}"


def _by_key(ruleset) -> tuple:
    return get_ruleset, (ruleset.key,)


# Each ruleset is pickled as its key (read back as the module's singleton). A dispatch table,
# looked up in C by the object's type, and not persistent_id, a Python call for every one of
# the state's ~100,000 objects: 1 ms instead of 4-5 ms for 60 Spiele, measured on the match page.
_REDUCERS = copyreg.dispatch_table | {type(ruleset): _by_key for ruleset in RULESETS.values()}


class _Unpickler(pickle.Unpickler):
    def persistent_load(self, pid: Any) -> Any:  # states kept before the dispatch table
        kind, ruleset = pid
        if kind != "ruleset" or ruleset not in RULESETS:
            raise pickle.UnpicklingError(f"unknown ruleset {pid!r}")
        return RULESETS[ruleset]


def dumps(state: Any) -> bytes:
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = _REDUCERS
    pickler.dump(state)
    return buffer.getvalue()


def loads(data: bytes) -> Any:
    return _Unpickler(io.BytesIO(data)).load()


APPENDED = "appended"  # a cache entry (APPENDED, key of the state before, entry): keep_appended
APPENDED_AT_MOST = 8


def _is_appended(data: Any) -> bool:
    return isinstance(data, tuple) and len(data) == 3 and data[0] == APPENDED


def _loaded(data: Any, depth: int = 0, fetched: dict[str, Any] | None = None) -> Any:
    """The state in a cache entry (a copy of its own), or None; ``fetched``: entries read
    already, by key."""
    if _is_appended(data):
        return _appended(data[1], data[2], depth, fetched)
    try:
        return loads(data) if isinstance(data, bytes) else None
    except Exception:  # a state an older engine kept and this one can't read: replay instead
        return None


def feed(replay, entry: dict[str, Any]) -> None:
    """Feed one more entry to the engine's replay; its envelope lists the entry too (the
    sheet's rows walk ``match.envelope.events``, protocol.sheet.rows)."""
    replay.feed(entry)
    replay.env.events = [*replay.env.events, entry]


def _appended(before_key: str, entry: dict[str, Any], depth: int, fetched: dict[str, Any] | None = None
              ) -> State | None:
    """The state kept as ``entry`` after the state kept under ``before_key``: that state (this
    process's, else the cache's) with the entry fed to a fork of its engine; None when it is
    gone (the caller replays the stored events)."""
    before = _SHARED.get(before_key)
    if before is None and depth < APPENDED_AT_MOST:
        data = fetched[before_key] if fetched is not None and before_key in fetched else cache.get(before_key)
        before = _loaded(data, depth + 1, fetched)
    if before is None or before.replay is None:
        return None
    replay = before.replay.fork()  # the earlier state stays as it is (this process may share it)
    feed(replay, entry)
    return State(before.version + 1, [*before.events, entry], Evaluation(list(replay.problems.errors), replay.finish()),
                 replay, before.members, before.behind + 1)


def get(match) -> Any:
    """The kept state of ``match`` at its version (a copy of its own), or None."""
    return _loaded(cache.get(key(match)))


# The states this process kept or read lately, to be read only (a page, a poll): the match page
# the save redirects to, every poll of the same version and the save that follows the Spiel
# form find them without unpickling one (1-2 ms for 40 Spiele). Keyed like the cache, so never
# stale. As many as a tournament's tables, each of which one worker may serve in turn (a
# phone's form and its save 45-90 s later): with 8, thirty tables pushed a table's state out
# before its save came. A state of 60 Spiele takes some 600 kB, so 32 stay under 20 MB.
SHARED = 32
_SHARED = Recent(SHARED)


def peek(match) -> Any:
    """The kept state of ``match`` at its version to read only, never to feed or change (it is
    this process's one copy, which other readers share: protocol.reading hands it out as a
    ``Page``, protocol.recording feeds a fork of its engine), or None: the copy this process kept
    or read lately, else the cache's (then shared in turn)."""
    where = key(match)
    state = _SHARED.get(where)
    if state is None:
        state = _loaded(cache.get(where))
        if state is not None:
            _SHARED.keep(where, state)
    return state


def get_many(matches) -> dict[int, Any]:
    """The kept states of ``matches`` by match pk (those in the cache), in one cache read, and
    one more for each step back to the states their saves' entries were kept after."""
    keys = {key(match): match.pk for match in matches}
    fetched = cache.get_many(list(keys))
    wanted = fetched
    for _ in range(APPENDED_AT_MOST):
        earlier = {data[1] for data in wanted.values() if _is_appended(data)} - fetched.keys() - _SHARED.keys()
        if not earlier:
            break
        wanted = cache.get_many(list(earlier))
        fetched |= wanted
    states = {pk: _loaded(fetched[k], fetched=fetched) for k, pk in keys.items() if k in fetched}
    return {pk: state for pk, state in states.items() if state is not None}


def keep(match, state: Any, *, written: bool = False, version: int | None = None, updated_at=None,
         handed_over: bool = False) -> None:
    """Keep ``state`` as the state of ``match`` at its version (or at ``version`` changed at
    ``updated_at``, as a read found it): at once when it was read, when the transaction
    commits when it was ``written`` (a rolled back write keeps nothing). ``handed_over``: the
    caller neither feeds nor changes ``state`` any more, so this process's readers may share
    it (:func:`peek`)."""
    if isinstance(state, State):
        state.behind = 0  # kept whole: a later save's entry is appended to this one
    data, where = dumps(state), key(match, version, updated_at)

    def store():
        cache.set(where, data, TIMEOUT)
        if handed_over:
            _SHARED.keep(where, state)

    if written:
        transaction.on_commit(store)
    else:
        store()


def keep_appended(match, state: State, before_key: str, entry: dict[str, Any]) -> None:
    """Keep ``state``, the state kept under ``before_key`` with ``entry`` fed (a save's), as the
    state of ``match`` at its version when the transaction commits: whole for this process's
    readers, in the cache as the entry after that key (see the module docstring), or whole every
    ``APPENDED_AT_MOST``-th time. The caller neither feeds nor changes ``state`` any more."""
    if state.behind >= APPENDED_AT_MOST:
        keep(match, state, written=True, handed_over=True)
        return
    where = key(match)

    def store():
        cache.set(where, (APPENDED, before_key, entry), TIMEOUT)
        _SHARED.keep(where, state)

    transaction.on_commit(store)
