"""The door for saving: the one place that feeds the rules engine a new entry and writes (architecture.md).

Every write goes the same way, inside one database transaction:

1. claim the match's ``version`` (compare and swap): a form read before another device
   saved is refused with :class:`StaleMatch`, nothing is lost, nothing saved;
2. build the protocol document with the change applied and let the rules engine check
   *all* of it: any error raises :class:`RuleViolation` and the transaction rolls back;
3. store the fact (an ``Event`` or the header), log a ``Change`` (who, when, before,
   after, why) and rewrite the cache (``Match.status``/``winner``, ``ScoreLine``,
   ``SanctionLine``, protocol.score_cache) from the engine's answer;
4. move the versions of the kept pages it changes (:func:`_kept_pages_moved`,
   league.registry.versions): its members', and the club's if the Partie is or was finished.

A new entry is fed to the engine here only: to a fork of the state pages share
(protocol.reading.Page) or to a replay of its own; the state of each version saved is kept
(protocol.engine_state; a reader replays stored entries only).
"""

from __future__ import annotations

import uuid
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from league.registry import versions
from league.registry.statements import Insert, Update
from protocol import engine_state, reading
from protocol.engine_state import State
from protocol.models import Change, Event, Match, SanctionLine, ScoreLine, Seat
from protocol.reading import Page
from protocol.rules import Evaluation, RuleError, evaluate
from protocol.rules.text import reason_problem
from protocol.score_cache import CACHED_FIELDS, announce, append_cache, cache_rows, refresh_cache


class StaleMatch(Exception):
    """Somebody else saved the match after this form was loaded."""

    message = ("Die Partie wurde inzwischen auf einem anderen Gerät geändert. Ihre Eingabe ist "
               "nicht gespeichert, aber erhalten: bitte die neuen Einträge ansehen und erneut speichern.")


class RuleViolation(Exception):
    """The change breaks a rule; ``errors`` lists every RuleError the engine found."""

    def __init__(self, errors: list[RuleError]):
        super().__init__("; ".join(e.message for e in errors))
        self.errors = errors


class AlreadySaved(Exception):
    """The same form was submitted twice; the first submit was recorded."""

    def __init__(self, event: Event | None, *, position: int | None = None):
        super().__init__("already saved")
        self.event = event
        self.position = event.position if position is None else position  # where it was saved


# -- writing ------------------------------------------------------------------------------

# The statements of a Spiel's save, written as SQL once (league.registry.statements): Django
# built each anew at every save, more than SQLite took to run them.
_EVENT = Insert(Event, returning=True)
_CHANGE = Insert(Change)
_SCORE_LINES = Insert(ScoreLine)
_CLAIM = Update(Match, sets=("version", "updated_at", *CACHED_FIELDS), where=("id", "version"))


def _claim(match: Match, version: int | None) -> None:
    """Compare and swap the version: exactly one of two racing writes gets through."""
    current = version if version is not None else match.version
    now = timezone.now()  # the archive's kept page knows a write by it (league.standings.pages.archive)
    claimed = Match.objects.filter(pk=match.pk, version=current).update(version=F("version") + 1, updated_at=now)
    if not claimed:
        raise StaleMatch()
    match.version, match.updated_at = current + 1, now


def _checked(match: Match, events: list[dict[str, Any]]) -> State:
    """The replay of ``events`` as the events of ``match``; RuleViolation if anything breaks a rule."""
    state = reading.replayed(match, events)
    if state.evaluation.errors:
        raise RuleViolation(state.evaluation.errors)
    return state


