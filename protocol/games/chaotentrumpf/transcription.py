"""Protokoll nachtragen: a finished paper protocol typed into one grid, checked row by row by
the rules engine, saved in one go.

The page sends the *sheet*: the header fields and every grid cell exactly as typed::

    {"token": "<uuid of this transcription>",
     "header": {"date": "2026-11-20", "place": "Nürtingen", "season": "", "players": "Anna, Bernd, Carla, Dieter",
                "scorekeeper": "2", "limit": "1000", ...the other match settings...},
     "rows": [{"entry": "P", "inversions": "", "lines": [["3", "56", "2"], ["4", "40", "1"], ...]},
              {"entry": "", "inversions": "", "lines": [], "scores": ["71", "40", "-70", "-200"]}, ...]}

(``lines`` by seat, each Stiche, Augen, Trümpfe; a row typed as points only has ``scores``
by seat instead, see :mod:`protocol.games.chaotentrumpf.transcribed_rows`). :func:`check` reads it with the shorthand
of :mod:`protocol.games.chaotentrumpf.notation`, feeds the events one by one into the match engine and answers
per row: its errors (at their cell, German, naming the article), the Spiel number, Mischer,
stage and players, scores and running totals, and whether it opens a Stechen; then the
Partie as it stands and what the next row is (its players, its Mischer). Rows are checked in
order: the first row that is incomplete or can't be read holds up the ones after it.

:func:`save` stores the Partie only when the whole sheet is valid, through the importer
(:func:`protocol.documents.transfer.import_document`), with the note "Nachgetragen ... von ... am ..." in
its history. Nothing here knows a rule of the game: every check is the engine's.
"""

from __future__ import annotations

import datetime
import uuid
from dataclasses import dataclass, field
from typing import Any

from django import forms
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from league.models import Club, Season
from league.registry.fields import PlausibleDateField
from league.registry.texts import NameField
from protocol.documents import transfer
from protocol.forms.match import league_seasons
from protocol.games.chaotentrumpf.forms import SETTING_FIELDS, SettingsFields
from protocol.games.chaotentrumpf.notation import NotationError, read_player
from protocol.games.chaotentrumpf.plugin import PLUGIN
from protocol.games.chaotentrumpf.presentation import stechen_text
from protocol.games.chaotentrumpf.rules import RULESET, points_only
from protocol.games.chaotentrumpf.rules.settings import MAX_PLAYERS
from protocol.games.chaotentrumpf.transcribed_rows import cell_of, error, event_of, is_empty, is_points_row
from protocol.models import Change, Event, Match
from protocol.rules import RuleError
from protocol.rules.envelope import FORMAT
from protocol.rules.files import UnreadableProtocol, parse_json
from protocol.rules.scores import SCORES
from protocol.rules.vocabulary import ENTRY_WORDS
from protocol.rules.words import Text, translated
from protocol.sheet.rows import Row

HEADER_FIELDS = ("date", "place", "season", "players", "scorekeeper", *SETTING_FIELDS)
MAX_ROWS = 400  # a long evening has 60 Spiele; a sheet of more is no paper protocol
MAX_CELL = 300  # characters in one cell (a reason is the longest)
MAX_LINES = 3 * MAX_PLAYERS  # lines per row: more than can play, so that the engine names too many players
PLACE_MAX = Match._meta.get_field("place").max_length


class SheetUnreadable(Exception):
    """The request is no sheet at all (not JSON, wrong shape). The message is German."""


class Refused(Exception):
    """The sheet is not (yet) a valid Partie; ``answer`` is the check's answer saying why."""

    def __init__(self, answer: dict[str, Any]):
        super().__init__(answer.get("problem", ""))
        self.answer = answer


@dataclass
class Saved:
    match: Match
    created_members: list = field(default_factory=list)
    again: bool = False  # the same transcription had been saved before (a double submit)


# -- reading the request -------------------------------------------------------------------

