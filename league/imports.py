"""A season workbook read back into a club: the layout ``league.exports`` writes.

Vocabulary:

- *Workbook*: the .xlsx of a season (or of all seasons, or of one Partie) with the sheets
  Tabelle, Partien, Spiele and Strafen. Sheets and columns are found by their titles and
  headers wherever they stand (German as exported; the English ones are read too); a column
  the importer does not know is left alone and named in the report.
- *Facts*: what the Protokollant recorded. The Spiele sheet is the source of truth for every
  Spiel (Stiche, Augen, Trümpfe, Trumpf, Aufgedeckte Karten, Inversionen, annulment);
  Partien holds each Partie's header (date, place, season, seating, Protokollant,
  Vereinbarungen, Ende, annulment), Strafen every SV entry and its place in the protocol
  (``Eintrag``, else after the Spiel it names).
- *Computed columns*: Punkte, Stand, Trumpfwertung, Stufe, Nach Spiel, Sieger, Status,
  Ausgang, the number of Spiele and the whole Tabelle. The rules engine computes them from
  the facts and each cell is cross-checked: a cell that states another value is a problem,
  an empty cell states nothing.
- *Problem*: what keeps the workbook out, with its sheet, row and column and a German
  sentence (for a broken rule the engine's own, naming the article).
- *Dry run*: the whole import, then rolled back; the report says what would be created. An
  import is one transaction: every Partie or none.

Each Partie becomes a ``protocol/1`` document and goes in through
:func:`protocol.transfer.import_document`, like a protocol file: the engine checks it and a
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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from django.db import transaction
from django.db.models import Count
from django.utils import translation
from django.utils.translation import gettext as _

from league import exports
from league.models import Club, Season
from league.standings import standings
from league.workbook import (
    AGREED_WORDS,
    END,
    GAME_FACTS,
    INVERSION,
    INVERSION_KINDS,
    Problems,
    RULESET,
    Report,
    Row,
    SANCTION_ARTICLES,
    SELECTION,
    Sheet,
    TRUMPS,
    Vocabulary,
    WorkbookUnreadable,
    _day,
    _integer,
    _norm,
    _shown,
    _text,
    _yes_no,
    read_workbook,
    vocabulary,
)
from protocol import services
from protocol.models import Match
from protocol.rules import RuleError, evaluate
from protocol.rules.chaotentrumpf.partie import ENDED_BY, END_REASONS
from protocol.rules.chaotentrumpf.trump import Trump
from protocol.rules.envelope import FORMAT
from protocol.transfer import ImportRefused, import_document

__all__ = ["Report", "WorkbookUnreadable", "import_season"]  # what callers use


# -- one Partie as a protocol/1 document --------------------------------------------------

@dataclass
class Source:
    """Where an event of the document came from, to name the cell of its problems."""

    kind: str  # game | sanction | end | annul
    row: Row
    column: str  # the column of a problem of the whole event
    players: dict[str, Row] = field(default_factory=dict)  # a Spiel: each player's row
    trump_column: str = "trump"  # where the trump before the inversions was read


@dataclass
class Partie:
    row: Row  # in Partien
    number: int
    games: dict[int, list[Row]] = field(default_factory=dict)  # Spiel -> its rows in Spiele
    sanctions: list[Row] = field(default_factory=list)
    date: datetime.date | None = None
    season: str = ""
    document: dict[str, Any] = field(default_factory=dict)
    sources: list[Source] = field(default_factory=list)
    readable: bool = True  # every fact could be read: the computed columns are compared
    computed: Any = None  # the engine's match
    match: Match | None = None  # saved (until a rollback)


def _partien(sheets: dict[str, Sheet], problems: Problems) -> list[Partie]:
    """The Partien of the sheet Partien, each with its rows of Spiele and Strafen."""
    partien: dict[int, Partie] = {}
    for row in sheets["matches"].rows:
        number = _integer(row["number"])
        if number is None:
            problems.at(row, "number", _("The number of the match is missing or not a whole number; the sheets "
                                         "Spiele and Strafen refer to the match by it."))
        elif number in partien:
            problems.at(row, "number", _("Match %(n)s appears twice in this sheet (also row %(row)s).")
                        % {"n": number, "row": partien[number].row.number})
        else:
            partien[number] = Partie(row, number)
    for key in ("games", "sanctions"):
        unknown: set = set()
        for row in sheets[key].rows:
            number = _integer(row["match"])
            partie = partien.get(number)
            if partie is None:
                if number is None:
                    problems.at(row, "match", _("The number of the match is missing or not a whole number."))
                elif number not in unknown:
                    unknown.add(number)
                    problems.at(row, "match", _("Match %(n)s is not in the sheet %(sheet)s.")
                                % {"n": number, "sheet": sheets["matches"].title})
            elif key == "sanctions":
                partie.sanctions.append(row)
            elif (game := _integer(row["game"])) is None or game < 1:
                problems.at(row, "game", _("The number of the game is missing or not a whole number from 1."))
                partie.readable = False
            else:
                partie.games.setdefault(game, []).append(row)
    return list(partien.values())


def _document(partie: Partie, words: Vocabulary, problems: Problems) -> None:
    """Build the Partie's protocol/1 document from its rows (and what can't be read)."""
    row = partie.row
    lines = [line for rows in partie.games.values() for line in rows]
    if lines and not any(line[key] is not None for line in lines for key in ("tricks", "points", "trumps", "trump")):
        problems.at(row, "number", _("Match %(n)s has scores but no tricks, card points or trumps: a Doppelkopf or "
                                     "Tarot match, which this workbook does not record completely; it can't be "
                                     "imported from it.") % {"n": partie.number})
        return
    doc: dict[str, Any] = {"format": FORMAT, "ruleset": RULESET}
    partie.season = _text(row["season"])
    if partie.season:
        doc["season"] = partie.season
    partie.date = _day(row["date"])
    if partie.date is None:
        problems.unreadable(row, "date", _("The date is missing or not a date (DD.MM.YYYY)."))
    else:
        doc["date"] = partie.date.isoformat()
    if place := _text(row["place"]):
        doc["place"] = place
    players = _text(row["players"])
    doc["players"] = [name.strip() for name in players.split(",")] if players else []
    doc["scorekeeper"] = _text(row["scorekeeper"]) or None
    doc["settings"] = _agreements(row, words, problems)
    games = []
    for number in sorted(partie.games):
        if number != len(games) + 1:
            problems.at(partie.games[number][0], "game", _("Game %(n)s of match %(match)s is missing.")
                        % {"n": len(games) + 1, "match": partie.number})
            partie.readable = False
        games.append(_game(partie, partie.games[number], words, problems))
    sanctions = [s for s in (_sanction(partie, r, words, problems) for r in partie.sanctions) if s]
    end = _end(partie, words, problems)
    annul = None
    if reason := _text(row["annul_reason"]):
        annul = ({"annul_match": {"reason": reason}}, Source("annul", row, "annul_reason"))
    doc["events"], partie.sources = _in_protocol_order(partie, games, sanctions, end, annul, problems)
    partie.document = doc


def _agreements(row: Row, words: Vocabulary, problems: Problems) -> dict[str, Any]:
    """The Vereinbarungen: "Obergrenze: 750; Blätter: 2" -> {"limit": 750, "decks": 2}."""
    settings: dict[str, Any] = {}
    for part in re.split(r"[;\n]", _text(row["agreements"])):
        if not part.strip():
            continue
        label, colon, value = part.partition(":")
        key = words.settings.get(_norm(label))
        if not colon or key is None:
            problems.at(row, "agreements", _("“%(part)s” is no setting; write them as in “%(example)s”.")
                        % {"part": part.strip(), "example": words.example})
            continue
        value = value.strip()
        read = _yes_no(value, words) if key == "scorekeeper_skips_shuffling" else _integer(value)
        settings[key] = value if read is None else read  # the engine names what is wrong with it
    return settings


def _game(partie: Partie, rows: list[Row], words: Vocabulary, problems: Problems) -> tuple[dict, Source]:
    facts = {key: _one_value(partie, rows, key, problems) for key in GAME_FACTS}
    source = Source("game", facts["trump"], "game")
    body: dict[str, Any] = {}
    if selection := _selection(facts["selection"], words, problems):
        body["selection"] = selection
    trump = _trump(facts["trump"], "trump", problems)
    chain = _inversions(facts["inversions"], problems)
    if chain is False or selection is False:
        problems.unreadable(facts["trump"], "trump")  # what the trump then lacks was said already
        partie.readable = False
    elif chain:
        body["trump"], body["inversions"] = chain
        source.trump_column = "inversions"
    if "trump" not in body and trump:
        body["trump"] = trump.as_json()
    if trump is False:
        partie.readable = False
    results, empty = {}, True
    for row in rows:
        player = _text(row["player"])
        if not player:
            problems.at(row, "player", _("The player is missing."))
            partie.readable = False
            continue
        if player in source.players:
            problems.at(row, "player", _("%(name)s appears twice in this game (also row %(row)s).")
                        % {"name": player, "row": source.players[player].number})
            partie.readable = False
            continue
        source.players[player] = row
        line = {}
        for key in ("tricks", "points", "trumps"):
            value = row[key]
            empty = empty and value is None
            number = _integer(value)
            line[key] = value if number is None else number  # the engine names what is wrong with it
        results[player] = line
    annulled = _yes_no(facts["annulled"]["annulled"], words)
    if annulled is None:
        problems.at(facts["annulled"], "annulled", _("Write “yes” or “no”."))
        annulled = False
    if annulled:
        body["annulled"] = True
    if reason := _text(facts["annul_reason"]["annul_reason"]):
        body["annul_reason"] = reason
    if not (annulled and empty):  # an annulled Spiel may have no lines (SV 4)
        body["results"] = results
    return {"game": body}, source


def _one_value(partie: Partie, rows: list[Row], key: str, problems: Problems) -> Row:
    """A fact of the whole Spiel stands in each of its rows: the row that says what most say
    (the first of them) is read, the rows that say otherwise are problems."""
    said = Counter(_norm(_text(row[key])) for row in rows)
    most = max(said.values())
    model = next(row for row in rows if said[_norm(_text(row[key]))] == most)
    for row in rows:
        if _norm(_text(row[key])) != _norm(_text(model[key])):
            problems.at(row, key, _("Row %(row)s of the same game says “%(value)s”; a game has one value here.")
                        % {"row": model.number, "value": _shown(model[key])})
            partie.readable = False
    return model


def _trump(row: Row, key: str, problems: Problems) -> Trump | None | bool:
    """The trump of a label as the engine writes it ("Pik", "Wert Zehn", "Karo Dame");
    None for an empty cell, False (with a problem) for one that is no trump."""
    text = _text(row[key])
    if not text:
        return None
    trump = TRUMPS.get(_norm(text))
    if trump is None:
        problems.unreadable(row, key, _("“%(text)s” is no trump; write it as the sheet does: “rot”, “Pik”, "
                                        "“Wert Zehn”, “Karo Dame”.") % {"text": text})
        return False
    return trump


def _selection(row: Row, words: Vocabulary, problems: Problems) -> dict | None | bool:
    """The Trumpfwahl: "X8 H8 P7", with "(Einigung)" when the players agreed (Art. 9b);
    None for an empty cell, False (with a problem) for one that can't be read."""
    text = _text(row["selection"])
    if not text:
        return None
    found = SELECTION.match(text)
    agreed = bool(found and found["marker"] is not None)
    if found is None or agreed and _norm(found["marker"]) not in AGREED_WORDS:
        problems.at(row, "selection", _("“%(text)s” is no trump selection; write the revealed cards in order, "
                                        "e.g. “X8 H8 P7”, and “(%(agreed)s)” after them when the players agreed.")
                    % {"text": text, "agreed": exports.AGREED})
        return False
    cards = [card.upper() for card in re.split(r"[\s,;]+", found["cards"]) if card]
    return {"cards": cards, "agreed": agreed}


