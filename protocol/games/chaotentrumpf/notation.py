"""The shorthand a secretary types when transcribing a paper protocol ("Protokoll nachtragen").

Pure Python, no Django: it turns the text of one grid cell into the ``protocol/1`` pieces the
rules engine reads, or a :class:`NotationError` with a German sentence. It checks only that
the text can be *read*; whether what it says is allowed (Art. 9, 11, SV ...) is the rules
engine's question, never answered here.

The entry cell (first cell of a row), upper or lower case, words separated by spaces:

=============================  =================================================================
``P``, ``rot``, ``A``, ``Kö``   a Spiel with this trump (the trump after the Trumpfwahl):
                                Farbe ``r``/``rot``, ``s``/``schwarz``;
                                Spielfarbe ``X``/``Kreuz``, ``P``/``Pik``, ``H``/``Herz``, ``K``/``Karo``;
                                Wert ``A``/``As``, ``10``, ``Kö``/``König``, ``D``/``Dame``, ``B``/``Bube``,
                                ``9``, ``8``, ``7``
``X8 H8 P7``                    a Spiel with the revealed cards of its Trumpfwahl (the engine derives
                                the trump); ``=`` at the end: the players agreed on the last card
``A P Karten falsch``           an annulled Spiel: ``A``, its trump, the reason (SV 4)
``S 3 200 Karte getauscht``     a Strafe: player, points, reason (SV 3)
``V Carla falsch bedient``      a Verwarnung: player, reason (SV 2)
``D 3 wiederholt``              a Disqualifikation: player, reason (SV 3)
``E`` / ``E v``                 the end by time / by agreement (Art. 17c)
=============================  =================================================================

``K`` alone is the Spielfarbe Karo (as the first letter of a card); the Wert König is ``Kö``.
A card is written as in the Hinweise: suit letter, then the rank (``KD`` Karo Dame,
``X10`` Kreuz Zehn, ``HK`` Herz König). ``s``, ``a`` and ``d`` alone are trumps
(schwarz, As, Dame); followed by more words they start a Strafe, annulment, Disqualifikation.

A player is his seat number (1 is the first in the seating order) or the start of his name.

The inversions cell: ``<player> <kind> <target>``, several separated by commas, in the order
announced; kinds ``n`` normal, ``t`` total, ``u`` ultra, ``tu`` totalultra; the target in
the trump notation, or a card after a Totalultrainversion. ``2 n H``, ``2nH``, ``B tu KD``.

A row typed as points only (transcribed_rows.py) has one cell per player, his points
(``-200`` or ``−200`` for a negative score), and may leave the entry cell empty when the
Punktetabelle names no trump.

``write_entry`` and ``write_inversions`` go the other way (an event -> what one would type);
reading what they write gives the event back.

The same Spiel spelled out, as the season workbook's cells hold it (``league.spreadsheets``)
for a reader who types nothing: the trump as the sheet names it (``Pik``, ``Wert Zehn``,
``Karo Dame``: :func:`write_trump_label` / :func:`read_trump_label`), the Trumpfwahl
``X8 H8 P7`` with ``(Einigung)`` when the players agreed on the last card (``=`` is read too:
:func:`write_selection` / :func:`read_selection`), and the inversions as a chain from the
trump before them, each as announced: ``Herz → Pik (Bernd, Normalinversion)``
(:func:`write_inversion_chain` / :func:`read_inversion_chain`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from protocol.games.chaotentrumpf.rules.cards import deck, parse_card
from protocol.games.chaotentrumpf.rules.inversion import KIND_NAMES
from protocol.games.chaotentrumpf.rules.trump import LEVEL_VALUES, Trump

# token (lower case) -> (level, value) of the protocol format
TRUMP_WORDS: dict[str, tuple[str, str]] = {
    "r": ("colour", "rot"), "rot": ("colour", "rot"),
    "s": ("colour", "schwarz"), "schw": ("colour", "schwarz"), "schwarz": ("colour", "schwarz"),
    "x": ("suit", "Kreuz"), "kreuz": ("suit", "Kreuz"),
    "p": ("suit", "Pik"), "pik": ("suit", "Pik"),
    "h": ("suit", "Herz"), "herz": ("suit", "Herz"),
    "k": ("suit", "Karo"), "karo": ("suit", "Karo"),
    "a": ("rank", "A"), "as": ("rank", "A"), "ass": ("rank", "A"),
    "10": ("rank", "10"), "zehn": ("rank", "10"),
    "kö": ("rank", "K"), "koe": ("rank", "K"), "könig": ("rank", "K"), "koenig": ("rank", "K"),
    "d": ("rank", "D"), "dame": ("rank", "D"),
    "b": ("rank", "B"), "bube": ("rank", "B"),
    "9": ("rank", "9"), "neun": ("rank", "9"),
    "8": ("rank", "8"), "acht": ("rank", "8"),
    "7": ("rank", "7"), "sieben": ("rank", "7"),
}
ENTRY_KINDS = {
    "s": "penalty", "strafe": "penalty",
    "v": "warning", "verwarnung": "warning",
    "d": "disqualification", "disq": "disqualification", "disqualifikation": "disqualification",
    "e": "end", "ende": "end",
    "a": "annulled", "ann": "annulled", "annulliert": "annulled",
}
END_WORDS = {"z": "time", "zeit": "time", "v": "agreed", "vereinbart": "agreed", "einigung": "agreed"}
INVERSION_KINDS = {"n": "normal", "normal": "normal", "t": "total", "total": "total",
                   "u": "ultra", "ultra": "ultra", "tu": "totalultra", "totalultra": "totalultra"}
AGREED_MARK = "="

TRUMP_HELP = ("r/rot, s/schwarz; X, P, H, K (Kreuz, Pik, Herz, Karo); A, 10, Kö, D, B, 9, 8, 7 (Werte)")
_KIND_PATTERN = "totalultra|normal|total|ultra|tu|n|t|u"
_INVERSION_BY_SEAT = re.compile(rf"(\d+)\s*({_KIND_PATTERN})\s*(\S+)", re.IGNORECASE)
_INVERSION_BY_NAME = re.compile(rf"(\S+)\s+({_KIND_PATTERN})\s*(\S+)", re.IGNORECASE)
_SEPARATORS = re.compile(r"[,;]")


class NotationError(ValueError):
    """The text can't be read; ``message`` is a German sentence for the secretary."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


