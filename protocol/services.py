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
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F

from league.models import Member
from protocol.models import Change, Event, Match, SanctionLine, ScoreLine, Seat
from protocol.rules import Evaluation, RuleError, evaluate
from protocol.protocol_file import in_format_order
from protocol.rules.envelope import FORMAT


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

    def __init__(self, event: Event):
        super().__init__("already saved")
        self.event = event


# -- reading ------------------------------------------------------------------------------

def document(match: Match, events: list[dict] | None = None) -> dict[str, Any]:
    """The match as a ``protocol/1`` document (what export writes and the engine reads)."""
    seats = list(match.seats.all())
    doc: dict[str, Any] = {"format": FORMAT, "ruleset": match.ruleset, "club": match.club.name}
    if match.season_id:
        doc["season"] = match.season.name
    doc["date"] = match.date.isoformat()
    if match.place:
        doc["place"] = match.place
    doc["players"] = [seat.name for seat in seats]
    scorekeeper = next((seat.name for seat in seats if seat.is_scorekeeper), None)
    doc["scorekeeper"] = scorekeeper
    doc["settings"] = in_format_order(dict(match.settings))
    if events is None:
        events = [in_format_order(event.as_protocol(), doc["players"]) for event in match.events.all()]
    doc["events"] = events
    return doc


def evaluate_match(match: Match) -> Evaluation:
    return evaluate(document(match))


def preview(match: Match, kind: str, body: Any, position: int | None = None) -> tuple[Evaluation, int]:
    """What the engine says if this entry were saved (appended, or replacing ``position``)."""
    events = [event.as_protocol() for event in match.events.all()]
    if position is None:
        position = len(events)
        events.append({kind: body})
    else:
        events[position] = {kind: body}
    return evaluate(document(match, events)), position


# -- writing ------------------------------------------------------------------------------

def _claim(match: Match, version: int | None) -> None:
    """Compare and swap the version: exactly one of two racing writes gets through."""
    current = version if version is not None else match.version
    claimed = Match.objects.filter(pk=match.pk, version=current).update(version=F("version") + 1)
    if not claimed:
        raise StaleMatch()
    match.version = current + 1


def _check(doc: dict[str, Any]) -> Evaluation:
    evaluation = evaluate(doc)
    if evaluation.errors:
        raise RuleViolation(evaluation.errors)
    return evaluation


def add_event(match: Match, kind: str, body: Any, *, user=None, version: int | None = None,
              submission: uuid.UUID | None = None, reason: str = "") -> Event:
    """Append a Spiel, Strafe, Verwarnung, Disqualifikation, end or annulment."""
    if submission is not None:
        earlier = Event.objects.filter(match=match, submission=submission).first()
        if earlier is not None:
            raise AlreadySaved(earlier)
    try:
        with transaction.atomic():
            _claim(match, version)
            events = [event.as_protocol() for event in match.events.all()]
            position = len(events)
            evaluation = _check(document(match, events + [{kind: body}]))
            event = Event.objects.create(match=match, position=position, kind=kind, data=body,
                                         submission=submission, created_by=_user(user))
            Change.objects.create(match=match, action=Change.Action.ADD, position=position,
                                  after={kind: body}, reason=reason, user=_user(user))
            refresh_cache(match, evaluation)
            return event
    except IntegrityError:
        # Two racing submits of the same form: the other one won, and it was this entry.
        if submission is not None:
            earlier = Event.objects.filter(match=match, submission=submission).first()
            if earlier is not None:
                raise AlreadySaved(earlier) from None
        raise StaleMatch() from None


def correct_event(match: Match, position: int, body: Any, *, user=None, version: int | None = None,
                  reason: str) -> Event:
    """Replace an earlier entry; everything after it is derived anew (and must stay valid)."""
    _require_reason(reason)
    with transaction.atomic():
        _claim(match, version)
        event = match.events.get(position=position)
        events = [e.as_protocol() for e in match.events.all()]
        events[position] = {event.kind: body}
        evaluation = _check(document(match, events))
        before = event.as_protocol()
        event.data = body
        event.save(update_fields=["data"])
        Change.objects.create(match=match, action=Change.Action.CORRECT, position=position,
                              before=before, after=event.as_protocol(), reason=reason, user=_user(user))
        refresh_cache(match, evaluation)
        return event


def remove_event(match: Match, position: int, *, user=None, version: int | None = None, reason: str) -> None:
    """Take back an entry recorded in error (kept in the history with its reason)."""
    _require_reason(reason)
    with transaction.atomic():
        _claim(match, version)
        events = list(match.events.all())
        target = events[position]
        remaining = [e.as_protocol() for e in events if e.position != position]
        evaluation = _check(document(match, remaining))
        before = target.as_protocol()
        target.delete()
        for e in events[position + 1:]:  # close the gap, in order, keeping positions unique
            Event.objects.filter(pk=e.pk).update(position=e.position - 1)
        Change.objects.create(match=match, action=Change.Action.REMOVE, position=position,
                              before=before, reason=reason, user=_user(user))
        refresh_cache(match, evaluation)


