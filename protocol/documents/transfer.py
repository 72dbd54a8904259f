"""Moving a Partie in and out of the site as a ``protocol/1`` file (protocol-format.md).

Plain data in, plain data out, no HTTP: the commands ``import_protocol`` and
``export_protocol`` and an upload page wrap these functions.

An import is checked whole before anything is written: the rules engine's errors and the
importer's own (club, season, date) are collected together and refused together with
:class:`ImportRefused`. Only a document without any error is saved, through
``matches.create_match`` and in one transaction with the members it brings along:
a player name that no member of the club has becomes a new member (not a guest).

``export_document(import_document(f).match)`` gives back f's facts: club, season, date,
place, players, scorekeeper, the settings as written (partial stays partial) and the
events as written.
"""

from __future__ import annotations

import copy
import datetime
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import timezone

from league.models import Club, Member, Season
from league.registry import versions
from league.registry.texts import lookalike_member
from protocol import matches, reading, recording
from protocol.models import Change, Match
from protocol.rules import RuleError, evaluate, text
from protocol.rules.files import UnreadableProtocol, dumps, parse_document

IMPORT_REASON = "Import aus Datei"
PLACE_MAX = Match._meta.get_field("place").max_length


class ImportRefused(Exception):
    """The document can't be imported; ``errors`` lists every RuleError found. Nothing is saved."""

    def __init__(self, errors: list[RuleError]):
        super().__init__("; ".join(e.message for e in errors))
        self.errors = errors


@dataclass
class Imported:
    """The saved Partie and the members the import had to create for it."""

    match: Match
    created_members: list[Member] = field(default_factory=list)


# -- export -------------------------------------------------------------------------------

def export_document(match: Match) -> dict[str, Any]:
    """The stored Partie as a ``protocol/1`` document (the keys in the order of the format)."""
    return reading.document(match)


def export_bytes(match: Match) -> bytes:
    """The ``protocol/1`` file of a stored Partie: UTF-8 JSON, indented, ending in a newline."""
    return (dumps(export_document(match)) + "\n").encode("utf-8")


# -- import -------------------------------------------------------------------------------

def import_bytes(raw: bytes, *, name: str = "Die Datei", **kw) -> Imported:
    """Read the bytes of a ``protocol/1`` file and import it (see :func:`import_document`).

    A file that is not UTF-8 JSON is refused like a document that breaks a rule, with one
    error for the document as a whole. ``name`` is how the message calls the file.
    """
    try:
        doc = parse_document(raw, name)
    except UnreadableProtocol as exc:
        raise ImportRefused([RuleError(None, None, None, str(exc))]) from exc
    return import_document(doc, **kw)


def import_document(doc: Any, *, club: Club, season: Season | None = None, user=None,
                    action: str = Change.Action.IMPORT_MATCH, reason: str = IMPORT_REASON) -> Imported:
    """Check the whole document, then save it as a new Partie of ``club`` (or refuse it all).

    ``action`` and ``reason`` go into the history entry of the new Partie (a file's import,
    or a paper protocol transcribed by the secretary).

    ``season``: the season chosen for the Partie. Without it the season the document names
    is looked up in the club; if the document names none, the club's league season of the
    game and the date (``Season.current_for``), or none at all. A season of another game
    or a tournament's (``matches.season_refusals``) is refused.

    Raises :class:`ImportRefused` with every error found; then nothing is saved.
    """
    doc = copy.deepcopy(doc)  # what is saved can't change under the caller's hands, nor theirs
    season, errors = _season(doc, club, season)
    errors += _header_errors(doc, club, season)
    if season is not None and isinstance(doc.get("ruleset"), str):  # else the engine's error
        errors += matches.season_refusals(season, doc["ruleset"])
    errors += evaluate(doc).errors
    if errors:
        raise ImportRefused(errors)

    date = datetime.date.fromisoformat(doc["date"])
    if season is None:  # the document names none (a named one is found, or refused above)
        season = Season.current_for(club, date, game=doc["ruleset"])
    try:
        with transaction.atomic():
            members, created = _members(club, doc["players"])
            match = matches.create_match(
                club=club, season=season, date=date, place=doc.get("place", ""),
                members=[members[name] for name in doc["players"]],
                scorekeeper=members[doc["scorekeeper"]],
                settings=doc.get("settings") or {}, ruleset=doc["ruleset"], user=user,
                events=doc.get("events", []), action=action, reason=reason)
            finished_on_its_date(match)
    except recording.RuleViolation as exc:  # checked above, so only if the engine disagrees with itself
        raise ImportRefused(exc.errors) from exc
    return Imported(match, created)


