"""A club's own points lists into a season: every Partie checked by the engine, then all
of them saved or none (the points list's sibling of ``league.spreadsheets.imports``).

Each block of the workbook (``league.spreadsheets.points_lists``, read as the mapping says:
``league.spreadsheets.points_mapping``) becomes a ``protocol/1`` document whose every Spiel
is recorded as points only (protocol/rules/scores.py) and goes in through
:func:`protocol.documents.transfer.import_document`. The engine checks what points can
prove (each game's own ``points_only`` rules: an Obergrenze and its Stechen, a game that
must sum to zero) and its errors are said at their cells. A list ends where its rows end: a Partie
the engine still finds running gets the end "vereinbartes Ende" after its last Spiel.

*Names*: a name of the header is the club's member of that name; one that differs from a
member's only by case or lookalike letters (``league.registry.texts.lookalike_member``) is
that member; any other is a problem at its cell, or, when asked for, a new guest.

A Partie the club has already (same date, seating, Spiele and totals) is a problem, so a
list can't come in twice.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext_noop

from league.models import Club, Member, Season
from league.registry.texts import lookalike_member
from league.spreadsheets.points_lists import (
    ListedPartie,
    Spot,
    as_differences,
    build_document,
    error_at,
    partien_of,
    read_book,
    running_totals_hint,
)
from league.spreadsheets.points_mapping import Mapping, is_text
from protocol import reading
from protocol.documents.transfer import ImportRefused, import_document
from protocol.models import Match
from protocol.rules import RULESETS, evaluate, text

PROBLEMS_MAX = 300  # listed; the rest are counted
END_REASON = "agreed"  # a list stops where the players stopped: "vereinbartes Ende"


@dataclass
class Report:
    dry_run: bool
    problems: list[Spot] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    partien: list[dict[str, Any]] = field(default_factory=list)
    names: list[dict[str, str]] = field(default_factory=list)
    mappings: list[dict[str, Any]] = field(default_factory=list)
    saved: bool = False
    season: int | None = None

    @property
    def ok(self) -> bool:
        return not self.problems

    def as_json(self) -> dict[str, Any]:
        problems = sorted(self.problems, key=lambda p: p.order)
        more = len(problems) - PROBLEMS_MAX
        listed = [{"address": p.address, "message": p.message} for p in problems[:PROBLEMS_MAX]]
        if more > 0:
            listed.append({"address": "", "message": f"… und {more} weitere Probleme."})
        return {"ok": self.ok, "saved": self.saved, "dry_run": self.dry_run, "problems": listed,
                "notes": self.notes, "partien": self.partien, "names": self.names, "mappings": self.mappings,
                "season": self.season, "matches": len(self.partien),
                "games": sum(p["games"] for p in self.partien)}


def import_points_list(source: bytes | str | Path | BinaryIO, *, club: Club, game: str, season: Season | None = None,
                       mapping: Mapping | None = None, guests: bool = False, user=None, dry_run: bool = False,
                       progress=None) -> Report:
    """Read the points list and import every Partie into ``club`` (all or nothing).

    ``game``: every Partie's game; ``season``: the season they go into (None: the club's
    season of each date). ``guests``: a name the club has no member of becomes a guest;
    without it such a name is a problem. Raises WorkbookUnreadable (German) for a file that
    is no .xlsx or is too large; every other problem is in the report, and nothing is saved.
    """
    progress = progress or (lambda done, total=None, phase=None: None)
    progress(0, None, gettext_noop("Reading the workbook"))
    mapping = mapping or Mapping()
    report = Report(dry_run=dry_run)
    sheets = read_book(source)
    words = _setting_words()
    partien: list[ListedPartie] = []
    for order, sheet in enumerate(sheets):
        found, layout = partien_of(sheet, order, mapping, words, report.problems)
        partien += found
        if layout is not None:
            report.mappings.append({"sheet": sheet.title} | layout.as_mapping(mapping.running_totals).shown())
    if not partien and not report.problems:
        report.problems.append(Spot("", "", "Die Mappe enthält keine Partie: kein Blatt hat eine Kopfzeile mit den "
                                            "Namen der Spieler und Punkte darunter."))
    with transaction.atomic():
        Club.objects.select_for_update().filter(pk=club.pk).first()  # one import per club at a time
        names = _names(partien, club, guests, report)
        progress(0, len(partien), gettext_noop("Checking the matches"))
        for done, partie in enumerate(partien):
            progress(done)
            _check(partie, game, names, mapping)
        _already_there(partien, club)
        progress(0, len(partien), gettext_noop("Saving the matches"))
        matches = []
        for done, partie in enumerate(partien):
            progress(done)
            if partie.problems or not partie.document:
                continue
            try:
                matches.append(import_document(partie.document, club=club, season=season, user=user).match)
            except ImportRefused as refused:
                for error in refused.errors:
                    partie.at(*error_at(partie, error.event, error.player, error.field, names), error.message)
        for partie, summary in zip(partien, _summaries(partien, names)):
            report.problems += partie.problems
            report.partien.append(summary)
        report.saved = not dry_run and report.ok
        if report.saved:
            for summary, match in zip(report.partien, matches):
                summary["match"] = match.pk
            seasons = {match.season_id for match in matches}
            report.season = seasons.pop() if len(seasons) == 1 else None
        else:
            transaction.set_rollback(True)
    progress(len(partien), len(partien), gettext_noop("Done"))
    return report


def _setting_words() -> dict[str, str]:
    """The Vereinbarungen's labels ("obergrenze" -> "limit"), German and English, and their keys."""
    from league.spreadsheets import exports  # here: it loads openpyxl

    words = {key: key for key in exports.setting_labels()}
    for code in ("de", "en"):
        with translation.override(code):
            words |= {" ".join(str(label).split()).casefold(): key for key, label in exports.setting_labels().items()}
    return words