def add_event(match: Match, kind: str, body: Any, *, user=None, version: int | None = None,
              submission: uuid.UUID | None = None, reason: str = "",
              page: Page | None = None, recorded_at=None) -> Event:
    """Append a Spiel, Strafe, Verwarnung, Disqualifikation, end or annulment.

    ``recorded_at``: when the entry was typed offline (the phone's queue sends it later); the
    history says both times.

    ``page`` is the match as the caller read it (``reading.page``: the state this process
    shares, which is never changed here); without one, the state kept for the match's
    version. When it is of the version claimed, only the new entry is fed to a fork of its
    engine, before the transaction, and the claim (compare and swap of the version) writes
    the match's cache in the same statement: nothing was written since, so its events are the
    stored ones. Otherwise the version is claimed first and the stored events are replayed.

    A submission saved before (a double tap, a queue sending again) is not looked for first:
    its claim fails (the version moved with it) or its insert does (the unique submission),
    and :class:`AlreadySaved` says so then; every other save is spared the lookup."""
    entry = {kind: body}
    claimed_from = version if version is not None else match.version
    if page is None:
        shared = engine_state.peek(match)  # only read: the entry is fed to a fork
        page = Page.of(shared) if shared is not None else None
    after = _extended(page, entry, claimed_from)
    if after is not None and after.evaluation.errors:
        after = None  # refused: the claim first (a stale form says so before its rule errors)
    # the key the fed state was kept under, if it is the object's version (it is, but for a stale form)
    before_key = engine_state.key(match) if after is not None and match.version == claimed_from else None
    was_finished = match.status == Match.Status.FINISHED
    try:
        with transaction.atomic():
            if after is not None:
                before = page.computed
                _claim_with_cache(match, claimed_from, after, games_from=len(before.games),
                                  sanctions_from=len(before.sanctions))
                position = len(after.events) - 1
            else:
                after = _claimed_and_replayed(match, version, page, entry)
                position = len(after.events) - 1
                append_cache(match, after.evaluation)
            event, _change = _EVENT.rows([Event(match=match, position=position, kind=kind, data=body,
                                                submission=submission, created_by=user_or_none(user))]) + _CHANGE.rows([
                Change(match=match, action=Change.Action.ADD, position=position, after={kind: body}, reason=reason,
                       user=user_or_none(user), recorded_at=recorded_at, submission=submission, version=match.version)])
            _kept_pages_moved(match, was_finished, after.members)
            if before_key is not None:  # for the page it redirects to; in the cache as the entry after
                engine_state.keep_appended(match, after, before_key, entry)
            else:
                engine_state.keep(match, after, written=True, handed_over=True)
            return event
    except (IntegrityError, StaleMatch):
        # A double tap: two racing submits of the same form. The other one won the compare
        # and swap (StaleMatch) or the unique submission (IntegrityError), and it saved this
        # very entry: say so instead of "not saved". Looked up after the failed claim, so
        # the winner has committed (the claim waited for its row lock).
        if submission is not None:
            earlier = Event.objects.filter(match=match, submission=submission).first()
            if earlier is not None:
                raise AlreadySaved(earlier) from None
        raise StaleMatch() from None


def saved_under(match: Match, submission) -> bool:
    """Whether an entry of ``match`` was saved under the one-time id ``submission``, as a form
    sent it (a text that is no id: none was)."""
    try:
        submission = uuid.UUID(str(submission))
    except ValueError:
        return False
    return Event.objects.filter(match=match, submission=submission).exists()


def _claimed_and_replayed(match: Match, version: int | None, page: Page | None,
                          entry: dict[str, Any]) -> State:
    """Claim the version, then the stored events plus ``entry`` replayed (RuleViolation if
    anything breaks a rule): the way of :func:`add_event` without a reading of the version
    claimed."""
    read_at = match.version
    _claim(match, version)
    if match.version != read_at + 1:  # claimed from another version than the object's
        page = None
        match.game_count = Match.objects.values_list("game_count", flat=True).get(pk=match.pk)
    if page is not None and page.version + 1 == match.version:
        events = list(page.events)
    else:
        events = reading.stored_events(match)
    return _checked(match, events + [entry])


