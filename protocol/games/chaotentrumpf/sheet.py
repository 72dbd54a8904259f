"""The Spielprotokollblatt: the official, signed paper record of a Partie, as PDF bytes.

``render(match)`` prints a Partie as the rules engine computed it (from the database or
from a ``protocol/1`` file alike); ``render_blank(players)`` prints the empty sheet for an
evening on which the protocol is kept on paper first. Both lay the sheet out with the
templates in ``templates/chaotentrumpf/`` and let WeasyPrint set it; they read nothing from
the network and nothing from the database. ``protocol.sheet.render_sheet`` and
``render_blank_sheet`` pick this module for a Chaotentrumpf match.

Nothing here decides a rule: the rows come from the plug-in (:mod:`.presentation`),
totals, Stechen and the winner from the engine's :class:`Match`.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from protocol.games.chaotentrumpf.plugin import PLUGIN
from protocol.games.chaotentrumpf.rules.cards import POINTS, RANK_NAMES, RANKS, decks_for_players
from protocol.games.chaotentrumpf.rules.inversion import FACTOR, KIND_NAMES
from protocol.games.chaotentrumpf.rules.partie import TIEBREAK_POINTS_PER_PLAYER, GameRecord, Match, shuffling_order
from protocol.games.chaotentrumpf.rules.settings import (
    LIMIT_MIN,
    LIMIT_MIN_MANY_PLAYERS,
    default_settings,
    differences_from_rules,
)
from protocol.games.chaotentrumpf.rules.trump import LEVEL_NAMES, RANK_FACTOR, TRUMP_BONUS, Trump
from protocol.rules.vocabulary import number, signed
from protocol.sheet.lists import PlayerCell, Row, list_widths, sanction_word
from protocol.sheet.page import blank_page, match_page
from protocol.sheet.printing import colour as _colour
from protocol.sheet.printing import content_width as _content_width
from protocol.sheet.printing import html_to_pdf

PORTRAIT_MAX_PLAYERS = 6  # more players than this: A4 landscape
BLANK_MIN_PLAYERS, BLANK_MAX_PLAYERS = 2, 8


# -- the filled sheet -----------------------------------------------------------------------

def render(match_result: Match, *, printed_at: datetime.datetime | None = None,
           confirmations: dict[str, str] | None = None, check: dict | None = None) -> bytes:
    """The Spielprotokollblatt of a Partie (running, finished or annulled) as PDF bytes.
    ``confirmations``: player -> when he confirmed the result in the app (printed on his
    signature line); ``check``: the check code of a stored Partie and its QR code (protocol/sheet/check.py)."""
    context = sheet_context(match_result, printed_at, confirmations=confirmations, check=check)
    return html_to_pdf(render_to_string("chaotentrumpf/print.html", context))


@dataclass
class Cell(PlayerCell):
    """A player's cell of the list; ``bonus``: the score holds the Trumpfwertung (Art. 16b)."""

    playing: bool = True
    bonus: bool = False


@dataclass
class SheetRow(Row):
    """A line of the list (protocol.sheet.lists.Row) with Chaotentrumpf's own columns; its ``cells`` are ``Cell``."""

    shuffler: str = ""
    trump: str = ""
    level: str = ""
    selected: str = ""  # the Trumpfwahl's trump when inversions changed it
    inversions: list[str] = field(default_factory=list)
    points_only: str = ""  # recorded as points only: the engine's words on what was not checked


@dataclass
class Section:
    """The Partie (stage 0) or one Stechen, each with its own table and columns."""

    stage: int
    players: list[str]
    limit: int
    winner: str | None
    opened_after_game: int | None = None
    columns: list[dict] = field(default_factory=list)  # name, colour, winner, disqualified
    totals: list[Cell] = field(default_factory=list)
    rows: list[SheetRow] = field(default_factory=list)
    landscape: bool = False

    @property
    def widths(self) -> dict[str, str]:
        return column_widths(len(self.players), self.landscape)

    @property
    def span(self) -> int:
        """Columns of a full-width row: number, Mischer, trump, notes, score and total per player."""
        return 4 + 2 * len(self.players)


