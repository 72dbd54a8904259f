"""The one place that runs a ruleset over stored data and saves (architecture.md).

Every write goes the same way, inside one database transaction:

1. claim the match's ``version`` (compare and swap): a form read before another device
   saved is refused with :class:`StaleMatch`, nothing is lost, nothing saved;
2. build the protocol document with the change applied and let the rules engine check
   *all* of it: any error raises :class:`RuleViolation` and the transaction rolls back;
3. store the fact (an ``Event`` or the header), log a ``Change`` (who, when, before,
   after, why) and rewrite the cache (``Match.status``/``winner``, ``ScoreLine``,
   ``SanctionLine``) from the engine's answer.
"""

from __future__ import annotations

import uuid
from collections import Counter
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from league.models import Member
from protocol import engine_state
from protocol.documents.protocol_file import in_format_order
from protocol.models import Change, Event, Match, SanctionLine, ScoreLine, Seat
from protocol.rules import DEFAULT as DEFAULT_RULESET
from protocol.rules import Evaluation, RuleError, evaluate, get_ruleset
from protocol.rules.envelope import FORMAT
from protocol.rules.text import reason_problem


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


# -- reading ------------------------------------------------------------------------------

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
        events = [in_format_order(event, doc["players"]) for event in events]
    doc["events"] = events
    return doc


@dataclass
class _Seat:
    name: str
    is_scorekeeper: bool


def stored_events(match: Match) -> list[dict[str, Any]]:
    """The match's events as the protocol writes them (``{kind: body}``), in order."""
    return [{kind: data} for kind, data in match.events.values_list("kind", "data")]


def evaluate_match(match: Match, events: list[dict] | None = None) -> Evaluation:
    """The engine's answer for the match as stored now (kept per version, :func:`read`; one
    small query tells the version, so an object read before a later save still gets the
    stored answer), or for ``events`` in its place (replayed)."""
    if events is None:
        return read(_as_stored(match)).evaluation
    return evaluate(document(match, events, ordered=False))


def _as_stored(match: Match) -> Match:
    """``match`` if nothing was saved since it was read, else the match read again."""
    stored = Match.objects.filter(pk=match.pk).values_list("version", "updated_at").first()
    if stored is None or stored == (match.version, match.updated_at):
        return match
    return Match.objects.select_related("club", "season", "winner").get(pk=match.pk)


def evaluate_stored(match: Match, doc: dict[str, Any]) -> Evaluation:
    """The engine's answer for the stored ``match`` whose document ``doc`` the caller has
    read anyway (an export): the kept state if there is one, else a replay of ``doc`` that is
    not kept (a bulk reader must not fill the cache with Partien nobody is looking at)."""
    kept = engine_state.get(match)
    return kept.evaluation if kept is not None else evaluate(doc)


@dataclass
class Reading:
    """The stored events of a match as read at ``version``, and the engine's answer.

    A page that shows a form reads the match once; the save that follows passes the
    Reading on, and when nothing was written in between (the compare-and-swap succeeds from
    ``version``) the new entry is fed to the engine's replay of the same events instead of
    reading and replaying them again. After such a save ``evaluation`` describes the match
    *with* the new entry; read again to show the match as stored after a refusal."""

    version: int
    events: list[dict[str, Any]]
    evaluation: Evaluation
    replay: Any = None  # the engine fed so far (``Ruleset.start``), to feed one more entry
    members: dict[str, int] | None = None  # seat name -> member id (the cache's rows), if read

    @property
    def computed(self):
        return self.evaluation.match