def create_match(*, club, date, members: list[Member], scorekeeper: Member, settings: dict[str, Any],
                 season=None, place: str = "", ruleset: str = "chaotentrumpf", user=None,
                 events: list[dict] | None = None, action: str = Change.Action.CREATE_MATCH,
                 reason: str = "", seat_names: list[str] | None = None, restore: dict | None = None) -> Match:
    """A new Partie with its seating (clockwise) and settings, checked by the rules.

    ``seat_names`` are the names the protocol uses (default: the members' names).
    ``restore`` (used by ``manage.py restore`` only) carries the original id, timestamps
    and history of a backed-up Partie, which then replace the usual "created" entry.
    """
    names = seat_names or [m.name for m in members]
    with transaction.atomic():
        extra = {"pk": restore["id"]} if restore else {}
        match = Match.objects.create(club=club, season=season, date=date, place=place, ruleset=ruleset,
                                     settings=settings, created_by=_user(user), **extra)
        Seat.objects.bulk_create([
            Seat(match=match, position=i, member=m, name=name, is_scorekeeper=(m == scorekeeper))
            for i, (m, name) in enumerate(zip(members, names))
        ])
        events = events or []
        evaluation = _check(document(match, events))
        Event.objects.bulk_create([
            Event(match=match, position=i, kind=next(iter(e)), data=next(iter(e.values())), created_by=_user(user))
            for i, e in enumerate(events)
        ])
        if restore is None:
            Change.objects.create(match=match, action=action, after=document(match), reason=reason, user=_user(user))
        refresh_cache(match, evaluation)
        return match


def update_settings(match: Match, settings: dict[str, Any], *, user=None, version: int | None = None,
                    reason: str) -> Match:
    """Change the match settings; every Spiel is checked and scored again."""
    _require_reason(reason)
    with transaction.atomic():
        _claim(match, version)
        before = dict(match.settings)
        match.settings = settings
        evaluation = _check(document(match))
        match.save(update_fields=["settings", "updated_at"])
        Change.objects.create(match=match, action=Change.Action.EDIT_MATCH, before={"settings": before},
                              after={"settings": settings}, reason=reason, user=_user(user))
        refresh_cache(match, evaluation)
        return match


def refresh_cache(match: Match, evaluation: Evaluation) -> None:
    """Rewrite what the league reads from the engine's answer (never typed in)."""
    score_lines, sanction_lines = cache_rows(match, evaluation)
    match.save(update_fields=["status", "winner", "ended_by", "game_count", "version", "updated_at"])
    ScoreLine.objects.filter(match=match).delete()
    ScoreLine.objects.bulk_create(score_lines)
    SanctionLine.objects.filter(match=match).delete()
    SanctionLine.objects.bulk_create(sanction_lines)


def cache_rows(match: Match, evaluation: Evaluation, members: dict[str, int] | None = None
               ) -> tuple[list[ScoreLine], list[SanctionLine]]:
    """The cache of the engine's answer, unsaved: sets ``match.status``, ``winner``,
    ``ended_by`` and ``game_count`` (not saved) and returns its ScoreLine and SanctionLine
    rows. ``members`` (seat name -> member id) spares the query for the seats; the bulk
    generator (``generate_history``) passes it and saves the rows itself."""
    computed = evaluation.match
    if members is None:
        members = {seat.name: seat.member_id for seat in match.seats.all()}
    match.status = computed.status
    match.winner_id = members.get(computed.winner) if computed.winner else None
    match.ended_by = computed.ended_by or ""
    match.game_count = len(computed.games)
    score_lines = [
        ScoreLine(match=match, member_id=members[player], game_number=game.number, stage=game.stage,
                  score=score.points, total=game.totals[player], annulled=game.annulled,
                  took_trump_bonus=score.trump_bonus)
        for game in computed.games if game.scores
        for player, score in game.scores.items()
    ]
    sanction_lines = [
        SanctionLine(match=match, member_id=members[s.player], kind=s.kind, points=s.points,
                     after_game=s.after_game, stage=s.stage, reason=s.reason)
        for s in computed.sanctions
    ]
    return score_lines, sanction_lines


def _require_reason(reason: str) -> None:
    if not reason or not reason.strip():
        raise RuleViolation([RuleError(None, None, "reason", "Für eine Korrektur ist ein Grund anzugeben; er bleibt in der Geschichte der Partie.")])


def _user(user):
    return user if user is not None and getattr(user, "is_authenticated", False) else None
