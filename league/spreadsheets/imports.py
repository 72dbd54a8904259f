"""A season workbook read back into a club: the layout ``league.spreadsheets.exports`` writes.

Vocabulary:

- *Workbook*: the .xlsx of a season (or of all seasons, or of one Partie) with the sheets
  Tabelle, Partien, Spiele and Strafen. Sheets and columns are found by their titles and
  headers wherever they stand (German as exported; the English ones are read too); a column
  the importer does not know is left alone and named in the report.
- *Facts*: what the Protokollant recorded. The Spiele sheet is the source of truth for every
  Spiel (each player's line, the game's own facts in its notation, annulment); in a workbook
  of several games the Spiele sheet of the game read is "Spiele <Spielart>". A Partie of a
  game whose Spiele the workbook can't be read back for (its scores only, or no notation:
  ``league.spreadsheets.workbook.readable``) is a problem at its ``Spielart`` cell;
  Partien holds each Partie's header (date, place, season, seating, Protokollant,
  Vereinbarungen, Ende, annulment), Strafen every SV entry and its place in the protocol
  (``Eintrag``, else after the Spiel it names).
- *Computed columns*: Punkte, Stand, Trumpfwertung, Stufe, Nach Spiel, Sieger, Status,
  Ausgang, the number of Spiele and the whole Tabelle. The rules engine computes them from
  the facts and each cell is cross-checked: a cell that states another value is a problem,
  an empty cell states nothing. A Spiel recorded as points only ("nur Punkte" where its
  line's facts stand) has its Punkte as its facts, and "nur Punkte" as its Trumpfwertung.
- *Problem*: what keeps the workbook out, with its sheet, row and column and a German
  sentence (for a broken rule the engine's own, naming the article).
- *Dry run*: the whole import, then rolled back; the report says what would be created. An
  import is one transaction: every Partie or none.

Each Partie becomes a ``protocol/1`` document and goes in through
:func:`protocol.documents.transfer.import_document`, like a protocol file: the engine checks it and a
player no member of the club is called becomes a new member. A season the workbook names
and the club lacks is created (its dates from the Tabelle's note line, else the calendar
year its name is, else its first to its last Partie). A Partie the club has already (same
date, seating, Spiele and totals) is a problem, so a season can't come in twice.

The workbook's own limits: a player whose name contains a comma can't be told apart in
the Spieler column, and a workbook without the ``Eintrag`` column places an end by time
after everything recorded (right for every Partie whose end opened no Stechen).
"""

from __future__ import annotations

import datetime
import re
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from django.db import transaction
from django.db.models import Count
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from league.models import Club, Season
from league.registry.fields import implausible_date
from league.spreadsheets import exports
from league.spreadsheets.archive import WORKBOOK_LIMITS, Limits, WorkbookTooLarge, WorkbookUnreadable  # noqa: F401 - the import's
from league.spreadsheets.workbook import (
    SANCTION_ARTICLES,
    Report,
    Row,
    Sheet,
    Vocabulary,
    _day,
    _integer,
    _norm,
    _shown,
    _text,
    add_problem,
    cell_problem,
    listed,
    read_workbook,
    vocabulary,
)
from league.standings.ranking import standings
from protocol import reading
from protocol.documents.transfer import ImportRefused, import_document
from protocol.models import Match
from protocol.rules import RULESETS, RuleError, evaluate, text
from protocol.rules.base import Problems
from protocol.rules.dates import is_plausible

__all__ = ["WORKBOOK_LIMITS", "Limits", "Report", "WorkbookTooLarge", "WorkbookUnreadable",
           "import_season"]  # what callers use
from league.spreadsheets.rebuild import (
    Partie,
    _document,
    _partien,
    check_games,
    points_only_words,
)

# -- the engine's answer, cell by cell ----------------------------------------------------

EVENT_COLUMNS = {"tricks": "tricks", "points": "points", "trumps": "trumps", "selection": "selection",
                 "inversions": "inversions", "annulled": "annulled", "annul_reason": "annul_reason",
                 "results": "player", "scores": "score", "player": "player", "reason": "reason", "decided_by": "decided_by"}
HEADER_COLUMNS = {"date": "date", "place": "place", "season": "season", "players": "players",
                  "scorekeeper": "scorekeeper", "settings": "agreements"}