def _inversions(row: Row, problems: Problems) -> tuple[dict, list[dict]] | None | bool:
    """"Herz → Pik (Bernd, Normalinversion)": the trump before them and each as announced;
    None for an empty cell, False (with a problem) for one that can't be read."""
    text = _text(row["inversions"])
    if not text:
        return None
    parts = [part.strip() for part in re.split(r"→|->", text)]
    start, inversions = TRUMPS.get(_norm(parts[0])), []
    for part in parts[1:]:
        found = INVERSION.match(part)
        target = TRUMPS.get(_norm(found["target"])) if found else None
        kind = INVERSION_KINDS.get(_norm(found["kind"])) if found else None
        if target is None or kind is None:
            break
        inversions.append({"player": found["player"].strip(), "declared": kind, "target": target.as_json()})
    if start is None or len(inversions) != len(parts) - 1 or not inversions:
        problems.at(row, "inversions", _("“%(text)s” can't be read as inversions; write the trump before them, then "
                                         "each as announced: “Herz → Pik (Bernd, Normalinversion)”.") % {"text": text})
        return False
    return start.as_json(), inversions


def _sanction(partie: Partie, row: Row, words: Vocabulary, problems: Problems):
    """(event, source, entry, after game) of a row of Strafen, or None if it can't be read."""
    kind = words.kinds.get(_norm(_text(row["kind"])))
    if kind is None:
        problems.at(row, "kind", _("“%(text)s” is no kind of entry here: Strafe, Verwarnung or Disqualifikation.")
                    % {"text": _text(row["kind"])})
        partie.readable = False
        return None
    body: dict[str, Any] = {"player": _text(row["player"]), "reason": _text(row["reason"])}
    if kind == "penalty":
        points = _integer(row["points"])
        body["points"] = row["points"] if points is None else points
    deciders = [name.strip() for name in _text(row["decided_by"]).split(",") if name.strip()]
    if deciders and kind == "warning":
        problems.at(row, "decided_by", _("A warning names nobody who decided on it; leave the cell empty."))
    elif deciders:
        body["decided_by"] = deciders
    place = {}
    for key in ("entry", "after_game"):
        value = row[key]
        place[key] = _integer(value)
        if value is not None and (place[key] is None or place[key] < (1 if key == "entry" else 0)):
            problems.at(row, key, _("“%(text)s” is no number of an entry or game.") % {"text": _text(value)})
            place[key] = None
    return {kind: body}, Source("sanction", row, "kind"), place["entry"], place["after_game"]