def heads() -> list[str]:
    """The heads of the game's own columns: number, Mischer (Art. 5), trump, inversions and notes."""
    return [_("No."), _("Shuffler"), _("Trump"), _("Inversions, notes")]


def sheet_context(match: Match, printed_at: datetime.datetime | None = None, *,
                  confirmations: dict[str, str] | None = None, check: dict | None = None) -> dict:
    """protocol.sheet.page's keys, and the sheet's own: the settings (``facts``, ``agreements``),
    the Partie and each Stechen (``sections``), the results with the Stechen's totals."""
    landscape = len(match.players) > PORTRAIT_MAX_PLAYERS
    counted = sum(1 for g in match.games if g.stage == 0 and not g.annulled)  # Art. 17c: the Partie's own
    page = match_page(match, printed_at=printed_at, landscape=landscape, chart_mm=(_content_width(landscape), 64),
                      confirmations=confirmations, check=check, counted_games=counted)
    return page | {
        "facts": _setting_facts(match.settings.as_json(), _differences(match)),
        "agreements": _agreements(match),
        "sections": _sections(match),
        "heads": heads(),
        "tiebreak_per_player": TIEBREAK_POINTS_PER_PLAYER,
        "tiebreak_games": sum(1 for g in match.games if g.stage),
        "results": _results(match),
        "next_shuffler": match.next_shuffler,
    }


def _sections(match: Match) -> list[Section]:
    """Split the rows where each Stechen begins; rows stay in the order they happened."""
    players = match.players
    records = {g.event: g for g in match.games}
    sanctions = {s.event: s for s in match.sanctions}
    stages = match.stages
    landscape = len(players) > PORTRAIT_MAX_PLAYERS
    current = Section(0, list(players), stages[0].limit, stages[0].winner, landscape=landscape)
    sections = [current]
    for row in PLUGIN.rows(match):
        if row.kind == "stechen":
            stage = stages[row.stage]
            current = Section(stage.depth, list(stage.players), stage.limit, stage.winner,
                              opened_after_game=stage.opened_after_game, landscape=landscape)
            sections.append(current)
            continue
        columns = [players.index(p) for p in current.players]
        if row.kind == "game":
            current.rows.append(_game_row(row, records[row.position], columns))
        elif row.kind == "sanction":
            sanction = sanctions[row.position]
            text = row.text
            if sanction.decided_by:
                text += " – " + _("decided by %(names)s (SV 3)") % {"names": ", ".join(sanction.decided_by)}
            cells = [Cell(playing=True, score=number(row.cells[i].score) if row.cells[i].score else "",
                          negative_score=bool(row.cells[i].score)) for i in columns]
            current.rows.append(SheetRow("sanction", text=text, cells=cells, sanction=sanction.kind))
        else:
            current.rows.append(SheetRow("note", text=row.text))
    for section in sections:
        section.columns = [{"name": p, "colour": _colour(players.index(p)), "winner": p == match.winner,
                            "disqualified": p in match.disqualified} for p in section.players]
        totals = stages[section.stage].totals
        section.totals = [Cell(playing=True, total=number(totals[p]), negative_total=totals[p] < 0)
                          for p in section.players]
    return sections


def _game_row(row, record: GameRecord, columns: list[int]) -> SheetRow:
    cells = []
    for i in columns:
        cell = row.cells[i]
        if not cell.playing or cell.score is None:
            cells.append(Cell(playing=cell.playing))
            continue
        cells.append(Cell(playing=True, score=signed(cell.score), total=number(cell.total),
                          negative_score=cell.score < 0, negative_total=cell.total < 0, bonus=cell.bonus))
    trump, level = _trump_parts(record.trump)
    selected = record.selected_trump.label if record.inversions and record.selected_trump else ""  # before Art. 11
    return SheetRow(
        "game", number=row.number, shuffler=row.shuffler or "", trump=trump, level=level, selected=selected,
        inversions=[f"{inv.player}: {_short_kind(inv.recognised)} → {inv.target.label}" for inv in record.inversions],
        cells=cells, annulled=row.annulled, text=record.annul_reason if row.annulled else "",
        points_only=_(record.explanation) if record.points_only else "")  # the engine's words, translated