def read_sheet(raw: bytes) -> dict[str, Any]:
    """The sheet from the request body, its shape checked (every cell a string); else SheetUnreadable."""
    try:
        data = parse_json(raw, "Die Abschrift")  # every text in NFC
    except UnreadableProtocol:
        raise SheetUnreadable("Die Abschrift kam nicht als lesbares JSON an; bitte die Seite neu laden "
                              "(die Eingaben bleiben in diesem Browser erhalten).") from None
    if not isinstance(data, dict) or not isinstance(data.get("header"), dict) or not isinstance(data.get("rows"), list):
        raise SheetUnreadable("Die Abschrift braucht einen Kopf („header“) und Zeilen („rows“).")
    header = {}
    for key in HEADER_FIELDS:
        value = data["header"].get(key, "")
        if isinstance(value, bool):
            value = "on" if value else ""
        if not isinstance(value, str) or len(value) > 800:
            raise SheetUnreadable(f"Das Kopffeld „{key}“ muss ein kurzer Text sein.")
        header[key] = value
    if len(data["rows"]) > MAX_ROWS:
        raise SheetUnreadable(f"Eine Abschrift hat höchstens {MAX_ROWS} Zeilen.")
    rows = [_read_row(row, n) for n, row in enumerate(data["rows"], start=1)]
    token = data.get("token")
    return {"token": token if isinstance(token, str) else "", "header": header, "rows": rows}


def _read_row(row: Any, n: int) -> dict[str, Any]:
    bad = SheetUnreadable(f"Zeile {n} der Abschrift ist unlesbar: erwartet werden Texte für Eintrag, "
                          "Inversionen und je Spieler Stiche, Augen, Trümpfe oder nur seine Punkte.")
    if not isinstance(row, dict):
        raise bad
    entry, inversions, lines = row.get("entry", ""), row.get("inversions", ""), row.get("lines", [])
    scores = row.get(SCORES)
    if not (isinstance(entry, str) and isinstance(inversions, str) and isinstance(lines, list)):
        raise bad
    if len(entry) > MAX_CELL or len(inversions) > MAX_CELL or len(lines) > MAX_LINES:
        raise bad
    if scores is not None and not (isinstance(scores, list) and len(scores) <= MAX_LINES
                                   and all(isinstance(c, str) and len(c) <= 12 for c in scores)):
        raise bad
    cells = []
    for line in lines:
        if not isinstance(line, list) or len(line) > 3 or not all(isinstance(c, str) and len(c) <= 12 for c in line):
            raise bad
        cells.append(list(line) + [""] * (3 - len(line)))
    return {"entry": entry, "inversions": inversions, "lines": cells, SCORES: scores}


# -- the header ----------------------------------------------------------------------------