def finished_on_its_date(match: Match) -> None:
    """A Partie that comes in finished finished on its own date at the latest: its correction
    window (league.registry.correction_window) runs from the end of that day, or from now for
    tonight's, never from the import of an old one (a season's workbook is not provisional)."""
    if match.finished_at is None:
        return
    end_of_day = timezone.make_aware(datetime.datetime.combine(match.date + datetime.timedelta(days=1),
                                                               datetime.time.min))
    if end_of_day < match.finished_at:
        match.finished_at = end_of_day
        Match.objects.filter(pk=match.pk).update(finished_at=end_of_day)
        versions.touch_club(match.club_id)


def _error(field: str, message: str) -> RuleError:
    return RuleError(None, None, field, message)


def _season(doc: Any, club: Club, chosen: Season | None) -> tuple[Season | None, list[RuleError]]:
    """The season the Partie goes into (chosen, or named by the document) and what doesn't fit."""
    named = doc.get("season") if isinstance(doc, dict) else None
    # anything else (not a text, or one the text boundary refuses): the engine's error
    named = named if isinstance(named, str) and named and not text.name_problem(named) else None
    if chosen is not None:
        if chosen.club_id != club.pk:
            return None, [_error("season", f"Die Saison „{chosen.name}“ gehört nicht zum Verein „{club.name}“.")]
        if named is not None and named != chosen.name:
            return chosen, [_error("season", f"Das Protokoll nennt die Saison „{named}“, eingetragen werden "
                                             f"soll es aber in die Saison „{chosen.name}“.")]
        return chosen, []
    if named is None:
        return None, []
    found = Season.objects.filter(club=club, name=named).first()
    if found is None:
        return None, [_error("season", f"Der Verein „{club.name}“ hat keine Saison „{named}“.")]
    return found, []


def _header_errors(doc: Any, club: Club, season: Season | None) -> list[RuleError]:
    """What the document says about club, date and place that doesn't fit where it goes."""
    if not isinstance(doc, dict):
        return []  # the rules engine says so
    errors = []
    named_club = doc.get("club")
    if isinstance(named_club, str) and named_club and named_club != club.name:
        errors.append(_error("club", f"Das Protokoll gehört zum Verein „{named_club}“, nicht zu „{club.name}“; "
                                     "es kann nur in seinen eigenen Verein eingetragen werden."))
    if doc.get("date") is None:
        errors.append(_error("date", "Das Datum der Partie fehlt; ohne Datum kann sie nicht eingetragen werden."))
    date = _date(doc.get("date"))
    if date is not None and season is not None and not season.start <= date <= season.end:
        errors.append(_error("date", f"Die Partie vom {date:%d.%m.%Y} liegt nicht in der Saison „{season.name}“ "
                                     f"({season.start:%d.%m.%Y} bis {season.end:%d.%m.%Y})."))
    place = doc.get("place")
    if isinstance(place, str) and len(place) > PLACE_MAX:
        errors.append(_error("place", f"Der Ort hat höchstens {PLACE_MAX} Zeichen."))
    players = doc.get("players")
    if isinstance(players, list) and all(isinstance(p, str) for p in players):
        errors += _lookalike_errors(club, players)
    return errors


def _lookalike_errors(club: Club, names: list[str]) -> list[RuleError]:
    """A name the club has no member of would become a new member: not when it differs from
    a member's only by case or lookalike letters ("bernd" for Bernd; protocol.rules.text.fold)."""
    names = [name for name in names if not text.name_problem(name)]  # the others are the engine's error
    known = set(Member.objects.filter(club=club, name__in=names).values_list("name", flat=True))
    errors = []
    for name in names:
        if name not in known and (member := lookalike_member(club, name)) is not None:
            errors.append(_error("players", f"Der Verein hat ein Mitglied „{member.name}“; „{name}“ ist davon kaum "
                                            "zu unterscheiden. Bitte den Namen des Mitglieds genau so schreiben "
                                            "oder einen klar anderen Namen wählen."))
    return errors


def _date(value: Any) -> datetime.date | None:
    """The document's date if it is one (a malformed date is the rules engine's error)."""
    if not isinstance(value, str) or len(value) != 10:
        return None
    try:
        return datetime.date.fromisoformat(value)
    except ValueError:
        return None


def _members(club: Club, names: list[str]) -> tuple[dict[str, Member], list[Member]]:
    """The club's member of each name (inactive ones too), creating those it has not."""
    members = {m.name: m for m in Member.objects.filter(club=club, name__in=names)}
    created = []
    for name in names:
        if name not in members:
            members[name], new = Member.objects.get_or_create(club=club, name=name)
            if new:
                created.append(members[name])
    return members, created
