"""An entry handed over by a phone: typed for its place in the Partie, never appended blindly.

At a table every player has a phone. Two of them may type the same Spiel, or one may type
while offline what another saved meanwhile. Each entry a phone sends therefore names the
*position* it was typed for (its index in ``protocol/1`` ``events``: "Spiel 7", "Strafe nach
Spiel 6") and, for a correction, the entry as the phone saw it (``was``):

- the place is still free: the entry is saved there, the rules engine checking everything;
- the place was filled meanwhile with the very same entry (same values): it is the same deal,
  recorded once (:class:`SameEntry`), never a second time;
- the place holds another entry (or is gone: an entry was struck meanwhile):
  :class:`Clash`, with both entries in the history's words. Nothing is saved; the phone asks
  the Protokollant: discard his entry, enter it at the end ("Als Spiel 8 eintragen"), or edit it.

A correction clashes when the entry it corrects was changed on another device since the phone
saw it, unless the other device made the very same correction.

:func:`meanwhile` says what was recorded after a version a phone last saw, in the history's
words, so that the phone shows it before it hands over what it typed offline.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.utils.translation import gettext as _

from protocol import reading, recording
from protocol.models import Change, Event, Match
from protocol.records import chronicle

RETRIES = 3  # another device saved between the look at the place and the claim of the version


class SameEntry(Exception):
    """The place holds this very entry already: recorded once, not again."""

    def __init__(self, position: int, name: str):
        super().__init__(name)
        self.position, self.name = position, name


class Clash(Exception):
    """The place was filled (or changed, or struck) meanwhile on another device."""

    def __init__(self, *, position: int, name: str, stored: dict | None, yours: dict, stored_text: str,
                 yours_text: str, next_position: int, next_name: str, message: str, correction: bool):
        super().__init__(message)
        self.message = message
        self.answer = {"position": position, "name": name, "stored": stored, "yours": yours,
                       "stored_text": stored_text, "yours_text": yours_text, "correction": correction,
                       "next_position": next_position, "next_name": next_name}


def hand_over(match: Match, kind: str, body: Any, *, position: int, user=None,
              submission: uuid.UUID | None = None, recorded_at=None) -> Event:
    """Save the entry ``{kind: body}`` a phone typed for ``position``: :class:`SameEntry`,
    :class:`Clash`, or as :func:`protocol.recording.add_event` (AlreadySaved for a submission
    seen before, RuleViolation for what the engine refuses)."""
    entry = {kind: body}
    for _attempt in range(RETRIES):
        if submission is not None:  # sent before (a second tab, a lost answer): exactly once
            earlier = Event.objects.filter(match=match, submission=submission).first()
            if earlier is not None:
                raise recording.AlreadySaved(earlier)
        version, events = _as_stored(match)
        if position < len(events):
            if events[position] == entry:
                raise SameEntry(position, _name(match, events, position))
            raise _clash(match, events, position, entry, filled=True)
        if position > len(events):
            raise _clash(match, events, position, entry, filled=False)
        try:
            return recording.add_event(match, kind, body, user=user, version=version, submission=submission,
                                       recorded_at=recorded_at)
        except recording.StaleMatch:
            continue  # saved in between: look at the place again
    raise recording.StaleMatch()


def hand_over_correction(match: Match, position: int, body: Any, *, was: dict | None, version: int,
                         reason: str, user=None, submission: uuid.UUID | None = None,
                         recorded_at=None) -> Event:
    """Save the correction of the entry at ``position`` to ``body`` (its own kind kept) that a
    phone typed on the entry ``was`` (``{kind: body}`` as it saw it). Without ``was`` the
    correction needs ``version`` to be the stored one (compare and swap, StaleMatch)."""
    if was is None:
        return recording.correct_event(match, position, body, user=user, version=version, reason=reason,
                                       submission=submission, recorded_at=recorded_at)
    for _attempt in range(RETRIES):
        recording.check_correction_done(match, submission)
        version, events = _as_stored(match)
        if position >= len(events):
            raise _clash(match, events, position, {next(iter(was)): body}, filled=False, correction=True)
        stored = events[position]
        kind = next(iter(stored))
        if stored == {kind: body}:
            raise SameEntry(position, _name(match, events, position))
        if stored != was:
            raise _clash(match, events, position, {kind: body}, filled=True, correction=True)
        try:
            return recording.correct_event(match, position, body, user=user, version=version, reason=reason,
                                           submission=submission, recorded_at=recorded_at)
        except recording.StaleMatch:
            continue
    raise recording.StaleMatch()


def same_saved_since(match: Match, entry: dict[str, Any], since: int) -> str | None:
    """The name ("Spiel 7") of ``entry`` if another device added the very same entry after
    version ``since`` and it still stands as added; else None. A form typed on version ``since``
    and refused as stale asks it: the same deal typed on two phones is not saved twice."""
    added = Change.objects.filter(match=match, version__gt=since, action=Change.Action.ADD)
    events = reading.stored_events(match)
    for position, after in added.values_list("position", "after"):
        if after == entry and position is not None and position < len(events) and events[position] == entry:
            return _name(match, events, position)
    return None


def same_message(name: str) -> str:
    return _("%(name)s was saved on another device already, with the same values: it is recorded once, "
             "not twice.") % {"name": name}


def meanwhile(match: Match, since: int) -> list[dict[str, Any]]:
    """What was recorded after version ``since``: ``[{text, submission}]``, oldest first, in the
    history's words ("Spiel 7 eingetragen: …"); ``submission`` lets a phone leave out its own."""
    changes = list(Change.objects.filter(match=match, version__gt=since).order_by("version"))
    if not changes:
        return []
    events = reading.stored_events(match)
    players = list(match.seats.values_list("name", flat=True))
    lines = chronicle.sentences(match.ruleset, changes, events, players)
    return [{"text": str(chronicle.with_reason(line, change.reason)),
             "submission": str(change.submission) if change.submission else None}
            for change, line in zip(changes, lines)]