@dataclass
class Entry:
    """What an entry cell says: ``kind`` is an event of ``protocol/1`` (``game``, ``penalty``,
    ``warning``, ``disqualification``, ``end``) and ``body`` its body so far (a Spiel without
    results and inversions, a Strafe without ``decided_by``)."""

    kind: str
    body: dict[str, Any] = field(default_factory=dict)

    @property
    def annulled(self) -> bool:
        return self.kind == "game" and bool(self.body.get("annulled"))


# -- trumps and cards ----------------------------------------------------------------------

def read_trump(token: str) -> dict[str, str]:
    """A trump on the levels Farbe, Spielfarbe, Wert: ``"P"`` -> ``{"level": "suit", "value": "Pik"}``."""
    word = TRUMP_WORDS.get(token.strip().lower())
    if word is not None:
        return {"level": word[0], "value": word[1]}
    card = parse_card(token.strip())
    if card is not None:
        raise NotationError(
            f"„{token}“ ist eine einzelne Karte ({card.name}); Trumpf wird eine Karte nur durch eine "
            "Totalultrainversion (Art. 11b). Für die Trumpfwahl alle aufgedeckten Karten eintragen, "
            "z. B. „X8 H8 P7“; Karo allein ist „K“.")
    raise NotationError(f"„{token}“ ist kein Trumpf. Möglich: {TRUMP_HELP}; oder die aufgedeckten Karten "
                        "der Trumpfwahl wie „X8 H8 P7“ (Art. 9).")


