"""One Partie of a season workbook rebuilt as a ``protocol/1`` document (for ``league.spreadsheets.imports``).

Vocabulary:

- *Partie*: the rows of one Partie (its Partien row, its Spiele and Strafen rows) and the
  document built from them; *Source* remembers which row and column each event came from,
  so that the engine's errors are named at their cell.
- Only facts are read here (each player's line, ``Ruleset.line_fields``; the trump, revealed
  cards and inversions in the game's notation, its plug-in's ``notation``; Strafen, the end);
  a Spiel whose lines say "nur Punkte" (:func:`points_only_words`) was recorded as points
  only, and its Punkte are then its facts (``{"scores": ...}``, protocol/rules/scores.py);
  what they score is the engine's to say, and ``league.spreadsheets.imports`` cross-checks
  the workbook's computed cells against it. A Partie's game is the one its Partien row names,
  one whose Spiele the workbook holds (``league.spreadsheets.workbook.readable``; said at
  its cell by :func:`check_games` before anything else is read).
"""
from __future__ import annotations

import datetime
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from django.utils import timezone, translation
from django.utils.translation import gettext as _

from league.registry.fields import implausible_date
from league.spreadsheets import exports
from league.spreadsheets.workbook import (
    END,
    GAME_FACTS,
    Row,
    Sheet,
    Vocabulary,
    _day,
    _integer,
    _languages,
    _norm,
    _shown,
    _text,
    _yes_no,
    add_problem,
    cell_problem,
    echo,
    readable,
    unreadable,
)
from league.standings import games
from protocol import games as protocol_games
from protocol.models import Match
from protocol.plugin import POINTS_ONLY
from protocol.rules import RULESETS
from protocol.rules.base import Problems
from protocol.rules.dates import is_plausible
from protocol.rules.envelope import FORMAT

# -- the game of each Partie ----------------------------------------------------------------

def game_of(row: Row, words: Vocabulary) -> str | None:
    """The game a Partien row names (empty, as before the column: the game of a Partie that
    names none); None for a name the registry does not know."""
    text = _text(row["game"])
    return words.games.get(_norm(text)) if text else games.DEFAULT


def check_games(sheets: dict[str, Sheet], words: Vocabulary, problems: Problems) -> None:
    """Each Partie's game is one the site knows and whose Spiele can be read back, else it is
    said at its Partien row; the Spiele sheet has the columns of their lines."""
    partien, spiele = sheets.get("matches"), sheets.get("games")
    if partien is None:
        return
    can = " / ".join(RULESETS[game].name for game in RULESETS if readable(game)) or "–"
    named = set()
    for row in partien.rows:
        game = game_of(row, words)
        values = {"text": echo(_text(row["game"])), "game": games.name(game or ""), "readable": can}
        if game is None:
            values["games"] = ", ".join(ruleset.name for ruleset in RULESETS.values())
            cell_problem(problems, row, "game", _("“%(text)s” is no game of this site: %(games)s.") % values)
        elif not readable(game) and not RULESETS[game].line_fields:
            cell_problem(problems, row, "game", _(
                "A match of %(game)s: the workbook holds its games as scores only, not as they were entered, so it "
                "can't be imported from it; a workbook brings in matches of %(readable)s only.") % values)
        elif not readable(game):
            cell_problem(problems, row, "game", _(
                "A match of %(game)s, whose games the import can't read from a workbook; a workbook brings in "
                "matches of %(readable)s only.") % values)
        else:
            named.add(game)
    for game in games.ordered(named) if spiele is not None else []:
        for key in RULESETS[game].line_fields:
            if key not in spiele.columns:
                add_problem(problems, spiele, 1, None, _("The column “%(header)s” is missing.")
                            % {"header": words.names["games"][key]})