def _rule_problem(partie: Partie, error: RuleError, problems: Problems) -> None:
    """A RuleError of the engine (or of the importer of protocol files) at its cell."""
    if error.event is None or error.event >= len(partie.sources):
        key = HEADER_COLUMNS.get((error.field or "").split(".")[0], "number")
        cell_problem(problems, partie.row, key, error.message, rule=True)
        return
    source = partie.sources[error.event]
    row = source.players.get(error.player, source.row) if source.kind == "game" else source.row
    if source.kind in ("end", "annul"):
        key = source.column
    elif error.field == "trump":
        key = source.trump_column
    elif error.field in EVENT_COLUMNS:
        key = EVENT_COLUMNS[error.field]
    else:
        key = "player" if error.player else source.column
    cell_problem(problems, row, key, error.message, rule=True)


def _compare(row: Row, key: str, expected: Any, problems: Problems, article: str = "",
             labels: list[str] | None = None) -> None:
    """A computed cell: an empty cell states nothing, any other must say what the rules say."""
    stated = row[key]
    if stated is None:
        return
    if labels is not None:
        same = _norm(_text(stated)) in {_norm(label) for label in labels}
        expected = labels[0] if labels else None
    elif isinstance(expected, int):
        same = _integer(stated) == expected
    else:
        same = expected is not None and _norm(_text(stated)) == _norm(expected)
    if not same:
        message = _("in the sheet %(sheet)s, by the rules %(rules)s") % {"sheet": _shown(stated),
                                                                          "rules": _shown(expected)}
        cell_problem(problems, row, key, f"{message} ({article})" if article else message)


def _same_date(row: Row, partie: Partie, problems: Problems) -> None:
    stated = row["date"]
    if stated is not None and partie.date is not None and _day(stated) != partie.date:
        cell_problem(problems, row, "date", _("%(stated)s here, but match %(match)s is of %(date)s (row %(row)s of %(sheet)s).")
                    % {"stated": _shown(stated), "match": partie.number, "date": _shown(partie.date),
                       "row": partie.row.number, "sheet": partie.row.sheet.title})


def _cross_check(partie: Partie, words: Vocabulary, problems: Problems) -> None:
    """Every computed cell of the Partie against the engine's answer."""
    computed, row = partie.computed, partie.row
    _compare(row, "winner", computed.winner, problems, "Art. 17")
    _compare(row, "status", None, problems, labels=words.status[computed.status])
    _compare(row, "ended_by", RULESETS[partie.game].ended_by_label(computed.ended_by) or None, problems)
    _compare(row, "games", len(computed.games), problems)
    yes, no = sorted(words.yes, key=len), sorted(words.no, key=len)
    with translation.override(exports.LANGUAGE):
        yes_no = {True: [_("yes")] + yes, False: [_("no")] + no}
    notation = partie.notation
    for game in computed.games:
        points = game.points
        for player, line in partie.sources[game.event].players.items():
            score = points.get(player) if points else None
            _same_date(line, partie, problems)
            _compare(line, "stage", None, problems, "Art. 17b", labels=words.stage(game.stage))
            _compare(line, "trump", notation.write_trump_label(game.trump.as_json()) if game.trump else None,
                     problems, "Art. 11")
            if game.points_only:  # whether he took the Trumpfwertung is unknown
                bonus = list(points_only_words())  # the export's word first
            else:
                bonus = yes_no[game.took_trump_bonus(player)] if score is not None else []
            _compare(line, "trump_bonus", None, problems, "Art. 16b", labels=bonus)
            _compare(line, "score", score, problems, "Art. 16")
            _compare(line, "total", game.totals.get(player), problems)
    for sanction in computed.sanctions:
        line = partie.sources[sanction.event].row
        _same_date(line, partie, problems)
        _compare(line, "points", sanction.points, problems, SANCTION_ARTICLES[sanction.kind])
        _compare(line, "after_game", sanction.after_game, problems)
        _compare(line, "stage", None, problems, "Art. 17b", labels=words.stage(sanction.stage))


# -- the season, the club and the table ----------------------------------------------------

@dataclass
class TableNote:
    """What the line below the Tabelle says: the season (None: all seasons), its dates, the rule."""

    season: str | None
    start: datetime.date | None = None
    end: datetime.date | None = None
    rule: str | None = None


def _note(text: str, words: Vocabulary) -> TableNote | None:
    for pattern in words.season_lines:
        if found := pattern.match(text):
            return TableNote(found["season"], _day(found["start"]), _day(found["end"]),
                             words.rules.get(_norm(found["rule"] or "")))
    for pattern in words.all_seasons_lines:
        if found := pattern.match(text):
            return TableNote(None, rule=words.rules.get(_norm(found["rule"] or "")))
    return None