def read_target(token: str) -> dict[str, str]:
    """The new trump of an inversion: a trump as above, or a single card (``KD``, Art. 11b)."""
    if token.strip().lower() in TRUMP_WORDS:
        return read_trump(token)
    card = parse_card(token.strip())
    if card is not None:
        return {"level": "card", "value": card.code}
    raise NotationError(f"„{token}“ ist kein Inversionsziel. Möglich: {TRUMP_HELP}; nach einer "
                        "Totalultrainversion auch eine Karte wie „KD“ (Karo Dame) (Art. 11b).")


def _card_code(token: str) -> str | None:
    card = parse_card(token)
    return card.code if card is not None and token.lower() not in TRUMP_WORDS else None


def read_trump_part(tokens: list[str]) -> tuple[dict[str, Any], list[str]]:
    """The trump at the start of ``tokens``: one trump word, or the cards of a Trumpfwahl.

    Answers the Spiel's ``trump`` or ``selection`` and the tokens after it.
    """
    if not tokens:
        raise NotationError(f"Der Trumpf fehlt: {TRUMP_HELP}; oder die aufgedeckten Karten wie „X8 H8 P7“ (Art. 9).")
    cards: list[str] = []
    agreed, used = False, 0
    for token in tokens:
        if token == AGREED_MARK:
            agreed, used = bool(cards), used + 1
            break
        code = _card_code(token.removesuffix(AGREED_MARK))
        if code is None:
            break
        cards.append(code)
        used += 1
        if token.endswith(AGREED_MARK):
            agreed = True
            break
    if len(cards) > 1 or (cards and agreed):
        return {"selection": {"cards": cards, "agreed": agreed}}, tokens[used:]
    return {"trump": read_trump(tokens[0])}, tokens[1:]


# -- numbers -------------------------------------------------------------------------------

MAX_DIGITS = 6  # no count or Strafe on a protocol has more; a longer number is a typing error


def _is_number(text: str, max_digits: int | None = None) -> bool:
    """Digits 0-9 only (``str.isdigit`` also takes "²" and other digits ``int`` refuses),
    at most ``max_digits`` of them."""
    return text.isascii() and text.isdigit() and (max_digits is None or len(text) <= max_digits)


# -- players -------------------------------------------------------------------------------

def read_player(token: str, players: list[str]) -> str:
    """A player by seat number (1 = first in the seating order) or by the start of the name."""
    text = token.strip()
    if not text:
        raise NotationError("Der Spieler fehlt: Platznummer oder Namensanfang angeben.")
    if _is_number(text):
        seat = int(text)
        if 1 <= seat <= len(players):
            return players[seat - 1]
        raise NotationError(f"Platz {seat} gibt es nicht: es spielen {len(players)} Spieler (Plätze 1 bis {len(players)}).")
    lowered = text.casefold()
    exact = [p for p in players if p.casefold() == lowered]
    if exact:
        return exact[0]
    matches = [p for p in players if p.casefold().startswith(lowered)]
    if len(matches) == 1:
        return matches[0]
    if matches:
        names = " und ".join(", ".join(matches).rsplit(", ", 1))
        raise NotationError(f"„{text}“ passt zu {names}: mehr Buchstaben oder die Platznummer angeben.")
    raise NotationError(f"„{text}“ spielt nicht mit: Platznummer (1 bis {len(players)}) oder Namensanfang "
                        f"angeben ({', '.join(players)}).")


# -- the entry cell ------------------------------------------------------------------------