def read(match: Match, *, keep: bool = True, to_read_only: bool = False) -> Reading:
    """The match's events and the engine's answer at ``match.version``: the state kept for
    that version (protocol.engine_state, a copy of its own), or the events read and replayed
    once and then kept for every worker (unless ``keep`` is False: bulk readers).
    ``to_read_only``: the caller only reads it (a page, never a save), so it may be the copy
    this process shares (``engine_state.peek``)."""
    reading = engine_state.peek(match) if to_read_only else engine_state.get(match)
    if reading is None:
        events, version, updated_at = _events_as_stored(match)
        reading = replayed(match, events)
        reading.version = version
        if keep:  # under the version read with the events (the object may be older)
            engine_state.keep(match, reading, version=version, updated_at=updated_at, handed_over=to_read_only)
    return reading


def read_only(match: Match, *, just_fetched: bool = False) -> Evaluation:
    """The engine's answer for the match as stored, to show and never to feed or change (a
    page, its poll): :func:`evaluate_match`, but the copy of the kept state this process
    shares with its other readers when it has one. ``just_fetched``: ``match`` was read by
    this request and nothing was written since, so its version is the stored one (no query
    to ask; a save in between is as if it came after the page)."""
    return read(match if just_fetched else _as_stored(match), to_read_only=True).evaluation


def _events_as_stored(match: Match) -> tuple[list[dict[str, Any]], int, Any]:
    """The match's events with the version and ``updated_at`` they are the events of: one
    statement, so one snapshot, even while another device saves."""
    rows = (Match.objects.filter(pk=match.pk).order_by("events__position")
            .values_list("version", "updated_at", "events__kind", "events__data"))
    events = [{kind: data} for _, _, kind, data in rows if kind is not None]
    version, updated_at = rows[0][:2] if rows else (match.version, match.updated_at)
    return events, version, updated_at


def replayed(match: Match, events: list[dict[str, Any]]) -> Reading:
    """Let the engine replay ``events`` as the events of ``match`` (see :class:`Reading`)."""
    ruleset = get_ruleset(match.ruleset)
    if ruleset is None:  # an unknown ruleset: the engine says so
        return Reading(match.version, events, evaluate_match(match, events))
    seats = list(match.seats.all())  # read once: the document's players and the cache's members
    doc = document(match, events, ordered=False, seats=[(seat.name, seat.is_scorekeeper) for seat in seats])
    members = {seat.name: seat.member_id for seat in seats}
    replay, problems = ruleset.start(doc)
    if replay is None:
        return Reading(match.version, events, Evaluation(list(problems.errors)), members=members)
    return Reading(match.version, events, Evaluation(list(problems.errors), replay.finish()), replay, members)


def _extended(reading: Reading | None, entry: dict[str, Any], version: int) -> Reading | None:
    """``reading`` plus ``entry``, by feeding only the entry to a fork of its engine
    (``Engine.fork``: ``reading`` itself stays as it is, so it may be the copy this process
    shares with its readers, ``engine_state.peek``); None when ``reading`` is not of
    ``version`` (the version to be claimed) or can't be fed (no incremental replay, errors)."""
    if reading is None or reading.replay is None or reading.evaluation.errors or reading.version != version:
        return None
    replay = reading.replay.fork()
    _feed(replay, entry)
    evaluation = Evaluation(list(replay.problems.errors), replay.finish())
    return Reading(version + 1, reading.events + [entry], evaluation, replay, reading.members)


def _feed(replay, entry: dict[str, Any]) -> None:
    """Feed one more entry to the engine's replay; its envelope lists the entry too (the
    sheet's rows walk ``match.envelope.events``, protocol.presentation)."""
    replay.feed(entry)
    replay.env.events = [*replay.env.events, entry]


def preview(match: Match, kind: str, body: Any, position: int | None = None) -> tuple[Evaluation, int]:
    """What the engine says if this entry were saved (appended, or replacing ``position``).

    Appended, the entry is fed to a copy of the kept state: nothing is replayed."""
    reading = read(match)
    entry = {kind: body}
    if position is None:
        position = len(reading.events)
        if reading.replay is not None and not reading.evaluation.errors:
            _feed(reading.replay, entry)
            return Evaluation(list(reading.replay.problems.errors), reading.replay.finish()), position
        events = reading.events + [entry]
    else:
        events = list(reading.events)
        events[position] = entry
    return evaluate(document(match, events, ordered=False)), position