def _new_seasons(partien: list[Partie], club: Club, note: TableNote | None, problems: Problems,
                 report: Report) -> None:
    """Create the seasons the Partien name and the club lacks."""
    named = defaultdict(list)
    for partie in partien:
        if partie.season:
            named[partie.season].append(partie)
    existing = set(club.seasons.filter(name__in=list(named)).values_list("name", flat=True))
    longest = Season._meta.get_field("name").max_length
    for name, members in named.items():
        if name in existing:
            continue
        if problem := text.text_problem(name, _("Season"), required=True):  # before the database sees it
            for partie in members:
                cell_problem(problems, partie.row, "season", problem)
            continue
        if len(name) > longest:
            for partie in members:
                cell_problem(problems, partie.row, "season", _("A season's name has at most %(n)s characters.") % {"n": longest})
            continue
        dates = [p.date for p in members if p.date]
        rule = Season.RankingRule.WINS_THEN_PPG
        if note and note.season == name and note.start and note.end and note.start <= note.end:
            start, end, rule = note.start, note.end, note.rule or rule
            wrong = [day for day in (start, end) if not is_plausible(day, timezone.localdate())]
            if wrong:  # the note line below the Tabelle: one problem for the workbook, no season
                add_problem(problems, None, None, None, implausible_date(wrong[0]), title=_("Table"))
                continue
        elif re.fullmatch(r"\d{4}", name) and all(d.year == int(name) for d in dates):
            start, end = datetime.date(int(name), 1, 1), datetime.date(int(name), 12, 31)
        elif dates:
            start, end = min(dates), max(dates)
        else:
            continue  # no dates: the Partien have their problems already
        Season.objects.create(club=club, name=name, start=start, end=end, ranking_rule=rule, ruleset=members[0].game)
        report.new_seasons.append(_("%(name)s (%(start)s – %(end)s, %(rule)s)") % {
            "name": name, "start": f"{start:%d.%m.%Y}", "end": f"{end:%d.%m.%Y}",
            "rule": Season.RankingRule(rule).label})


def _fingerprint(date, computed) -> tuple:
    """What makes two Partien the same: date, seating, Spiele and totals."""
    return (date, tuple(computed.players), len(computed.games), tuple(sorted(computed.totals.items())),
            computed.status)


def _already_there(partien: list[Partie], club: Club, problems: Problems) -> None:
    """A Partie the club has already is refused: a season must not come in twice."""
    checked = [p for p in partien if p.computed is not None and p.date]
    stored = {}
    matches = list(Match.objects.filter(club=club, date__in={p.date for p in checked}))
    answers = reading.BulkReading(matches)  # the kept states in one cache read, the rest replayed, not kept
    for match in matches:
        computed = answers.evaluation(match).match
        if computed is not None:
            stored.setdefault(_fingerprint(match.date, computed), match)
    for partie in checked:
        match = stored.get(_fingerprint(partie.date, partie.computed))
        if match is not None:
            cell_problem(problems, partie.row, "number", _("The club has this match already (match %(n)s of %(date)s, the same "
                                                "players, games and totals); it is not imported twice.")
                        % {"n": match.pk, "date": f"{match.date:%d.%m.%Y}"})


def _counted_before(club: Club) -> Counter:
    """Finished Partien per season id (None: without a season) before the import."""
    rows = (Match.objects.filter(club=club, status=Match.Status.FINISHED)
            .values("season").annotate(n=Count("id")))
    return Counter({row["season"]: row["n"] for row in rows})