def _trump_parts(trump: Trump | None) -> tuple[str, str]:
    """("Pik", "Spielfarbe"), ("Zehn", "Wert"), ("Karo Dame", "Karte"): value and level."""
    if trump is None:
        return "–", ""
    value = RANK_NAMES[trump.value] if trump.level == "rank" else trump.label
    return value, LEVEL_NAMES[trump.level]


def _short_kind(kind: str) -> str:
    """"Totalultrainversion" -> "Totalultra": the cell is narrow, the column says what it is."""
    return KIND_NAMES[kind].removesuffix("inversion")


def _results(match: Match) -> list[dict]:
    """The final totals per player: the Partie's and those of each Stechen he played."""
    sanctions: dict[str, list[str]] = {p: [] for p in match.players}
    for s in match.sanctions:
        sanctions[s.player].append(sanction_word(s.kind) + (f" {number(-s.points)}" if s.points else ""))
    rows = []
    for seat, player in enumerate(match.players):
        total = match.totals[player]
        rows.append({
            "player": player,
            "colour": _colour(seat),
            "total": number(total), "negative": total < 0,
            "tiebreaks": [number(t.totals[player]) if player in t.players else "" for t in match.tiebreaks],
            "winner": player == match.winner,
            "disqualified": player in match.disqualified,
            "sanctions": ", ".join(sanctions[player]),
        })
    return rows


def _agreements(match: Match) -> list[dict]:
    """The settings that differ from the Regelwerk, each with the rule that allows it."""
    differs = _differences(match)
    defaults = default_settings(len(match.players))
    facts = {f["key"]: f for f in _setting_facts(match.settings.as_json(), differs)}
    return [{"label": facts[key]["label"], "value": facts[key]["value"],
             "rule": _setting_value(key, defaults[key]), "basis": facts[key]["basis"]}
            for key in differs]


def _differences(match: Match) -> dict:
    return differences_from_rules(match.settings, len(match.players))


def _setting_facts(values: dict, differs: dict) -> list[dict]:
    """The match settings as the header prints them (label, value, article)."""
    labels = {
        "limit": (_("Upper limit"), "Art. 17a"),
        "decks": (_("Decks"), "Art. 3b, NÜV 1"),
        "cards_per_deal": (_("Cards per deal"), "Art. 7, NÜV 2"),
        "no_trump_points": (_("No trump in tricks"), "Art. 16a, NÜV 5"),
        "no_trick_points": (_("No trick"), "Art. 16a, NÜV 5"),
        "scorekeeper_skips_shuffling": (_("Scorekeeper exempt from shuffling"), "Art. 5c"),
        "max_games": (_("Limited to games"), "Art. 17c"),
    }
    facts = []
    for key, (label, basis) in labels.items():
        if key in ("scorekeeper_skips_shuffling", "max_games") and key not in differs:
            continue  # the Regelwerk's "no": nothing to print
        facts.append({"key": key, "label": label, "basis": basis, "differs": key in differs,
                      "value": _setting_value(key, values[key])})
    return facts


def _setting_value(key: str, value) -> str:
    if key == "cards_per_deal":
        return _("%(n)s (hand of %(hand)s)") % {"n": value, "hand": 2 * value}
    if key in ("no_trump_points", "no_trick_points"):
        return number(value)
    if key == "scorekeeper_skips_shuffling":
        return _("yes") if value else _("no")
    if key == "max_games":
        return str(value) if value else _("none")
    return str(value)


# -- the blank sheet ------------------------------------------------------------------------

def render_blank(players: list[str], scorekeeper: str | None = None, games: int | None = None, *,
                 club: str = "", place: str = "", date: datetime.date | None = None,
                 printed_at: datetime.datetime | None = None) -> bytes:
    """The empty Spielprotokollblatt for 2 to 8 players as PDF bytes.

    ``players`` is the seating order, clockwise; an empty name leaves its line to be
    written in. The Mischer of every row is printed (Art. 5b): the player left of the
    Protokollant first, then clockwise; without a Protokollant the first player keeps it.
    ``games`` rows (40 by default).
    """
    games = 40 if games is None else games
    context = blank_context(players, scorekeeper, games, club=club, place=place, date=date,
                            printed_at=printed_at)
    return html_to_pdf(render_to_string("chaotentrumpf/print_blank.html", context))