# -- writing ------------------------------------------------------------------------------

def _claim(match: Match, version: int | None) -> None:
    """Compare and swap the version: exactly one of two racing writes gets through."""
    current = version if version is not None else match.version
    claimed = Match.objects.filter(pk=match.pk, version=current).update(version=F("version") + 1)
    if not claimed:
        raise StaleMatch()
    match.version = current + 1


def _checked(match: Match, events: list[dict[str, Any]]) -> Reading:
    """The replay of ``events`` as the events of ``match``; RuleViolation if anything breaks a rule."""
    reading = replayed(match, events)
    if reading.evaluation.errors:
        raise RuleViolation(reading.evaluation.errors)
    return reading


def add_event(match: Match, kind: str, body: Any, *, user=None, version: int | None = None,
              submission: uuid.UUID | None = None, reason: str = "",
              reading: Reading | None = None, recorded_at=None) -> Event:
    """Append a Spiel, Strafe, Verwarnung, Disqualifikation, end or annulment.

    ``recorded_at``: when the entry was typed offline (the phone's queue sends it later); the
    history says both times.

    ``reading`` is the match as the caller read it (:func:`read`, its own copy or the one this
    process shares: it is never changed here); without one, the state kept for the match's
    version. When it is of the version claimed, only the new entry is fed to a fork of its
    engine, before the transaction, and the claim (compare and swap of the version) writes
    the match's cache in the same statement: nothing was written since, so its events are the
    stored ones. Otherwise the version is claimed first and the stored events are replayed."""
    if submission is not None:
        earlier = Event.objects.filter(match=match, submission=submission).first()
        if earlier is not None:
            raise AlreadySaved(earlier)
    entry = {kind: body}
    claimed_from = version if version is not None else match.version
    if reading is None:
        reading = engine_state.peek(match)  # only read: the entry is fed to a fork
    after = _extended(reading, entry, claimed_from)
    if after is not None and after.evaluation.errors:
        after = None  # refused: the claim first (a stale form says so before its rule errors)
    try:
        with transaction.atomic():
            if after is not None:
                before = reading.computed
                _claim_with_cache(match, claimed_from, after, games_from=len(before.games),
                                  sanctions_from=len(before.sanctions))
                position = len(after.events) - 1
            else:
                after = _claimed_and_replayed(match, version, reading, entry)
                position = len(after.events) - 1
                _append_cache(match, after.evaluation)
            event = Event.objects.create(match=match, position=position, kind=kind, data=body,
                                         submission=submission, created_by=_user(user))
            Change.objects.create(match=match, action=Change.Action.ADD, position=position,
                                  after={kind: body}, reason=reason, user=_user(user), recorded_at=recorded_at,
                                  submission=submission, version=match.version)
            engine_state.keep(match, after, written=True, handed_over=True)  # for the page it redirects to
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


def _claimed_and_replayed(match: Match, version: int | None, reading: Reading | None,
                          entry: dict[str, Any]) -> Reading:
    """Claim the version, then the stored events plus ``entry`` replayed (RuleViolation if
    anything breaks a rule): the way of :func:`add_event` without a reading of the version
    claimed."""
    read_at = match.version
    _claim(match, version)
    if match.version != read_at + 1:  # claimed from another version than the object's
        reading = None
        match.game_count = Match.objects.values_list("game_count", flat=True).get(pk=match.pk)
    if reading is not None and reading.version + 1 == match.version:
        events = reading.events
    else:
        events = stored_events(match)
    return _checked(match, events + [entry])