def _end(partie: Partie, words: Vocabulary, problems: Problems):
    """(event, source, entry) of the Ende cell ("Zeitbegrenzung (Eintrag 14)"), or None."""
    row = partie.row
    text = _text(row["end"])
    if not text:
        return None
    found = END.match(text)
    reasons = {_norm(label): key for key, label in END_REASONS.items()} | {key: key for key in END_REASONS}
    reason = reasons.get(_norm(found["reason"])) if found else None
    if reason is None or found["word"] and _norm(found["word"]) not in words.entry:
        labels = " / ".join(END_REASONS.values())
        problems.at(row, "end", _("“%(text)s” is no end of a match: %(labels)s, with its entry, e.g. “%(example)s”.")
                    % {"text": text, "labels": labels,
                       "example": f"{END_REASONS['time']} ({_entry_word()} 14)"})
        partie.readable = False
        return None
    return {"end": {"reason": reason}}, Source("end", row, "end"), int(found["entry"]) if found["entry"] else None


def _entry_word() -> str:
    with translation.override(exports.LANGUAGE):
        return _("Entry")


def _in_protocol_order(partie, games, sanctions, end, annul, problems):
    """The events in the order they were recorded, and where each came from.

    With entry numbers (Strafen ``Eintrag``, the Ende's "(Eintrag 14)") every SV entry and
    the end stand where they were recorded and the Spiele fill the other places in order.
    Without them a Strafe follows the Spiel it names (``Nach Spiel``), the end follows
    everything, and an annulment of the Partie is always the last entry (SV 4).
    """
    placed = [(event, source, entry) for event, source, entry, _after in sanctions]
    if end:
        placed.append(end)
    total = len(games) + len(placed) + (1 if annul else 0)
    numbered = [item for item in placed if item[2] is not None]
    order = None
    if numbered and len(numbered) < len(placed):
        for _event, source, entry in placed:
            if entry is None:
                problems.at(source.row, source.column if source.kind == "end" else "entry",
                            _("The entry is missing; the other entries of this match have theirs."))
    elif numbered:
        slots: list = [None] * total
        fine = True
        for event, source, entry in placed:
            key = "end" if source.kind == "end" else "entry"
            if not 1 <= entry <= total - (1 if annul else 0):
                problems.at(source.row, key, _("Match %(match)s has no entry %(n)s; it has %(total)s.")
                            % {"match": partie.number, "n": entry, "total": total})
                fine = False
            elif slots[entry - 1] is not None:
                problems.at(source.row, key, _("Entry %(n)s is given twice in match %(match)s.")
                            % {"n": entry, "match": partie.number})
                fine = False
            else:
                slots[entry - 1] = (event, source)
        if fine:
            remaining = iter(games)
            order = [slot or next(remaining) for slot in slots[: total - (1 if annul else 0)]]
    if order is None:  # after the Spiel each names
        order = [(event, source) for event, source, _entry, after in sanctions if after == 0]
        for number, game in enumerate(games, start=1):
            order.append(game)
            order += [(event, source) for event, source, _entry, after in sanctions if after == number]
        for event, source, _entry, after in sanctions:
            if after is None and source.row["after_game"] is None:
                problems.at(source.row, "after_game", _("After which game? The cell is empty, and there is no entry "
                                                        "number either."))
            elif after is not None and after > len(games):
                problems.at(source.row, "after_game", _("Match %(match)s has no game %(n)s.")
                            % {"match": partie.number, "n": after})
            if after is None or after > len(games):
                order.append((event, source))
        if end:
            order.append(end[:2])
        if numbered:
            partie.readable = False
    if annul:
        order.append(annul)
    return [event for event, _source in order], [source for _event, source in order]


