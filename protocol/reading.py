"""The door for reading a stored Partie: its document, and the engine's answer (architecture.md).

A read is not a write. There is one way to read for each kind of reader:

- :func:`page`: a page, its poll, the printed sheet and the form the save follows. It gets a
  :class:`Page`, the engine's answer at the stored version as this process shares it with its
  other readers (protocol.engine_state: nothing is replayed twice). A Page cannot be changed and
  holds no engine to feed: only protocol.recording feeds the engine a new entry, a fork of its
  own. Readers replay stored entries only: all of them, or (protocol.engine_state) the one a save
  kept after the state before.
- :class:`BulkReading`: a reader of many Partien (a season's workbook, an import's look for
  Partien the club has already). The states kept for their versions are read in one cache read
  (and one for each step back to the states that saves' entries were kept after), the rest
  replayed and not kept: a bulk reader must not fill the cache with Partien nobody looks at.
- :func:`replayed`: the events run anew as a state of the caller's own (the recording door checks
  every save with it).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.core.cache import cache

from protocol import engine_state
from protocol.engine_state import State
from protocol.format_order import in_format_order
from protocol.models import Match
from protocol.rules import Evaluation, evaluate, get_ruleset
from protocol.rules.envelope import FORMAT


def document(match: Match, events: list[dict] | None = None, *, ordered: bool = True,
             seats: list[tuple[str, bool]] | None = None) -> dict[str, Any]:
    """The match as a ``protocol/1`` document (what export writes and the engine reads).

    ``ordered`` writes every key in the format's order, as files and the history keep
    them; the engine reads any order, so evaluating skips that work. ``seats`` (name, is
    the scorekeeper) in seating order and ``events`` are the match's as a bulk reader read
    them already (the season's spreadsheet), else they are read here."""
    seats = [_Seat(*seat) for seat in seats] if seats is not None else list(match.seats.all())
    doc: dict[str, Any] = {"format": FORMAT, "ruleset": match.ruleset, "club": match.club.name}
    if match.season_id:
        doc["season"] = match.season.name
    doc["date"] = match.date.isoformat()
    if match.place:
        doc["place"] = match.place
    doc["players"] = [seat.name for seat in seats]
    scorekeeper = next((seat.name for seat in seats if seat.is_scorekeeper), None)
    doc["scorekeeper"] = scorekeeper
    doc["settings"] = in_format_order(dict(match.settings)) if ordered else dict(match.settings)
    if events is None:
        events = stored_events(match)
    if ordered:  # also events a caller read: PostgreSQL's jsonb keeps its own key order
        events = in_format_order(list(events), doc["players"])
    doc["events"] = events
    return doc


def entry_document(match: Match, events: tuple[dict, ...] | list[dict]) -> dict[str, Any]:
    """The document an entry page carries for the offline evening (:func:`document` in the
    format's order), of ``match`` with ``events``, the stored events at its version as the
    view read them: kept in the shared cache per state, the same for every entry page and phone
    until the next write (ordering the keys of 60 Spiele took a third of the Spiel form's time)."""
    key = f"document:{engine_state.key(match)}"
    doc = cache.get(key)
    if not isinstance(doc, dict):
        doc = document(match, events)
        cache.set(key, doc, engine_state.TIMEOUT)
    return doc


@dataclass
class _Seat:
    name: str
    is_scorekeeper: bool


def stored_events(match: Match) -> list[dict[str, Any]]:
    """The match's events as the protocol writes them (``{kind: body}``), in order."""
    return [{kind: data} for kind, data in match.events.values_list("kind", "data")]


# -- pages ----------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Page:
    """The engine's answer for a stored match at ``version``, to show: it cannot be changed
    (assigning raises) and holds no engine, so no page can feed the state its other readers
    share. The save that follows a form passes its Page on (protocol.recording.add_event),
    which feeds the new entry to a fork of its own (:func:`fork`), never to this state."""

    version: int
    events: tuple[dict[str, Any], ...]
    evaluation: Evaluation
    _fork: Callable[[], State | None] = field(default=lambda: None, repr=False, compare=False)

    @property
    def computed(self):
        return self.evaluation.match

    @classmethod
    def of(cls, state: State) -> Page:
        """The page of a kept ``state`` (which this process may share with other readers)."""
        replay = state.replay

        def forked() -> State | None:  # the engine stays in here: each call a fork of its own
            if replay is None:
                return None
            return State(state.version, list(state.events), state.evaluation, replay.fork(), state.members,
                         state.behind)

        return cls(state.version, tuple(state.events), state.evaluation, forked)


def fork(page: Page) -> State | None:
    """A state of the caller's own to feed, as ``page`` is (the engine forked, ``Engine.fork``:
    the page's state stays as it is), or None when it has no engine to fork."""
    return page._fork()


def page(match: Match, *, just_fetched: bool = False) -> Page:
    """The engine's answer for the match as stored, to show and never to feed or change (a page,
    its poll, the sheet, the form a save follows): the state kept for the stored version as this
    process shares it with its other readers, else the events read and replayed once and kept
    for every worker. One small query tells the stored version, so an object read before a later
    save still gets the stored answer; ``just_fetched``: ``match`` was read by this request and
    nothing was written since, so its version is the stored one (no query; a save in between is
    as if it came after the page)."""
    if not just_fetched:
        match = _as_stored(match)
    state = engine_state.peek(match)
    if state is None:
        events, version, updated_at = _events_as_stored(match)
        state = replayed(match, events)
        state.version = version  # under the version read with the events (the object may be older)
        engine_state.keep(match, state, version=version, updated_at=updated_at, handed_over=True)
    return Page.of(state)


def _as_stored(match: Match) -> Match:
    """``match`` if nothing was saved since it was read, else the match read again."""
    stored = Match.objects.filter(pk=match.pk).values_list("version", "updated_at").first()
    if stored is None or stored == (match.version, match.updated_at):
        return match
    return Match.objects.select_related("club", "season", "winner").get(pk=match.pk)


def _events_as_stored(match: Match) -> tuple[list[dict[str, Any]], int, Any]:
    """The match's events with the version and ``updated_at`` they are the events of: one
    statement, so one snapshot, even while another device saves."""
    rows = (Match.objects.filter(pk=match.pk).order_by("events__position")
            .values_list("version", "updated_at", "events__kind", "events__data"))
    events = [{kind: data} for _, _, kind, data in rows if kind is not None]
    version, updated_at = rows[0][:2] if rows else (match.version, match.updated_at)
    return events, version, updated_at


# -- bulk readers ---------------------------------------------------------------------------

class BulkReading:
    """The engine's answers for many stored Partien, none of them kept: those kept for the
    Partien's versions are read in one cache read (a workbook reads a chunk at a time)."""

    def __init__(self, matches):
        self._kept = {pk: state.evaluation for pk, state in engine_state.get_many(matches).items()}

    def evaluation(self, match: Match, doc: dict[str, Any] | None = None) -> Evaluation:
        """The answer for ``match`` (one of the matches read): the kept one, else a replay of
        ``doc`` (its document as the reader read it already) or of its stored events."""
        kept = self._kept.get(match.pk)
        if kept is not None:
            return kept
        if doc is not None:
            return evaluate(doc)
        events = _events_as_stored(match)[0]
        return replayed(match, events).evaluation


# -- the recording door's reading ----------------------------------------------------------

def replayed(match: Match, events: list[dict[str, Any]]) -> State:
    """The engine run over ``events`` as the events of ``match``: a state of the caller's own
    (protocol.recording checks each save with it and keeps what it saved)."""
    ruleset = get_ruleset(match.ruleset)
    if ruleset is None:  # an unknown ruleset: the engine says so
        return State(match.version, events, evaluate(document(match, events, ordered=False)))
    seats = list(match.seats.all())  # read once: the document's players and the cache's members
    doc = document(match, events, ordered=False, seats=[(seat.name, seat.is_scorekeeper) for seat in seats])
    members = {seat.name: seat.member_id for seat in seats}
    replay, problems = ruleset.start(doc)
    if replay is None:
        return State(match.version, events, Evaluation(list(problems.errors)), members=members)
    return State(match.version, events, Evaluation(list(problems.errors), replay.finish()), replay, members)