def _claim_with_cache(match: Match, claimed_from: int, after: Reading, *, games_from: int,
                      sanctions_from: int) -> None:
    """Compare and swap the version (:func:`_claim`) and write the match's cache of the
    engine's answer ``after`` in the same statement, then the new entry's cache rows
    (:func:`_append_cache`, whose counts the caller read from the state it fed)."""
    members = after.members
    if members is None:  # a state kept before the members were
        members = after.members = {seat.name: seat.member_id for seat in match.seats.all()}
    cached = {name: getattr(match, name) for name in CACHED_FIELDS}
    score_lines, sanction_lines = cache_rows(match, after.evaluation, members, games_from=games_from,
                                             sanctions_from=sanctions_from)
    now = timezone.now()
    claimed = Match.objects.filter(pk=match.pk, version=claimed_from).update(
        version=claimed_from + 1, updated_at=now, **{name: getattr(match, name) for name in CACHED_FIELDS})
    if not claimed:
        for name, value in cached.items():  # the object stays as it was read
            setattr(match, name, value)
        raise StaleMatch()
    match.version, match.updated_at = claimed_from + 1, now
    ScoreLine.objects.bulk_create(score_lines)
    SanctionLine.objects.bulk_create(sanction_lines)


def correct_event(match: Match, position: int, body: Any, *, user=None, version: int | None = None,
                  reason: str, submission: uuid.UUID | None = None, recorded_at=None) -> Event:
    """Replace an earlier entry; everything after it is derived anew (and must stay valid).

    ``submission``: the one-time id of a correction typed offline (the phone's queue may send it
    twice): a correction already saved under it raises :class:`AlreadySaved`. ``recorded_at``:
    when it was typed offline (the history says both times)."""
    _require_reason(reason)
    check_correction_done(match, submission)
    try:
        with transaction.atomic():
            _claim(match, version)
            event = match.events.get(position=position)
            events = stored_events(match)
            events[position] = {event.kind: body}
            after = _checked(match, events)
            evaluation = after.evaluation
            before = event.as_protocol()
            event.data = body
            event.save(update_fields=["data"])
            Change.objects.create(match=match, action=Change.Action.CORRECT, position=position, before=before,
                                  after=event.as_protocol(), reason=reason, user=_user(user),
                                  submission=submission, recorded_at=recorded_at, version=match.version)
            refresh_cache(match, evaluation)
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
                              before=before, reason=reason, user=_user(user), version=match.version)
        refresh_cache(match, evaluation)
        engine_state.keep(match, after, written=True)


def season_refusals(season, ruleset: str, round=None) -> list[RuleError]:
    """Why a new Partie of ``ruleset`` (a table of ``round``, if any) can't go into ``season``.

    A Partie is in a season of its own game, and a tournament's Partien are only the tables
    of its rounds (league.tournaments.rounds creates them). Every way a Partie comes in (the form,
    a protocol file, a season workbook, a paper protocol transcribed, a round's tables)
    goes through :func:`create_match`, which refuses what this names."""
    errors = []
    if round is not None and (season is None or round.season_id != season.pk):
        errors.append(RuleError(None, None, "season", "Ein Tisch einer Runde gehört in die Saison dieser Runde."))
    if season is None:
        return errors
    if season.ruleset != ruleset:
        errors.append(RuleError(None, None, "season", (
            f"Die Saison „{season.name}“ ist eine Saison für {_game_name(season.ruleset)}; eine Partie "
            f"{_game_name(ruleset)} kann nicht in sie eingetragen werden.")))
    if season.is_tournament and round is None:
        errors.append(RuleError(None, None, "season", (
            f"Die Saison „{season.name}“ ist ein Turnier: ihre Partien sind die Tische ihrer Runden und "
            "entstehen auf der Seite der Runde, nicht einzeln.")))
    return errors


def _game_name(ruleset: str) -> str:
    known = get_ruleset(ruleset)
    return known.name if known is not None else ruleset