def read_entry(text: str, players: list[str], trump_required: bool = True) -> Entry:
    """The first cell of a row: a Spiel (its trump), or a Strafe, Verwarnung, Disqualifikation,
    an annulled Spiel or the end (see the module's table). Empty: a Spiel whose trump was not
    noted, where that may be (``trump_required=False``: a Spiel typed as points only)."""
    tokens = text.split()
    if not tokens and not trump_required:
        return Entry("game", {})
    if not tokens:
        raise NotationError("Die Zeile ist leer: Trumpf oder S, V, D, A, E eintragen.")
    first = tokens[0].lower()
    kind = ENTRY_KINDS.get(first)
    if kind is None or (len(tokens) == 1 and first in TRUMP_WORDS):
        trump, rest = read_trump_part(tokens)
        if rest:
            raise NotationError(f"Nach dem Trumpf steht noch „{' '.join(rest)}“. Inversionen gehören in ihr "
                                "eigenes Feld, ein annulliertes Spiel beginnt mit „A“.")
        return Entry("game", trump)
    args = tokens[1:]
    if kind == "end":
        return _read_end(args)
    if kind == "annulled":
        return _read_annulled(args)
    if kind == "penalty":
        return _read_penalty(args, players)
    example = {"warning": "„V 2 falsch bedient“", "disqualification": "„D 3 wiederholtes Falschspiel“"}[kind]
    if not args:
        name = "Die Verwarnung" if kind == "warning" else "Die Disqualifikation"
        raise NotationError(f"{name} braucht den Spieler und den Grund, z. B. {example} (SV 2, 3).")
    return Entry(kind, {"player": read_player(args[0], players), "reason": " ".join(args[1:])})


def _read_end(args: list[str]) -> Entry:
    if not args:
        return Entry("end", {"reason": "time"})
    reason = END_WORDS.get(args[0].lower())
    if reason is None or len(args) > 1:
        raise NotationError("Das Ende ist „E“ (Zeitbegrenzung) oder „E v“ (vereinbartes Ende) (Art. 17c).")
    return Entry("end", {"reason": reason})


def _read_annulled(args: list[str]) -> Entry:
    example = "z. B. „A P Karten falsch gegeben“"
    if not args:
        raise NotationError(f"Ein annulliertes Spiel braucht seinen Trumpf und den Grund, {example} (SV 4).")
    trump, rest = read_trump_part(args)
    if not rest:
        raise NotationError(f"Der Grund der Annullierung fehlt, {example} (SV 4).")
    return Entry("game", trump | {"annulled": True, "annul_reason": " ".join(rest)})


def _read_penalty(args: list[str], players: list[str]) -> Entry:
    example = "z. B. „S 3 200 Karte verdeckt getauscht“"
    if len(args) < 2:
        raise NotationError(f"Eine Strafe braucht Spieler, Punkte und Grund, {example} (SV 3).")
    player = read_player(args[0], players)
    amount = args[1].lstrip("-−")
    if not _is_number(amount, MAX_DIGITS):
        raise NotationError(f"„{args[1]}“ sind keine Strafpunkte: erst der Spieler, dann die Punkte, dann der Grund, "
                            f"{example} (SV 3).")
    return Entry("penalty", {"player": player, "points": int(amount), "reason": " ".join(args[2:])})


# -- the inversions cell -------------------------------------------------------------------

def read_inversions(text: str, players: list[str]) -> list[dict[str, Any]]:
    """``"2 n H, B tu KD"`` -> the ``inversions`` of a Spiel, in the order announced."""
    inversions = []
    for part in _SEPARATORS.split(text):
        item = part.strip()
        if not item:
            continue
        found = _INVERSION_BY_SEAT.fullmatch(item) or _INVERSION_BY_NAME.fullmatch(item)
        if found is None:
            raise NotationError(
                f"Inversion „{item}“: Spieler, Art und neuer Trumpf, z. B. „2 n H“ (Platz 2, Normalinversion "
                "auf Herz); Arten n, t, u, tu; mehrere durch Komma getrennt (Art. 11).")
        who, kind, target = found.groups()
        inversions.append({"player": read_player(who, players),
                           "declared": INVERSION_KINDS[kind.lower()],
                           "target": read_target(target)})
    return inversions


# -- the number cells ----------------------------------------------------------------------