def blank_context(players: list[str], scorekeeper: str | None = None, games: int = 40, *,
                  club: str = "", place: str = "", date: datetime.date | None = None,
                  printed_at: datetime.datetime | None = None) -> dict:
    names = [(p or "").strip() for p in players]
    if not BLANK_MIN_PLAYERS <= len(names) <= BLANK_MAX_PLAYERS:
        raise ValueError(f"Ein leeres Blatt ist für {BLANK_MIN_PLAYERS} bis {BLANK_MAX_PLAYERS} Spieler, nicht {len(names)}.")
    named = [n for n in names if n]
    if len(set(named)) != len(named):
        raise ValueError("Jeder Name darf nur einmal vorkommen.")
    if scorekeeper and scorekeeper not in names:
        raise ValueError(f"Der Protokollant {scorekeeper} muss einer der Spieler sein (Art. 4).")
    keeper = names.index(scorekeeper) if scorekeeper else 0  # Art. 4: else the first player keeps it
    labels = [n or _("Seat %(n)s") % {"n": i + 1} for i, n in enumerate(names)]
    count = len(names)
    order = shuffling_order(labels, labels[keeper], games)  # Art. 5b, from the rules engine
    landscape = count > PORTRAIT_MAX_PLAYERS
    page = blank_page(names, keeper, landscape=landscape, club=club, place=place, date=date, printed_at=printed_at)
    return page | {
        "scorekeeper_seat": keeper + 1,
        "heads": heads(),
        "widths": column_widths(count, landscape, notes_max=36),
        "facts": [f for f in _setting_facts(default_settings(count), {}) if f["key"] != "limit"],
        "limit_min": LIMIT_MIN,
        "limit_min_many": LIMIT_MIN_MANY_PLAYERS,
        "rows": [{"number": k, "shuffler": name} for k, name in enumerate(order, start=1)],
        "tiebreak_rows": range(5),
        "tiebreak_columns": range(min(count, 4)),
        "sanction_rows": range(4),
        "sanction_mm": (14, 26, 28, 16, 40),  # after game, player, kind, deduction, decided by
        "reference": _reference(count),
    }


def _reference(players: int) -> dict:
    """What a Protokollant looks up during the evening, from the engine's own tables."""
    return {
        "card_points": [(RANK_NAMES[r], POINTS[r]) for r in reversed(RANKS) if POINTS[r]]
        + [(", ".join(RANK_NAMES[r] for r in reversed(RANKS) if not POINTS[r]), 0)],
        "decks": [(n, decks_for_players(n)) for n in range(2, 11)],
        "bonus": [  # Art. 16b, per Trumpfebene
            (LEVEL_NAMES["colour"], ", ".join(f"{v} +{TRUMP_BONUS[('colour', v)]}" for v in ("rot", "schwarz"))),
            (LEVEL_NAMES["suit"], ", ".join(f"{v} +{TRUMP_BONUS[('suit', v)]}" for v in ("Karo", "Herz", "Pik", "Kreuz"))),
            (LEVEL_NAMES["rank"], f"Augen × {RANK_FACTOR}"),
        ],
        "ultra_factor": FACTOR["ultra"],
        "totalultra_factor": FACTOR["totalultra"],
        "no_trump": number(default_settings(players)["no_trump_points"]),
        "no_trick": number(default_settings(players)["no_trick_points"]),
        "tiebreak_per_player": TIEBREAK_POINTS_PER_PLAYER,
    }


# -- shared ---------------------------------------------------------------------------------

def column_widths(players: int, landscape: bool, notes_max: float = 62) -> dict[str, str]:
    """The CSS widths of the table's first columns; the players' columns share the rest.

    A player needs about 20 mm (score and total, "+1560" and "−1200"); the notes column
    (inversions, annulment) takes what is left up to ``notes_max``, so that most rows stay
    one line (a blank sheet keeps more room for handwritten numbers instead).
    """
    return list_widths({"number": 7.0, "shuffler": 17.0, "trump": 25.0}, players, 20, notes_max=notes_max,
                       notes_min=20, landscape=landscape)