def create_match(*, club, date, members: list[Member], scorekeeper: Member, settings: dict[str, Any],
                 season=None, place: str = "", ruleset: str = DEFAULT_RULESET, user=None,
                 events: list[dict] | None = None, action: str = Change.Action.CREATE_MATCH,
                 reason: str = "", seat_names: list[str] | None = None, restore: dict | None = None,
                 round=None, table_number: int | None = None) -> Match:
    """A new Partie with its seating (clockwise) and settings, checked by the rules and
    refused (:class:`RuleViolation`) where :func:`season_refusals` says it does not belong.

    ``round`` and ``table_number``: the table of a tournament round the Partie is.
    ``seat_names`` are the names the protocol uses (default: the members' names).
    ``restore`` (used by ``manage.py restore`` only) carries the original id, timestamps
    and history of a backed-up Partie, which then replace the usual "created" entry; a
    restore puts back what was stored, so the season is not checked then (the check
    ``league.W001`` lists Partien that are in a season of another game).
    """
    names = seat_names or [m.name for m in members]
    if restore is None and (refused := season_refusals(season, ruleset, round)):
        raise RuleViolation(refused)
    with transaction.atomic():
        extra = {"pk": restore["id"]} if restore else {}
        match = Match.objects.create(club=club, season=season, date=date, place=place, ruleset=ruleset,
                                     settings=settings, created_by=_user(user), round=round,
                                     table_number=table_number, **extra)
        Seat.objects.bulk_create([
            Seat(match=match, position=i, member=m, name=name, is_scorekeeper=(m == scorekeeper))
            for i, (m, name) in enumerate(zip(members, names))
        ])
        events = events or []
        after = _checked(match, events)
        evaluation = after.evaluation
        Event.objects.bulk_create([
            Event(match=match, position=i, kind=next(iter(e)), data=next(iter(e.values())), created_by=_user(user))
            for i, e in enumerate(events)
        ])
        if restore is None:
            Change.objects.create(match=match, action=action, after=document(match), reason=reason, user=_user(user))
        refresh_cache(match, evaluation)
        if not events:  # a Partie about to be played: its first page and Spiel need no replay
            engine_state.keep(match, after, written=True)
        return match


def update_settings(match: Match, settings: dict[str, Any], *, user=None, version: int | None = None,
                    reason: str) -> Match:
    """Change the match settings; every Spiel is checked and scored again."""
    _require_reason(reason)
    with transaction.atomic():
        _claim(match, version)
        before = dict(match.settings)
        match.settings = settings
        after = _checked(match, stored_events(match))
        evaluation = after.evaluation
        match.save(update_fields=["settings", "updated_at"])
        Change.objects.create(match=match, action=Change.Action.EDIT_MATCH, before={"settings": before},
                              after={"settings": settings}, reason=reason, user=_user(user), version=match.version)
        refresh_cache(match, evaluation)
        engine_state.keep(match, after, written=True)
        return match


def refresh_cache(match: Match, evaluation: Evaluation) -> None:
    """Rewrite what the league reads from the engine's answer (never typed in).

    Only the rows that differ are written: a Spiel appended at Spiel 40 inserts its own
    lines and leaves the 160 before it alone; a correction replaces what it changed."""
    score_lines, sanction_lines = cache_rows(match, evaluation)
    match.save(update_fields=["status", "winner", "ended_by", "game_count", "finished_at", "version", "updated_at"])
    _sync(ScoreLine, match, score_lines, SCORE_FIELDS)
    _sync(SanctionLine, match, sanction_lines, SANCTION_FIELDS)