def _claim_with_cache(match: Match, claimed_from: int, after: State, *, games_from: int,
                      sanctions_from: int) -> None:
    """Compare and swap the version (:func:`_claim`) and write the match's cache of the
    engine's answer ``after`` in the same statement, then the new entry's cache rows
    (``score_cache.append_cache``, whose counts the caller read from the state it fed)."""
    members = after.members
    if members is None:  # a state kept before the members were
        members = after.members = {seat.name: seat.member_id for seat in match.seats.all()}
    cached = {name: getattr(match, name) for name in CACHED_FIELDS}
    score_lines, sanction_lines = cache_rows(match, after.evaluation, members, games_from=games_from,
                                             sanctions_from=sanctions_from)
    now = timezone.now()
    claimed = _CLAIM.run({"version": claimed_from + 1, "updated_at": now} | {
        name: getattr(match, name) for name in CACHED_FIELDS}, {"id": match.pk, "version": claimed_from})
    if not claimed:
        for name, value in cached.items():  # the object stays as it was read
            setattr(match, name, value)
        raise StaleMatch()
    match.version, match.updated_at = claimed_from + 1, now
    _SCORE_LINES.rows(score_lines)
    if sanction_lines:
        SanctionLine.objects.bulk_create(sanction_lines)
    announce(match, cached["status"])


def correct_event(match: Match, position: int, body: Any, *, user=None, version: int | None = None,
                  reason: str, submission: uuid.UUID | None = None, recorded_at=None) -> Event:
    """Replace an earlier entry; everything after it is derived anew (and must stay valid).

    ``submission``: the one-time id of a correction typed offline (the phone's queue may send it
    twice): a correction already saved under it raises :class:`AlreadySaved`. ``recorded_at``:
    when it was typed offline (the history says both times)."""
    _require_reason(reason)
    check_correction_done(match, submission)
    was_finished = match.status == Match.Status.FINISHED
    try:
        with transaction.atomic():
            _claim(match, version)
            event = match.events.get(position=position)
            events = reading.stored_events(match)
            events[position] = {event.kind: body}
            after = _checked(match, events)
            evaluation = after.evaluation
            before = event.as_protocol()
            event.data = body
            event.save(update_fields=["data"])
            Change.objects.create(match=match, action=Change.Action.CORRECT, position=position, before=before,
                                  after=event.as_protocol(), reason=reason, user=user_or_none(user),
                                  submission=submission, recorded_at=recorded_at, version=match.version)
            refresh_cache(match, evaluation)
            _kept_pages_moved(match, was_finished)
            engine_state.keep(match, after, written=True)
            return event
    except (IntegrityError, StaleMatch):
        check_correction_done(match, submission)  # a second tab sent this very correction (as in add_event)
        raise StaleMatch() from None


def check_correction_done(match: Match, submission: uuid.UUID | None) -> None:
    """AlreadySaved if the correction ``submission`` is in the history of ``match``."""
    if submission is None:
        return
    done = Change.objects.filter(match=match, submission=submission, action=Change.Action.CORRECT).first()
    if done is not None:
        raise AlreadySaved(match.events.filter(position=done.position).first(), position=done.position)


def remove_event(match: Match, position: int, *, user=None, version: int | None = None, reason: str) -> None:
    """Take back an entry recorded in error (kept in the history with its reason)."""
    _require_reason(reason)
    was_finished = match.status == Match.Status.FINISHED
    with transaction.atomic():
        _claim(match, version)
        events = list(match.events.all())
        target = events[position]
        remaining = [e.as_protocol() for e in events if e.position != position]
        after = _checked(match, remaining)
        evaluation = after.evaluation
        before = target.as_protocol()
        target.delete()
        for e in events[position + 1:]:  # close the gap, in order, keeping positions unique
            Event.objects.filter(pk=e.pk).update(position=e.position - 1)
        Change.objects.create(match=match, action=Change.Action.REMOVE, position=position,
                              before=before, reason=reason, user=user_or_none(user), version=match.version)
        refresh_cache(match, evaluation)
        _kept_pages_moved(match, was_finished)
        engine_state.keep(match, after, written=True)


def update_settings(match: Match, settings: dict[str, Any], *, user=None, version: int | None = None,
                    reason: str) -> Match:
    """Change the match settings; every Spiel is checked and scored again."""
    _require_reason(reason)
    was_finished = match.status == Match.Status.FINISHED
    with transaction.atomic():
        _claim(match, version)
        before = dict(match.settings)
        match.settings = settings
        after = _checked(match, reading.stored_events(match))
        evaluation = after.evaluation
        match.save(update_fields=["settings", "updated_at"])
        Change.objects.create(match=match, action=Change.Action.EDIT_MATCH, before={"settings": before},
                              after={"settings": settings}, reason=reason, user=user_or_none(user), version=match.version)
        refresh_cache(match, evaluation)
        _kept_pages_moved(match, was_finished)
        engine_state.keep(match, after, written=True)
        return match