@cache  # the site's languages are set once
def points_only_words() -> tuple[str, ...]:
    """What a Spiel recorded as points only has where its facts would stand ("nur Punkte",
    ``protocol.plugin.POINTS_ONLY``), in every language of the site, the export's first."""
    words = []
    for code in _languages():
        with translation.override(code):
            words.append(str(POINTS_ONLY))
    return tuple(dict.fromkeys(words))


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
    game: str  # its ruleset's key
    games: dict[int, list[Row]] = field(default_factory=dict)  # Spiel -> its rows in Spiele
    sanctions: list[Row] = field(default_factory=list)
    date: datetime.date | None = None
    season: str = ""
    document: dict[str, Any] = field(default_factory=dict)
    sources: list[Source] = field(default_factory=list)
    readable: bool = True  # every fact could be read: the computed columns are compared
    computed: Any = None  # the engine's match
    match: Match | None = None  # saved (until a rollback)

    @property
    def notation(self):
        """The written Spiel's grammar of its game (its plug-in's; the transcription's words)."""
        return protocol_games.plugin(self.game).notation


def _partien(sheets: dict[str, Sheet], words: Vocabulary, problems: Problems) -> list[Partie]:
    """The Partien of the sheet Partien, each with its rows of Spiele and Strafen."""
    partien: dict[int, Partie] = {}
    for row in sheets["matches"].rows:
        number = _integer(row["number"])
        if number is None:
            cell_problem(problems, row, "number", _("The number of the match is missing or not a whole number; the sheets "
                                         "Spiele and Strafen refer to the match by it."))
        elif number in partien:
            cell_problem(problems, row, "number", _("Match %(n)s appears twice in this sheet (also row %(row)s).")
                        % {"n": number, "row": partien[number].row.number})
        else:
            partien[number] = Partie(row, number, game_of(row, words))
    for key in ("games", "sanctions"):
        unknown: set = set()
        for row in sheets[key].rows:
            number = _integer(row["match"])
            partie = partien.get(number)
            if partie is None:
                if number is None:
                    cell_problem(problems, row, "match", _("The number of the match is missing or not a whole number."))
                elif number not in unknown:
                    unknown.add(number)
                    cell_problem(problems, row, "match", _("Match %(n)s is not in the sheet %(sheet)s.")
                                % {"n": number, "sheet": sheets["matches"].title})
            elif key == "sanctions":
                partie.sanctions.append(row)
            elif (game := _integer(row["game"])) is None or game < 1:
                cell_problem(problems, row, "game", _("The number of the game is missing or not a whole number from 1."))
                partie.readable = False
            else:
                partie.games.setdefault(game, []).append(row)
    return list(partien.values())