# -- names ---------------------------------------------------------------------------------

def _names(partien: list[ListedPartie], club: Club, guests: bool, report: Report) -> dict[str, str]:
    """Each written name -> the member's name it is (creating guests when asked); problems at
    the cells of names that are none."""
    written = list(dict.fromkeys(name for partie in partien for name in partie.names.values()))
    members = {m.name: m for m in club.members.filter(name__in=written)}
    found: dict[str, str] = {}
    new: dict[str, str] = {}  # fold -> the guest's name (the first spelling)
    for name in written:
        if problem := text.name_problem(name, "Name"):
            _at_each(partien, name, str(problem))
        elif not is_text(name):
            _at_each(partien, name, f"„{name}“ ist kein Name; steht die Kopfzeile (die Zeile der Namen) wirklich hier?")
        elif name in members:
            found[name] = name
            report.names.append({"written": name, "member": name, "how": "Mitglied"})
        elif (member := lookalike_member(club, name)) is not None:
            found[name] = member.name
            report.names.append({"written": name, "member": member.name,
                                 "how": "Mitglied (anders geschrieben: Groß-/Kleinschreibung oder ähnliche Zeichen)"})
        elif guests:
            key = text.fold(name)
            if key not in new:
                new[key] = name
                Member.objects.create(club=club, name=name, is_guest=True)
            found[name] = new[key]
            report.names.append({"written": name, "member": new[key], "how": "neuer Gast"})
        else:
            _at_each(partien, name, f"„{name}“ ist kein Mitglied des Vereins. Den Namen so schreiben wie in der "
                                    "Mitgliederliste, oder „Unbekannte Namen als Gäste anlegen“ wählen.")
    return found


def _at_each(partien: list[ListedPartie], name: str, message: str) -> None:
    for partie in partien:
        column = partie.column_of(name)
        if column is not None:
            partie.at(partie.header_row, column, message)


# -- the engine's answer ---------------------------------------------------------------------