class HeaderForm(SettingsFields):
    """The head of the paper protocol: when, where, who in which seat, and the settings."""

    date = PlausibleDateField(label=_("Date"))
    place = NameField(label=_("Place"), required=False, max_length=PLACE_MAX)
    season = forms.ModelChoiceField(label=_("Season"), queryset=Season.objects.none(), required=False,
                                    help_text=_("Empty: the season of the date."))
    players = forms.CharField(
        label=_("Players, clockwise"), max_length=800,
        help_text=_("Separated by commas, in their seating order. A name the club does not know yet "
                    "becomes a new member when the match is saved."),
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false"}))
    scorekeeper = forms.CharField(
        label=_("Scorekeeper (Protokollant)"), required=False, max_length=80,
        help_text=_("Seat number or name; empty: the first player. The player on his left shuffles first (Art. 5b)."),
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false"}))

    field_order = ["date", "place", "season", "limit", "players", "scorekeeper"]

    def __init__(self, *args, club: Club, **kwargs):
        super().__init__(*args, **kwargs)
        self.club = club
        league_seasons(self.fields["season"], club, RULESET.key)

    def clean_players(self) -> list[str]:
        """The names in seating order, written as the club writes them (anna -> Anna)."""
        known = {m.name.casefold(): m.name for m in self.club.members.all()}
        names = [n.strip() for n in self.cleaned_data["players"].replace(";", ",").split(",")]
        return [known.get(n.casefold(), n) for n in names if n]

    def clean(self):
        data = super().clean()
        date, season = data.get("date"), data.get("season")
        if date and season and not season.start <= date <= season.end:
            self.add_error("date", _("The match of %(date)s is not in the season %(season)s (%(start)s to %(end)s).") % {
                "date": f"{date:%d.%m.%Y}", "season": season.name,
                "start": f"{season.start:%d.%m.%Y}", "end": f"{season.end:%d.%m.%Y}"})
        return data


@dataclass
class _Header:
    form: HeaderForm
    players: list[str]
    errors: dict[str, list[str]]
    doc: dict[str, Any] | None = None
    season: Season | None = None
    scorekeeper: str = ""


def _read_header(data: dict[str, str], club: Club) -> _Header:
    form = HeaderForm(data, club=club)
    valid = form.is_valid()
    errors: dict[str, list[str]] = {name: [str(m) for m in messages] for name, messages in form.errors.items()}
    players = form.cleaned_data.get("players") or []
    header = _Header(form, players, errors)
    scorekeeper = players[0] if players else ""
    if players and data.get("scorekeeper", "").strip():
        try:
            scorekeeper = read_player(data["scorekeeper"], players)
        except NotationError as exc:
            errors.setdefault("scorekeeper", []).append(exc.message)
    if not valid or "scorekeeper" in errors:
        return header
    header.scorekeeper = scorekeeper
    header.season = form.cleaned_data.get("season") or Season.current_for(club, form.cleaned_data["date"], game=RULESET.key)
    doc: dict[str, Any] = {"format": FORMAT, "ruleset": RULESET.key, "club": club.name,
                           "date": form.cleaned_data["date"].isoformat()}
    if form.cleaned_data.get("place"):
        doc["place"] = form.cleaned_data["place"]
    doc |= {"players": players, "scorekeeper": scorekeeper, "settings": form.settings(len(players)), "events": []}
    header.doc = doc
    return header


def _header_answer(header: _Header, club: Club) -> dict[str, Any]:
    known = set(club.members.values_list("name", flat=True))
    return {
        "players": header.players,
        "scorekeeper": header.scorekeeper,
        "season": header.season.name if header.season else "",
        "new_members": [p for p in header.players if p not in known],
        "errors": header.errors,
    }


def _header_field(error: RuleError) -> str:
    name = (error.field or "").removeprefix("settings.")
    return name if name in HEADER_FIELDS else "__all__"


# -- checking the rows ---------------------------------------------------------------------

@dataclass
class Transcript:
    """The sheet read and checked: the ``answer`` for the page, the document if it is valid."""

    answer: dict[str, Any]
    doc: dict[str, Any] | None = None
    season: Season | None = None
    row_of_event: list[int] = field(default_factory=list)

    @property
    def ready(self) -> bool:
        return bool(self.answer.get("ready"))


def check(sheet: dict[str, Any], *, club: Club) -> dict[str, Any]:
    """The answer for the page (see the module's docstring). Writes nothing."""
    return transcribe(sheet, club=club).answer


def transcribe(sheet: dict[str, Any], *, club: Club) -> Transcript:
    header = _read_header(sheet["header"], club)
    rows = sheet["rows"]
    answer: dict[str, Any] = {"header": None, "rows": [], "status": None, "winner": None, "ended_by": "",
                              "next": None, "stages": [], "ready": False, "problem": ""}
    feeder = None
    if header.doc is not None:
        feeder, problems = RULESET.start(header.doc)
        for error in problems.errors:
            header.errors.setdefault(_header_field(error), []).append(error.message)
        problems.errors.clear()
    answer["header"] = _header_answer(header, club)
    if feeder is None:
        answer["rows"] = [_unchecked(row, i, header.players) for i, row in enumerate(rows)]
        answer["problem"] = _header_problem(header)
        return Transcript(in_language(answer))
    return _check_rows(rows, header, feeder, problems, answer)


def _header_problem(header: _Header) -> str:
    """The first wrong field of the head; fields not yet filled in are named as missing, not as
    errors (an untouched page is not wrong, only empty)."""
    codes = header.form.errors.as_data()
    missing = [name for name, errors in codes.items() if all(e.code == "required" for e in errors)]
    for name, messages in header.errors.items():
        if name in missing:
            continue
        field = header.form.fields.get(name)
        if field:
            return gettext("In the head of the protocol, %(field)s: %(message)s") % {
                "field": field.label, "message": translated(messages[0])}
        return gettext("In the head of the protocol: %(message)s") % {"message": translated(messages[0])}
    if missing:
        labels = [str(header.form.fields[name].label) for name in missing if name in header.form.fields]
        return gettext("The head of the protocol still lacks: %(fields)s.") % {"fields": ", ".join(labels)}
    return gettext("The head of the protocol still lacks the date or the players.")


def _unchecked(row: dict[str, Any], i: int, players: list[str]) -> dict[str, Any]:
    """A row the engine can't check yet (the header or an earlier row holds it up): only
    what the shorthand says about it."""
    answer = {"row": i, "state": "empty" if is_empty(row) else "waiting", "errors": []}
    if answer["state"] == "waiting" and players:
        _, errors, _ = event_of(row, players, players, [])
        answer["errors"] = errors
        answer["state"] = "error" if errors else "waiting"
    return answer


def _check_rows(rows, header: _Header, feeder, problems, answer) -> Transcript:
    players, events = header.players, header.doc["events"]
    row_of_event: list[int] = []
    held_by: int | None = None  # the first row that is incomplete or can't be read
    engine_errors = False
    for i, row in enumerate(rows):
        if held_by is not None or is_empty(row):
            answer["rows"].append(_unchecked(row, i, players))
            continue
        before = feeder.finish()
        stage = before.current_stage
        playing = before.next_players if stage else [p for p in players if p not in before.disqualified]
        result = {"row": i, "state": "ok", "errors": [], "stage": stage.depth if stage else before.stages[-1].depth,
                  "players": playing, "shuffler": before.next_shuffler, "number": len(before.games) + 1}
        answer["rows"].append(result)
        event, errors, complete = event_of(row, players, playing, before.disqualified)
        result["kind"] = next(iter(event)) if event else None
        if errors or not complete:
            result["errors"] = errors
            result["state"] = "error" if errors else "incomplete"
            held_by = i
            continue
        index = len(events)
        events.append(event)  # the envelope reads the same list: the sheet's rows see it
        row_of_event.append(i)
        seen = len(problems.errors)
        status_before = before.status
        feeder.feed(event)
        mine = problems.errors[seen:]
        points = is_points_row(row)
        result["errors"] = [error(cell_of(e, result["kind"], players, points), e.player, e.message) for e in mine]
        result["state"] = "error" if mine else "ok"
        engine_errors |= bool(mine)
        _describe(result, index, feeder.match, status_before)
    final = feeder.finish()
    _readings(answer["rows"], row_of_event, final)
    answer.update(_standing(final, held_by))
    ready = held_by is None and not engine_errors and bool(events)
    answer["ready"] = ready
    first = next((r for r in answer["rows"] if r["state"] in ("error", "incomplete")), None)
    if first is not None:  # the first row that isn't right yet
        answer["problem"] = (f"{_row_name(first)}: {translated(first['errors'][0]['message'])}" if first["errors"]
                             else gettext("%(row)s is not complete yet.") % {"row": _row_name(first)})
    elif not events:
        answer["problem"] = gettext("No row has been entered yet.")
    return Transcript(in_language(answer), header.doc if ready else None, header.season, row_of_event)


def _describe(result: dict[str, Any], index: int, match, status_before: str) -> None:
    """What the engine made of the row's event: scores, totals, the Stechen it opens, the win."""
    game = next((g for g in match.games if g.event == index), None)
    if game is not None:
        result.update(number=game.number, stage=game.stage, shuffler=game.shuffler, annulled=game.annulled,
                      totals=dict(game.totals))
        if game.points_only:  # the page marks the row: its Stiche, Augen, Trümpfe were not checked
            result["points_only"] = True
        if game.scores:
            result["scores"] = {p: s.points for p, s in game.scores.items()}
            result["explanations"] = {p: s.explanation for p, s in game.scores.items()}
    else:
        result.pop("number", None)
        result.pop("shuffler", None)
    sanction = next((s for s in match.sanctions if s.event == index), None)
    if sanction is not None:
        result["stage"] = sanction.stage
        if sanction.points:
            result["scores"] = {sanction.player: -sanction.points}
        result["totals"] = dict(match.stages[sanction.stage].totals)
    opened = next((s for s in match.stages if s.opened_by_event == index), None)
    if opened is not None:
        result["opens"] = {"stage": opened.depth, "players": list(opened.players), "limit": opened.limit}
    if match.status in ("finished", "annulled") and status_before != match.status:
        result["decides"] = {"status": match.status, "winner": match.winner, "ended_by": match.ended_by_label}


def _readings(results: list[dict[str, Any]], row_of_event: list[int], match) -> None:
    """How the site read each row, in the words of the sheet (the plug-in's rows)."""
    for sheet_row in PLUGIN.rows(match):
        if sheet_row.position is None:  # a Stechen's heading: told with the row that opens it
            continue
        result = results[row_of_event[sheet_row.position]]
        if sheet_row.kind == "game":
            game = next(g for g in match.games if g.event == sheet_row.position)
            result["reading"] = _game_reading(sheet_row, game)
        else:
            result["reading"] = sheet_row.text
    for stage in match.tiebreaks:
        if stage.opened_by_event is not None:
            result = results[row_of_event[stage.opened_by_event]]
            result.setdefault("opens", {})["text"] = (
                stechen_text(stage))


def _game_reading(row: Row, game) -> str:
    parts = [gettext(points_only.POINTS_ONLY)] if game.points_only else []
    if not row.selected_trump:
        return "; ".join(parts)
    if game.selection:
        parts.append(gettext("Trump selection %(cards)s: %(trump)s") % {
            "cards": " ".join(game.selection["cards"]), "trump": translated(row.selected_trump)})
    else:
        parts.append(gettext("Trump %(trump)s") % {"trump": translated(row.selected_trump)})
    parts += [translated(inversion) for inversion in row.inversions]
    if row.inversions and row.trump:
        parts.append(gettext("played with %(trump)s") % {"trump": translated(row.trump)})
    if row.annulled:
        parts.append(translated(row.text))
    return "; ".join(parts)


def in_language(value: Any) -> Any:
    """The answer in the reader's language: every engine word (a :class:`Text`, German as data)
    translated, as the page shows it; JSON would write a Text's German."""
    if isinstance(value, Text):
        return translated(value)
    if isinstance(value, dict):
        return {key: in_language(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [in_language(item) for item in value]
    return value


def _standing(match, held_by: int | None) -> dict[str, Any]:
    stage = match.current_stage
    following = None
    if stage is not None and held_by is None:
        following = {"players": match.next_players, "stage": stage.depth, "limit": stage.limit,
                     "shuffler": match.next_shuffler, "number": len(match.games) + 1}
    return {
        "status": match.status, "winner": match.winner, "ended_by": match.ended_by_label,
        "totals": dict(match.totals), "next": following,
        "stages": [{"stage": s.depth, "players": list(s.players), "limit": s.limit, "winner": s.winner,
                    "totals": dict(s.totals)} for s in match.stages],
    }


# -- saving --------------------------------------------------------------------------------

def note(user, when: datetime.date | None = None) -> str:
    """The history's note on a transcribed Partie."""
    name = (user.get_full_name() or user.get_username()) if user is not None else "unbekannt"
    when = when or timezone.localdate()
    return f"Nachgetragen vom Papierprotokoll von {name} am {when:%d.%m.%Y}."


def save(sheet: dict[str, Any], *, club: Club, user) -> Saved:
    """Store the Partie if the whole sheet is valid (else :class:`Refused`), once per token."""
    transcript = transcribe(sheet, club=club)
    if not transcript.ready:
        raise Refused(transcript.answer)
    token = _token(sheet.get("token"))
    earlier = _saved_before(token, club)
    if earlier is not None:
        return Saved(earlier, again=True)
    try:
        with transaction.atomic():
            imported = transfer.import_document(transcript.doc, club=club, season=transcript.season, user=user,
                                                action=Change.Action.TRANSCRIBE_MATCH, reason=note(user))
            if token is not None:  # the first entry carries the transcription's one-time token
                Event.objects.filter(match=imported.match, position=0).update(submission=token)
    except transfer.ImportRefused as refused:
        answer = dict(transcript.answer, ready=False)
        answer["problem"] = " ".join(_where(e, transcript.row_of_event) + translated(e.message) for e in refused.errors)
        raise Refused(answer) from refused
    except IntegrityError:
        earlier = _saved_before(token, club)
        if earlier is None:
            raise
        return Saved(earlier, again=True)
    return Saved(imported.match, imported.created_members)


def _token(value: Any) -> uuid.UUID | None:
    try:
        return uuid.UUID(str(value))
    except ValueError:
        return None


def _saved_before(token: uuid.UUID | None, club: Club) -> Match | None:
    if token is None:
        return None
    event = Event.objects.filter(submission=token, match__club=club).select_related("match").first()
    return event.match if event is not None else None


def _row_name(result: dict) -> str:
    """A row as the grid numbers it: "Spiel 4" for a game (its number column says 4), "Strafe
    (Zeile 5)" for any other entry (a Strafe is no Spiel, its column names its kind)."""
    kind = result.get("kind")
    if result.get("number") and kind in ("game", None):
        return gettext("Game %(n)s") % {"n": result["number"]}
    row = gettext("Row %(n)s") % {"n": result["row"] + 1}
    return f"{translated(ENTRY_WORDS[kind])} ({row})" if kind in ENTRY_WORDS else row


def _where(error: RuleError, row_of_event: list[int]) -> str:
    if error.event is None or error.event >= len(row_of_event):
        return ""
    return gettext("Row %(n)s") % {"n": row_of_event[error.event] + 1} + ": "