def _document(partie: Partie, words: Vocabulary, problems: Problems) -> None:
    """Build the Partie's protocol/1 document from its rows (and what can't be read)."""
    row = partie.row
    lines = [line for rows in partie.games.values() for line in rows]
    facts = (*RULESETS[partie.game].line_fields, "trump")
    if lines and not any(line[key] is not None for line in lines for key in facts):  # as written before Spielart
        cell_problem(problems, row, "number", _("Match %(n)s has scores but no tricks, card points or trumps: a match of "
                                     "%(games)s, which this workbook does not record completely; it can't be "
                                     "imported from it.") % {"n": partie.number, "games": _scores_only_games()})
        return
    doc: dict[str, Any] = {"format": FORMAT, "ruleset": partie.game}
    partie.season = _text(row["season"])
    if partie.season:
        doc["season"] = partie.season
    partie.date = _day(row["date"])
    if partie.date is None:
        unreadable(problems, row, "date", _("The date is missing or not a date (DD.MM.YYYY)."))
    elif not is_plausible(partie.date, timezone.localdate()):
        unreadable(problems, row, "date", implausible_date(partie.date))
        partie.date = None
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
            cell_problem(problems, partie.games[number][0], "game", _("Game %(n)s of match %(match)s is missing.")
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
            cell_problem(problems, row, "agreements", _("“%(part)s” is no setting; write them as in “%(example)s”.")
                        % {"part": echo(part.strip()), "example": words.example})
            continue
        value = value.strip()
        read = _yes_no(value, words) if key == "scorekeeper_skips_shuffling" else _integer(value)
        settings[key] = value if read is None else read  # the engine names what is wrong with it
    return settings


def _game(partie: Partie, rows: list[Row], words: Vocabulary, problems: Problems) -> tuple[dict, Source]:
    facts = {key: _one_value(partie, rows, key, problems) for key in GAME_FACTS}
    source = Source("game", facts["trump"], "game")
    body: dict[str, Any] = {}
    notation = partie.notation
    if selection := _selection(notation, facts["selection"], words, problems):
        body["selection"] = selection
    trump = _trump(notation, facts["trump"], "trump", problems)
    chain = _inversions(notation, facts["inversions"], problems)
    if chain is False or selection is False:
        unreadable(problems, facts["trump"], "trump")  # what the trump then lacks was said already
        partie.readable = False
    elif chain:
        body["trump"], body["inversions"] = chain
        source.trump_column = "inversions"
    if "trump" not in body and trump:
        body["trump"] = trump
    if trump is False:
        partie.readable = False
    line_fields = RULESETS[partie.game].line_fields
    only = {_norm(word) for word in points_only_words()}
    results, scores, empty, kinds = {}, {}, True, {}
    for row in rows:
        player = _text(row["player"])
        if not player:
            cell_problem(problems, row, "player", _("The player is missing."))
            partie.readable = False
            continue
        if player in source.players:
            cell_problem(problems, row, "player", _("%(name)s appears twice in this game (also row %(row)s).")
                        % {"name": echo(player), "row": source.players[player].number})
            partie.readable = False
            continue
        source.players[player] = row
        said = [_norm(_text(row[key])) in only for key in line_fields]
        if any(said) and not all(said):
            cell_problem(problems, row, line_fields[said.index(False)], _(
                "The other cells of this line say “%(word)s”: a game recorded as points only has it in each of "
                "them, a game with its facts has none.") % {"word": points_only_words()[0]})
            partie.readable = False
            continue
        as_points = bool(said) and all(said)
        kinds.setdefault(as_points, row)
        if as_points:  # its Punkte are what was recorded
            score = _integer(row["score"])
            if row["score"] is not None:  # an empty cell: the engine names the missing points
                scores[player] = row["score"] if score is None else score
            continue
        line = {}
        for key in line_fields:
            value = row[key]
            empty = empty and value is None
            number = _integer(value)
            line[key] = value if number is None else number  # the engine names what is wrong with it
        results[player] = line
    annulled = _yes_no(facts["annulled"]["annulled"], words)
    if annulled is None:
        cell_problem(problems, facts["annulled"], "annulled", _("Write “yes” or “no”."))
        annulled = False
    if annulled:
        body["annulled"] = True
    if reason := _text(facts["annul_reason"]["annul_reason"]):
        body["annul_reason"] = reason
    if len(kinds) > 1:
        cell_problem(problems, kinds[True], line_fields[0], _(
            "Row %(row)s of the same game holds its facts: a game is recorded with every player's line or as "
            "points only (“%(word)s” in every line), not both.") % {"row": kinds[False].number,
                                                                  "word": points_only_words()[0]})
        partie.readable = False
    elif True in kinds:
        body["scores"] = scores
    elif not (annulled and empty):  # an annulled Spiel may have no lines (SV 4)
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
            cell_problem(problems, row, key, _("Row %(row)s of the same game says “%(value)s”; a game has one value here.")
                        % {"row": model.number, "value": _shown(model[key])})
            partie.readable = False
    return model


def _trump(notation, row: Row, key: str, problems: Problems) -> dict | None | bool:
    """The trump as the sheet names it ("Pik", "Wert Zehn", "Karo Dame": ``notation.read_trump_label``);
    None for an empty cell, False (with a problem) for one that is no trump."""
    text = _text(row[key])
    if not text:
        return None
    try:
        return notation.read_trump_label(text)
    except notation.NotationError:
        unreadable(problems, row, key, _("“%(text)s” is no trump; write it as the sheet does: “rot”, “Pik”, "
                                        "“Wert Zehn”, “Karo Dame”.") % {"text": echo(text)})
        return False


def _selection(notation, row: Row, words: Vocabulary, problems: Problems) -> dict | None | bool:
    """The Trumpfwahl: "X8 H8 P7", with "(Einigung)" when the players agreed (Art. 9b);
    None for an empty cell, False (with a problem) for one that can't be read."""
    text = _text(row["selection"])
    if not text:
        return None
    try:
        return notation.read_selection(text)
    except notation.NotationError:
        cell_problem(problems, row, "selection", _("“%(text)s” is no trump selection; write the revealed cards in order, "
                                        "e.g. “X8 H8 P7”, and “(%(agreed)s)” after them when the players agreed.")
                    % {"text": echo(text), "agreed": notation.AGREED_WORD})
        return False


def _inversions(notation, row: Row, problems: Problems) -> tuple[dict, list[dict]] | None | bool:
    """"Herz → Pik (Bernd, Normalinversion)": the trump before them and each as announced;
    None for an empty cell, False (with a problem) for one that can't be read."""
    text = _text(row["inversions"])
    if not text:
        return None
    try:
        return notation.read_inversion_chain(text)
    except notation.NotationError:
        cell_problem(problems, row, "inversions", _("“%(text)s” can't be read as inversions; write the trump before them, then "
                                         "each as announced: “Herz → Pik (Bernd, Normalinversion)”.") % {"text": echo(text)})
        return False


def _sanction(partie: Partie, row: Row, words: Vocabulary, problems: Problems):
    """(event, source, entry, after game) of a row of Strafen, or None if it can't be read."""
    kind = words.kinds.get(_norm(_text(row["kind"])))
    if kind is None:
        cell_problem(problems, row, "kind", _("“%(text)s” is no kind of entry here: Strafe, Verwarnung or Disqualifikation.")
                    % {"text": echo(_text(row["kind"]))})
        partie.readable = False
        return None
    body: dict[str, Any] = {"player": _text(row["player"]), "reason": _text(row["reason"])}
    if kind == "penalty":
        points = _integer(row["points"])
        body["points"] = row["points"] if points is None else points
    deciders = [name.strip() for name in _text(row["decided_by"]).split(",") if name.strip()]
    if deciders and kind == "warning":
        cell_problem(problems, row, "decided_by", _("A warning names nobody who decided on it; leave the cell empty."))
    elif deciders:
        body["decided_by"] = deciders
    place = {}
    for key in ("entry", "after_game"):
        value = row[key]
        place[key] = _integer(value)
        if value is not None and (place[key] is None or place[key] < (1 if key == "entry" else 0)):
            cell_problem(problems, row, key, _("“%(text)s” is no number of an entry or game.") % {"text": echo(_text(value))})
            place[key] = None
    return {kind: body}, Source("sanction", row, "kind"), place["entry"], place["after_game"]


def _end(partie: Partie, words: Vocabulary, problems: Problems):
    """(event, source, entry) of the Ende cell ("Zeitbegrenzung (Eintrag 14)"), or None."""
    row = partie.row
    text = _text(row["end"])
    if not text:
        return None
    found = END.match(text)
    end_reasons = RULESETS[partie.game].end_reasons  # as the Partie's game names them
    reasons = {_norm(label): key for key, label in end_reasons.items()} | {key: key for key in end_reasons}
    reason = reasons.get(_norm(found["reason"])) if found else None
    if reason is None or found["word"] and _norm(found["word"]) not in words.entry:
        labels = " / ".join(end_reasons.values())
        cell_problem(problems, row, "end", _("“%(text)s” is no end of a match: %(labels)s, with its entry, e.g. “%(example)s”.")
                    % {"text": echo(text), "labels": labels,
                       "example": f"{end_reasons['time']} ({_entry_word()} 14)"})
        partie.readable = False
        return None
    return {"end": {"reason": reason}}, Source("end", row, "end"), int(found["entry"]) if found["entry"] else None


def _scores_only_games() -> str:
    """The games whose Spiele the workbook can't be read back for (:func:`readable`)."""
    return " / ".join(ruleset.name for key, ruleset in RULESETS.items() if not readable(key))


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
                cell_problem(problems, source.row, source.column if source.kind == "end" else "entry",
                            _("The entry is missing; the other entries of this match have theirs."))
    elif numbered:
        slots: list = [None] * total
        fine = True
        for event, source, entry in placed:
            key = "end" if source.kind == "end" else "entry"
            if not 1 <= entry <= total - (1 if annul else 0):
                cell_problem(problems, source.row, key, _("Match %(match)s has no entry %(n)s; it has %(total)s.")
                            % {"match": partie.number, "n": entry, "total": total})
                fine = False
            elif slots[entry - 1] is not None:
                cell_problem(problems, source.row, key, _("Entry %(n)s is given twice in match %(match)s.")
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
                cell_problem(problems, source.row, "after_game", _("After which game? The cell is empty, and there is no entry "
                                                        "number either."))
            elif after is not None and after > len(games):
                cell_problem(problems, source.row, "after_game", _("Match %(match)s has no game %(n)s.")
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