def _check_table(sheets: dict[str, Sheet], partien: list[Partie], club: Club, before: Counter,
                 note: TableNote | None, words: Vocabulary, problems: Problems, report: Report) -> None:
    """The Tabelle against the standings the saved Partien give (league.standings.ranking)."""
    sheet = sheets.get("table")
    if sheet is None:
        return
    title = sheet.title
    if problems:
        report.notes.append(_("The sheet %(sheet)s is compared once the matches have no problems.") % {"sheet": title})
        return
    seasons = {p.match.season for p in partien}
    if note is not None and note.season is None:
        scope, fresh = None, not sum(before.values())
    elif len(seasons) == 1 and None not in seasons:
        scope = seasons.pop()
        fresh = not before[scope.pk]
    else:
        report.notes.append(_("The sheet %(sheet)s was not compared: its matches are not those of one season.")
                            % {"sheet": title})
        return
    if not fresh:
        report.notes.append(_("The sheet %(sheet)s was not compared: the club had counted matches there already.")
                            % {"sheet": title})
        return
    rule = (note.rule if note else None) or (scope.ranking_rule if scope else Season.RankingRule.WINS_THEN_PPG)
    computed = {row.name: row for row in standings(club, scope, rule)}
    listed = set()
    for row in sheet.rows:
        name = _text(row["name"])
        standing = computed.get(name)
        if standing is None:
            cell_problem(problems, row, "name", _("%(name)s has no counted match among these matches.") % {"name": name or "–"})
            continue
        listed.add(name)
        for column in exports.table_columns():
            if column.key != "name":
                _compare(row, column.key, getattr(standing, column.key), problems)
    for name, standing in computed.items():
        if name not in listed:
            add_problem(problems, sheet, None, "name", _("%(name)s is missing; by the matches the rank is %(rank)s.")
                         % {"name": name, "rank": standing.rank})


# -- the import ------------------------------------------------------------------------------

def import_season(source: bytes | str | Path | BinaryIO, *, club: Club, season: Season | None = None,
                  user=None, dry_run: bool = False, limits: Limits = WORKBOOK_LIMITS, progress=None) -> Report:
    """Read the workbook and import every Partie into ``club`` (all or nothing).

    ``season``: the season every Partie goes into; without it each goes into the season its
    row names (created if the club lacks it), else the club's season of its date.
    ``dry_run``: do everything, then roll it back. ``limits``: how large a workbook is read
    (the upload page checks and imports in the background, so one limit serves all). Raises :class:`WorkbookUnreadable`
    for a file that is no .xlsx workbook, :class:`WorkbookTooLarge` (a kind of it) for one
    beyond the limits; any other problem is in the report, and then nothing is saved.
    ``progress(done, total, phase)``, when given, hears of every Partie checked and saved (a
    ``jobs.work.Progress`` or the command's terminal bar).
    """
    progress = progress or (lambda done, total=None, phase=None: None)
    progress(0, None, gettext_noop("Reading the workbook"))
    words = vocabulary()
    problems = Problems()
    report = Report(dry_run=dry_run)
    sheets = read_workbook(source, words, problems, report.notes, limits)
    check_games(sheets, words, problems)
    if problems:  # sheets or columns missing: the rows can't be read reliably
        report.problems = listed(problems)
        return report
    partien = _partien(sheets, words, problems)
    if not partien and not problems:
        add_problem(problems, sheets["matches"], None, None, _("The workbook has no match."))
    progress(0, len(partien), gettext_noop("Checking the matches"))
    for done, partie in enumerate(partien, 1):
        progress(done - 1)
        _document(partie, words, problems)
        if not partie.document:
            continue
        evaluation = evaluate(partie.document)
        for error in evaluation.errors:
            _rule_problem(partie, error, problems)
        if not evaluation.errors:
            partie.computed = evaluation.match
            if partie.readable:
                _cross_check(partie, words, problems)
    table = sheets.get("table")
    note = _note(table.note, words) if table and table.note else None
    with transaction.atomic():
        Club.objects.select_for_update().filter(pk=club.pk).first()  # one import per club at a time
        before = _counted_before(club)
        if season is None:
            _new_seasons(partien, club, note, problems, report)
        _already_there(partien, club, problems)
        progress(0, len(partien), gettext_noop("Saving the matches"))
        ordered = sorted(partien, key=lambda p: (p.date or datetime.date.max, p.number))
        for done, partie in enumerate(ordered, 1):
            progress(done - 1)
            if not partie.document:
                continue
            try:
                imported = import_document(partie.document, club=club, season=season, user=user)
            except ImportRefused as refused:
                for error in refused.errors:
                    _rule_problem(partie, error, problems)
                continue
            partie.match = imported.match
            report.new_members += [member.name for member in imported.created_members]
            name = imported.match.season.name if imported.match.season else ""
            report.seasons[name] = report.seasons.get(name, 0) + 1
        progress(len(partien), len(partien), gettext_noop("Checking the table"))
        _check_table(sheets, partien, club, before, note, words, problems, report)
        report.matches = len(partien)
        report.games = sum(len(p.computed.games) for p in partien if p.computed)
        report.sanctions = sum(len(p.computed.sanctions) for p in partien if p.computed)
        report.problems = listed(problems)
        report.saved = not dry_run and not problems
        if not report.saved:
            transaction.set_rollback(True)
    return report