def read_count(text: str) -> int | str | None:
    """Stiche, Augen, Trümpfe: a whole number; None when empty. Anything else is handed on as
    typed, so the rules engine names the field ("eine ganze Zahl ab 0 eintragen")."""
    value = text.strip()
    if not value:
        return None
    return int(value) if _is_number(value, MAX_DIGITS) else value


def read_points(text: str) -> int | str | None:
    """A player's points in a row typed as points only: a whole number, negative with ``-``
    or ``−``; None when empty. Anything else is handed on as typed, so the rules engine names
    the cell ("eine ganze Zahl eintragen")."""
    value = text.strip()
    if not value:
        return None
    digits = value.removeprefix("-").removeprefix("−").strip()
    if not _is_number(digits, MAX_DIGITS):
        return value
    return -int(digits) if digits != value else int(digits)


# -- writing: the shorthand of a protocol/1 event (what a secretary would type) ----------------

_TRUMP_TOKENS = {("colour", "rot"): "r", ("colour", "schwarz"): "s",
                 ("suit", "Kreuz"): "X", ("suit", "Pik"): "P", ("suit", "Herz"): "H", ("suit", "Karo"): "K",
                 ("rank", "K"): "Kö"}
_KIND_TOKENS = {"normal": "n", "total": "t", "ultra": "u", "totalultra": "tu"}
_ENTRY_LETTERS = {"penalty": "S", "warning": "V", "disqualification": "D"}


def write_trump(trump: dict[str, str]) -> str:
    """``{"level": "suit", "value": "Pik"}`` -> ``"P"``; a card stays its code (``"KD"``)."""
    return _TRUMP_TOKENS.get((trump["level"], trump["value"]), trump["value"])


def write_entry(kind: str, body: dict[str, Any], players: list[str], *, cards: bool = False) -> str:
    """The entry cell of an event. A Spiel is written with its trump, or with ``cards=True``
    (or when it has no trump) with the revealed cards of its Trumpfwahl."""
    if kind == "game":
        selection = body.get("selection")
        if selection and (cards or not body.get("trump")):
            text = " ".join(selection["cards"]) + (AGREED_MARK if selection.get("agreed") else "")
        else:
            text = write_trump(body["trump"])
        return f"A {text} {body.get('annul_reason', '')}".rstrip() if body.get("annulled") else text
    if kind == "end":
        return "E" if body.get("reason") == "time" else "E v"
    seat = players.index(body["player"]) + 1
    if kind == "penalty":
        return f"S {seat} {body['points']} {body['reason']}"
    return f"{_ENTRY_LETTERS[kind]} {seat} {body['reason']}"


def write_inversions(inversions: list[dict[str, Any]], players: list[str]) -> str:
    """``[{"player": "Bernd", "declared": "normal", "target": {...Herz}}]`` -> ``"2 n H"``."""
    return ", ".join(f"{players.index(inv['player']) + 1} {_KIND_TOKENS[inv['declared']]} {write_trump(inv['target'])}"
                     for inv in inversions)


# -- the spelled-out form: the season workbook's Trumpf, Aufgedeckte Karten, Inversionen --------

AGREED_WORD = "Einigung"  # Art. 9b; German like the engine's trump and inversion names in the same cells
AGREED_WORDS = {AGREED_WORD.casefold(), "einigung auf die letzte karte", "agreed"}
ARROW = " → "
_ARROWS = ("→", "->")
# "pik", "wert zehn", "karo dame": every trump by the name the sheet prints (Trump.label)
TRUMP_LABELS = {trump.label.casefold(): trump for trump in (
    [Trump(level, value) for level, values in LEVEL_VALUES.items() for value in values]
    + [Trump("card", card.code) for card in deck()])}
INVERSION_NAMES = {name.casefold(): kind for kind, name in KIND_NAMES.items()} | {k: k for k in KIND_NAMES}


