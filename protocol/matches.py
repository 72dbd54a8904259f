"""A Partie as a whole: a new one, with its seating and settings, and where it may go.

Every way a Partie comes in (the form, a protocol file, a season workbook, a paper protocol
transcribed, a round's tables, a restore) goes through :func:`create_match`; its first record
is the recording door's (protocol.recording.record_new), as every later one.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from league.models import Member
from protocol import recording
from protocol.models import Change, Match, Seat
from protocol.recording import RuleViolation
from protocol.rules import DEFAULT as DEFAULT_RULESET
from protocol.rules import RuleError, get_ruleset


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
                                     settings=settings, created_by=recording.user_or_none(user), round=round,
                                     table_number=table_number, **extra)
        Seat.objects.bulk_create([
            Seat(match=match, position=i, member=m, name=name, is_scorekeeper=(m == scorekeeper))
            for i, (m, name) in enumerate(zip(members, names))
        ])
        recording.record_new(match, events or [], user=user, action=action, reason=reason, restore=restore)
        return match