def _append_cache(match: Match, evaluation: Evaluation) -> None:
    """The cache after an appended event: the engine replays in order and never changes
    what an earlier event computed, so only the new Spiel's lines (or the new Strafe) are
    written; ``match.game_count`` still counts the Spiele before this event (the cache of
    the version the write was claimed from)."""
    known_games = match.game_count
    known_sanctions = SanctionLine.objects.filter(match=match).count()
    score_lines, sanction_lines = cache_rows(match, evaluation, games_from=known_games,
                                             sanctions_from=known_sanctions)
    match.save(update_fields=["status", "winner", "ended_by", "game_count", "finished_at", "version", "updated_at"])
    ScoreLine.objects.bulk_create(score_lines)
    SanctionLine.objects.bulk_create(sanction_lines)


CACHED_FIELDS = ("status", "winner_id", "ended_by", "game_count", "finished_at")  # what cache_rows sets on the match
SCORE_FIELDS = ("member_id", "game_number", "stage", "score", "total", "annulled", "took_trump_bonus")
SANCTION_FIELDS = ("member_id", "kind", "points", "after_game", "stage", "reason")


def _sync(model, match: Match, wanted: list, fields: tuple[str, ...]) -> None:
    """Make the match's cache rows of ``model`` equal ``wanted``, writing only the difference."""
    missing = Counter(tuple(getattr(row, f) for f in fields) for row in wanted)
    stale = []
    for pk, *values in model.objects.filter(match=match).values_list("pk", *fields):
        key = tuple(values)
        if missing[key] > 0:
            missing[key] -= 1  # stored as it should be: keep it
        else:
            stale.append(pk)
    if stale:
        model.objects.filter(pk__in=stale).delete()
    new_rows = []
    for row in wanted:
        key = tuple(getattr(row, f) for f in fields)
        if missing[key] > 0:
            missing[key] -= 1
            new_rows.append(row)
    if new_rows:
        model.objects.bulk_create(new_rows)


def cache_rows(match: Match, evaluation: Evaluation, members: dict[str, int] | None = None,
               games_from: int = 0, sanctions_from: int = 0) -> tuple[list[ScoreLine], list[SanctionLine]]:
    """The cache of the engine's answer, unsaved: sets ``match.status``, ``winner``,
    ``ended_by``, ``game_count`` and ``finished_at`` (not saved) and returns its ScoreLine and SanctionLine
    rows (those after the first ``games_from`` Spiele and ``sanctions_from`` Strafen).
    ``members`` (seat name -> member id) spares the query for the seats; the bulk
    generator (``generate_history``) passes it and saves the rows itself."""
    computed = evaluation.match
    if members is None:
        members = {seat.name: seat.member_id for seat in match.seats.all()}
    match.status = computed.status
    match.winner_id = members.get(computed.winner) if computed.winner else None
    match.ended_by = computed.ended_by or ""
    match.game_count = len(computed.games)
    # The moment it finished (the correction window runs from it): kept while it stays finished,
    # gone when a correction makes it run again.
    finished = computed.status == Match.Status.FINISHED
    match.finished_at = (match.finished_at or timezone.now()) if finished else None
    score_lines = [
        ScoreLine(match=match, member_id=members[player], game_number=game.number,
                  stage=game.stage, score=points, total=game.totals[player],
                  annulled=game.annulled, took_trump_bonus=game.took_trump_bonus(player))
        for game in computed.games[games_from:] if game.points
        for player, points in game.points.items()
    ]
    sanction_lines = [
        SanctionLine(match=match, member_id=members[s.player], kind=s.kind, points=s.points,
                     after_game=s.after_game, stage=s.stage, reason=s.reason)
        for s in computed.sanctions[sanctions_from:]
    ]
    return score_lines, sanction_lines


def _require_reason(reason: str) -> None:
    if not reason or not reason.strip():
        raise RuleViolation([RuleError(None, None, "reason", "Für eine Korrektur ist ein Grund anzugeben; er bleibt in der Geschichte der Partie.")])
    if problem := reason_problem(reason):  # the one text boundary, also for a phone's JSON
        raise RuleViolation([RuleError(None, None, "reason", problem)])


def _user(user):
    return user if user is not None and getattr(user, "is_authenticated", False) else None