# -- the engine's answer, cell by cell ----------------------------------------------------

EVENT_COLUMNS = {"tricks": "tricks", "points": "points", "trumps": "trumps", "selection": "selection",
                 "inversions": "inversions", "annulled": "annulled", "annul_reason": "annul_reason",
                 "results": "player", "player": "player", "reason": "reason", "decided_by": "decided_by"}
HEADER_COLUMNS = {"date": "date", "place": "place", "season": "season", "players": "players",
                  "scorekeeper": "scorekeeper", "settings": "agreements"}


def _rule_problem(partie: Partie, error: RuleError, problems: Problems) -> None:
    """A RuleError of the engine (or of the importer of protocol files) at its cell."""
    if error.event is None or error.event >= len(partie.sources):
        key = HEADER_COLUMNS.get((error.field or "").split(".")[0], "number")
        problems.at(partie.row, key, error.message, rule=True)
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
    problems.at(row, key, error.message, rule=True)


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
        problems.at(row, key, f"{message} ({article})" if article else message)


def _same_date(row: Row, partie: Partie, problems: Problems) -> None:
    stated = row["date"]
    if stated is not None and partie.date is not None and _day(stated) != partie.date:
        problems.at(row, "date", _("%(stated)s here, but match %(match)s is of %(date)s (row %(row)s of %(sheet)s).")
                    % {"stated": _shown(stated), "match": partie.number, "date": _shown(partie.date),
                       "row": partie.row.number, "sheet": partie.row.sheet.title})