def _as_stored(match: Match) -> tuple[int, list[dict[str, Any]]]:
    version = Match.objects.values_list("version", flat=True).get(pk=match.pk)
    return version, reading.stored_events(match)


def _name(match: Match, events: list[dict], position: int) -> str:
    return str(chronicle.entry_name(events, position))


def _clash(match: Match, events: list[dict], position: int, yours: dict, *, filled: bool,
           correction: bool = False) -> Clash:
    """The clash at ``position`` in words: what stands there now and what the phone typed."""
    players = list(match.seats.values_list("name", flat=True))
    at_end = len(events)
    yours_at = [*events[:position], yours] if filled or correction else [*events, yours]
    your_place = position if filled or correction else at_end
    name, yours_text = (str(w) for w in chronicle.entry_words(match.ruleset, yours_at, your_place, players))
    next_name = str(chronicle.entry_name([*events, yours], at_end))
    if filled:
        stored = events[position]
        if next(iter(stored)) == next(iter(yours)) == "game":  # two Spiele: only what differs, side by side
            stored_text, yours_text = (str(w) for w in chronicle.entry_differences(match.ruleset, stored, yours,
                                                                                  players))
        else:
            stored_text = str(chronicle.entry_words(match.ruleset, events, position, players)[1])
        if correction:
            message = _("%(name)s was changed meanwhile on another device: %(stored)s — your correction: "
                        "%(yours)s") % {"name": name, "stored": stored_text, "yours": yours_text}
        else:
            message = _("%(name)s was entered meanwhile on another device: %(stored)s — your entry: "
                        "%(yours)s") % {"name": name, "stored": stored_text, "yours": yours_text}
    else:
        stored, stored_text = None, ""
        message = _("An entry was struck meanwhile on another device, so the place your entry was typed for "
                    "is gone (the Partie has %(n)s entries now). Your entry: %(yours)s") % {
            "n": at_end, "yours": yours_text}
    return Clash(position=position, name=name, stored=stored, yours=yours, stored_text=stored_text,
                 yours_text=yours_text, next_position=at_end, next_name=next_name, message=message,
                 correction=correction)