def record_new(match: Match, events: list[dict[str, Any]], *, user=None, action: str, reason: str = "",
               restore: dict | None = None) -> None:
    """The first record of a Partie just created with its seats (protocol.matches.create_match):
    its ``events`` checked by the engine (RuleViolation) and stored, the history's first line
    (none for a ``restore``, which brings its own) and the cache."""
    after = _checked(match, events)
    Event.objects.bulk_create([
        Event(match=match, position=i, kind=next(iter(e)), data=next(iter(e.values())), created_by=user_or_none(user))
        for i, e in enumerate(events)
    ])
    if restore is None:
        Change.objects.create(match=match, action=action, after=reading.document(match), reason=reason,
                              user=user_or_none(user))
    refresh_cache(match, after.evaluation)
    _kept_pages_moved(match, was_finished=False)
    if not events:  # a Partie about to be played: its first page and Spiel need no replay
        engine_state.keep(match, after, written=True)


def _kept_pages_moved(match: Match, was_finished: bool, members: dict[str, int] | None = None) -> None:
    """Move the versions of the pages kept of what this write changed (league.registry.versions):
    the members at the table (their own Partien, running ones too) and, if the Partie was or is
    finished (only finished ones count, league.standings.ranking.COUNTED), the club's tables.
    ``members``: seat name -> member id, where the caller has them."""
    ids = members.values() if members is not None else Seat.objects.filter(match=match).values_list("member_id", flat=True)
    versions.touch_members(ids)
    if was_finished or match.status == Match.Status.FINISHED:
        versions.touch_club(match.club_id)


def kept_pages_of_deleted(sender, instance: Match, **kwargs) -> None:
    """A Partie deleted (the admin; its seats go with it): its members' pages and the club's
    tables change (connected in protocol.apps)."""
    versions.touch_members(Seat.objects.filter(match=instance).values_list("member_id", flat=True))
    versions.touch_club(instance.club_id)


def _extended(page: Page | None, entry: dict[str, Any], version: int) -> State | None:
    """``page`` plus ``entry``, by feeding only the entry to a fork of its engine
    (``reading.fork``: the page's state stays as it is, the one this process shares with its
    readers); None when ``page`` is not of ``version`` (the version to be claimed) or can't be
    fed (no incremental replay, errors)."""
    if page is None or page.evaluation.errors or page.version != version:
        return None
    own = reading.fork(page)
    if own is None:
        return None
    engine_state.feed(own.replay, entry)
    evaluation = Evaluation(list(own.replay.problems.errors), own.replay.finish())
    return State(version + 1, own.events + [entry], evaluation, own.replay, own.members, own.behind + 1)


def preview(match: Match, kind: str, body: Any, position: int | None = None) -> tuple[Evaluation, int]:
    """What the engine says if this entry were saved (appended, or replacing ``position``);
    nothing is saved. Appended, the entry is fed to a fork of the page's state: nothing is
    replayed."""
    page = reading.page(match, just_fetched=True)
    entry = {kind: body}
    if position is None:
        position = len(page.events)
        own = reading.fork(page) if not page.evaluation.errors else None
        if own is not None:
            engine_state.feed(own.replay, entry)
            return Evaluation(list(own.replay.problems.errors), own.replay.finish()), position
        events = [*page.events, entry]
    else:
        events = list(page.events)
        events[position] = entry
    return evaluate(reading.document(match, events, ordered=False)), position


def _require_reason(reason: str) -> None:
    if not reason or not reason.strip():
        raise RuleViolation([RuleError(None, None, "reason", "Für eine Korrektur ist ein Grund anzugeben; er bleibt in der Geschichte der Partie.")])
    if problem := reason_problem(reason):  # the one text boundary, also for a phone's JSON
        raise RuleViolation([RuleError(None, None, "reason", problem)])


def user_or_none(user):
    """``user`` if signed in, else None (a phone's sync, a command: nobody)."""
    return user if user is not None and getattr(user, "is_authenticated", False) else None