def _folded(text: str) -> str:
    return " ".join(text.split()).casefold()


def write_trump_label(trump: dict[str, str]) -> str:
    """``{"level": "rank", "value": "10"}`` -> ``"Wert Zehn"``, as the sheet names it."""
    return Trump(trump["level"], trump["value"]).label


def read_trump_label(text: str) -> dict[str, str]:
    """``"Wert Zehn"`` -> ``{"level": "rank", "value": "10"}``; a card trump (after a
    Totalultrainversion) by its name, ``"Karo Dame"``."""
    trump = TRUMP_LABELS.get(_folded(text))
    if trump is None:
        raise NotationError(f"„{text}“ ist kein Trumpf: so schreiben, wie das Blatt ihn nennt, "
                            "z. B. „rot“, „Pik“, „Wert Zehn“, „Karo Dame“.")
    return trump.as_json()


def write_selection(selection: dict[str, Any]) -> str:
    """The Trumpfwahl's cards in order: ``"X8 H8 P7"``, ``"XA KA (Einigung)"`` (Art. 9b)."""
    text = " ".join(selection["cards"])
    return f"{text} ({AGREED_WORD})" if selection.get("agreed") else text


def read_selection(text: str) -> dict[str, Any]:
    """``"X8 H8 P7"`` / ``"XA KA (Einigung)"`` / ``"XA KA="`` -> ``{"cards": [...], "agreed": ...}``.
    The cards are read as written (upper case); whether they are cards is the engine's to say."""
    cards, marker = text.strip(), None
    if cards.endswith(")") and "(" in cards:
        cards, _, marker = cards[:-1].rpartition("(")
    elif cards.endswith(AGREED_MARK):
        cards, marker = cards.removesuffix(AGREED_MARK), AGREED_WORD
    if "(" in cards or ")" in cards or (marker is not None and _folded(marker) not in AGREED_WORDS):
        raise NotationError(f"„{text}“ ist keine Trumpfwahl: die aufgedeckten Karten der Reihe nach, "
                            f"z. B. „X8 H8 P7“, bei Einigung „({AGREED_WORD})“ dahinter (Art. 9).")
    found = [card.upper() for card in cards.replace(",", " ").replace(";", " ").split()]
    return {"cards": found, "agreed": marker is not None}


def write_inversion_chain(start: dict[str, str], inversions: list[dict[str, Any]]) -> str:
    """The trump before the inversions, then each as announced (Art. 11):
    ``"Herz → Pik (Bernd, Normalinversion) → Wert As (Carla, Ultrainversion)"``."""
    steps = [write_trump_label(start)]
    steps += [f"{write_trump_label(inv['target'])} ({inv['player']}, {KIND_NAMES[inv['declared']]})"
              for inv in inversions]
    return ARROW.join(steps)


def read_inversion_chain(text: str) -> tuple[dict[str, str], list[dict[str, Any]]]:
    """:func:`write_inversion_chain` read back: (the trump before them, the ``inversions``)."""
    parts = [text]
    for arrow in _ARROWS:
        parts = [piece.strip() for part in parts for piece in part.split(arrow)]
    problem = NotationError(f"„{text}“ lässt sich nicht als Inversionen lesen: erst der Trumpf davor, dann jede "
                            "wie angesagt, z. B. „Herz → Pik (Bernd, Normalinversion)“ (Art. 11).")
    if len(parts) < 2:
        raise problem
    try:
        start = read_trump_label(parts[0])
    except NotationError:
        raise problem from None
    inversions = []
    for part in parts[1:]:
        target, _, inside = part.partition("(")
        player, _, kind = inside.removesuffix(")").rpartition(",")
        declared = INVERSION_NAMES.get(_folded(kind))
        if not part.endswith(")") or not player.strip() or declared is None:
            raise problem
        try:
            inversions.append({"player": player.strip(), "declared": declared, "target": read_trump_label(target)})
        except NotationError:
            raise problem from None
    return start, inversions