def _cross_check(partie: Partie, words: Vocabulary, problems: Problems) -> None:
    """Every computed cell of the Partie against the engine's answer."""
    computed, row = partie.computed, partie.row
    _compare(row, "winner", computed.winner, problems, "Art. 17")
    _compare(row, "status", None, problems, labels=words.status[computed.status])
    _compare(row, "ended_by", ENDED_BY.get(computed.ended_by or ""), problems)
    _compare(row, "games", len(computed.games), problems)
    yes, no = sorted(words.yes, key=len), sorted(words.no, key=len)
    with translation.override(exports.LANGUAGE):
        yes_no = {True: [_("yes")] + yes, False: [_("no")] + no}
    for game in computed.games:
        for player, line in partie.sources[game.event].players.items():
            score = game.scores.get(player) if game.scores else None
            _same_date(line, partie, problems)
            _compare(line, "stage", None, problems, "Art. 17b", labels=words.stage(game.stage))
            _compare(line, "trump", game.trump.label if game.trump else None, problems, "Art. 11")
            _compare(line, "trump_bonus", None, problems, "Art. 16b",
                     labels=yes_no[score.trump_bonus] if score else [])
            _compare(line, "score", score.points if score else None, problems, "Art. 16")
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
        if len(name) > longest:
            for partie in members:
                problems.at(partie.row, "season", _("A season's name has at most %(n)s characters.") % {"n": longest})
            continue
        dates = [p.date for p in members if p.date]
        rule = Season.RankingRule.WINS_THEN_PPG
        if note and note.season == name and note.start and note.end and note.start <= note.end:
            start, end, rule = note.start, note.end, note.rule or rule
        elif re.fullmatch(r"\d{4}", name) and all(d.year == int(name) for d in dates):
            start, end = datetime.date(int(name), 1, 1), datetime.date(int(name), 12, 31)
        elif dates:
            start, end = min(dates), max(dates)
        else:
            continue  # no dates: the Partien have their problems already
        Season.objects.create(club=club, name=name, start=start, end=end, ranking_rule=rule)
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
    for match in Match.objects.filter(club=club, date__in={p.date for p in checked}):
        computed = services.evaluate_match(match).match
        if computed is not None:
            stored.setdefault(_fingerprint(match.date, computed), match)
    for partie in checked:
        match = stored.get(_fingerprint(partie.date, partie.computed))
        if match is not None:
            problems.at(partie.row, "number", _("The club has this match already (match %(n)s of %(date)s, the same "
                                                "players, games and totals); it is not imported twice.")
                        % {"n": match.pk, "date": f"{match.date:%d.%m.%Y}"})