def _check(partie: ListedPartie, game: str, names: dict[str, str], mapping: Mapping) -> None:
    """Build the Partie's document and ask the engine; its errors go to their cells."""
    if not partie.lines:
        partie.at(partie.header_row, None, "Unter der Kopfzeile steht kein Spiel.")
        return
    if mapping.running_totals:
        as_differences(partie)
    elif running_totals_hint(partie):
        partie.at(partie.lines[0].row, None, "In jeder Spalte wachsen die Punkte von Zeile zu Zeile: das sieht nach "
                                             "Zwischensummen aus (dem Stand nach jedem Spiel). Stehen dort "
                                             "Zwischensummen, bitte „Zwischensummen“ wählen.")
        return
    if partie.problems:
        return
    document = build_document(partie, game, names)
    evaluation = evaluate(document)
    if not evaluation.errors and evaluation.match.status == "running":
        document["events"].append({"end": {"reason": END_REASON}})  # the list stops here
        partie.ended = True
        evaluation = evaluate(document)
    for error in evaluation.errors:
        partie.at(*error_at(partie, error.event, error.player, error.field, names), error.message)
    if not evaluation.errors:
        _compare_totals(partie, evaluation.match, names)


def _compare_totals(partie: ListedPartie, computed, names: dict[str, str]) -> None:
    """The list's own totals row against the engine's totals (an empty or formula cell says nothing)."""
    for name, stated in partie.totals.items():
        number = stated if isinstance(stated, int) and not isinstance(stated, bool) else None
        if isinstance(stated, float) and stated.is_integer():
            number = int(stated)
        total = computed.totals.get(names.get(name, name))
        if number is not None and number != total:
            partie.at(partie.totals_row, partie.column_of(name),
                      f"In der Liste {number}, nach den Regeln {total} (die Summe der Punkte, Strafen abgezogen).")


def _already_there(partien: list[ListedPartie], club: Club) -> None:
    """A Partie the club has already is refused: a list must not come in twice."""
    from league.spreadsheets.imports import _fingerprint  # the season import's notion of "the same Partie"

    checked = {id(p): evaluate(p.document).match for p in partien if p.document and not p.problems and p.date}
    if not checked:
        return
    stored = {}
    matches = list(Match.objects.filter(club=club, date__in={p.date for p in partien if id(p) in checked}))
    answers = reading.BulkReading(matches)
    for match in matches:
        computed = answers.evaluation(match).match
        if computed is not None:
            stored.setdefault(_fingerprint(match.date, computed), match)
    for partie in partien:
        if id(partie) in checked and (match := stored.get(_fingerprint(partie.date, checked[id(partie)]))):
            partie.at(partie.header_row, None, f"Der Verein hat diese Partie schon (Partie {match.pk} vom "
                                               f"{match.date:%d.%m.%Y}, dieselben Spieler, Spiele und Summen); sie "
                                               "wird nicht zweimal eingetragen.")


def _summaries(partien: list[ListedPartie], names: dict[str, str]) -> list[dict[str, Any]]:
    """Per Partie what the engine made of it: totals, winner, how it ended."""
    found = []
    for partie in partien:
        summary = {"title": partie.title, "sheet": partie.sheet, "header": partie.header_row,
                   "date": f"{partie.date:%d.%m.%Y}" if partie.date else "", "place": partie.place,
                   "games": len(partie.lines), "problems": len(partie.problems), "totals": [], "winner": "",
                   "end": ""}
        if partie.document and not partie.problems:
            match = evaluate(partie.document).match
            summary["totals"] = [[name, match.totals.get(name)] for name in partie.document["players"]]
            summary["winner"] = match.winner or ""
            ruleset = RULESETS[partie.document["ruleset"]]
            summary["end"] = (f"{ruleset.ended_by_label(match.ended_by)} (die Liste endet hier)" if partie.ended
                              else ruleset.ended_by_label(match.ended_by) or "")
            summary["stechen"] = bool(getattr(match, "tiebreaks", None))
        found.append(summary)
    return found