def _counted_before(club: Club) -> Counter:
    """Finished Partien per season id (None: without a season) before the import."""
    rows = (Match.objects.filter(club=club, status=Match.Status.FINISHED)
            .values("season").annotate(n=Count("id")))
    return Counter({row["season"]: row["n"] for row in rows})


def _check_table(sheets: dict[str, Sheet], partien: list[Partie], club: Club, before: Counter,
                 note: TableNote | None, words: Vocabulary, problems: Problems, report: Report) -> None:
    """The Tabelle against the standings the saved Partien give (league.standings)."""
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
            problems.at(row, "name", _("%(name)s has no counted match among these matches.") % {"name": name or "–"})
            continue
        listed.add(name)
        for column in exports.table_columns():
            if column.key != "name":
                _compare(row, column.key, getattr(standing, column.key), problems)
    for name, standing in computed.items():
        if name not in listed:
            problems.add(sheet, None, "name", _("%(name)s is missing; by the matches the rank is %(rank)s.")
                         % {"name": name, "rank": standing.rank})


# -- the import ------------------------------------------------------------------------------

def import_season(source: bytes | str | Path | BinaryIO, *, club: Club, season: Season | None = None,
                  user=None, dry_run: bool = False) -> Report:
    """Read the workbook and import every Partie into ``club`` (all or nothing).

    ``season``: the season every Partie goes into; without it each goes into the season its
    row names (created if the club lacks it), else the club's season of its date.
    ``dry_run``: do everything, then roll it back. Raises :class:`WorkbookUnreadable` for a
    file that is no .xlsx workbook; any other problem is in the report, and then nothing
    is saved.
    """
    words = vocabulary()
    problems = Problems(words)
    report = Report(dry_run=dry_run)
    sheets = read_workbook(source, words, problems, report.notes)
    if problems:  # sheets or columns missing: the rows can't be read reliably
        report.problems = problems.sorted()
        return report
    partien = _partien(sheets, problems)
    if not partien and not problems:
        problems.add(sheets["matches"], None, None, _("The workbook has no match."))
    for partie in partien:
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
        for partie in sorted(partien, key=lambda p: (p.date or datetime.date.max, p.number)):
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
        _check_table(sheets, partien, club, before, note, words, problems, report)
        report.matches = len(partien)
        report.games = sum(len(p.computed.games) for p in partien if p.computed)
        report.sanctions = sum(len(p.computed.sanctions) for p in partien if p.computed)
        report.problems = problems.sorted()
        report.saved = not dry_run and not problems
        if not report.saved:
            transaction.set_rollback(True)
    return report
