"""The words people read for the keys of a protocol document (pure Python, no Django).

*Field words*: a JSON key of a game body, a Strafe or the settings -> the German word the
sheet and the forms use ("points" -> "Augen" in Chaotentrumpf, "Punkte" in Tarot); None
leaves the key out of a sentence, "" says only its value ("Trumpf Herz"). Each
game keeps its own small vocabulary beside its rules (``<game>/vocabulary.py``); the words
every game shares (the entries that are not games, the end reasons) live here.
*Value words*: a stored value -> its German word ("re" -> "Re", True -> "ja").
"""

from __future__ import annotations

from .tally import END_REASONS
from .words import N_, Text

# The kinds of entry, as a sentence names them ("Strafe eingetragen").
ENTRY_WORDS = {
    "game": N_("Spiel"),
    "penalty": N_("Strafe"),
    "warning": N_("Verwarnung"),
    "disqualification": N_("Disqualifikation"),
    "end": N_("Ende der Partie"),
    "annul_match": N_("Annullierung der Partie"),
}

# The keys every entry that is not a game carries (the tally's events, docs/protocol-format.md).
SHARED_FIELDS = {
    "player": N_("Spieler"),
    "points": N_("Punkte"),
    "reason": N_("Grund"),
    "decided_by": N_("entschieden von"),
    "annulled": N_("annulliert"),
    "annul_reason": N_("Grund der Annullierung"),
    "dealer": N_("Geber"),
    "max_games": N_("höchstens Spiele"),
}

SHARED_VALUES = {True: N_("ja"), False: N_("nein"), None: "–", **END_REASONS}


def field_word(vocabulary: dict[str, str | None], key: str) -> str:
    """The German word of ``key``: the game's own word, the shared one, else the key itself."""
    return vocabulary.get(key) or SHARED_FIELDS.get(key) or key


MINUS = "\u2212"  # a real minus sign, as wide as the plus


def number(value: int | None) -> str:
    """A number as the sheets, pages and messages write it: -44 -> "−44" (a real minus sign),
    71 -> "71", None -> ""."""
    if value is None:
        return ""
    return f"{MINUS}{-value}" if value < 0 else str(value)


def decimal(value: float) -> Text:
    """A number with at most one decimal in the reader's notation (Tarot's half points): 49 ->
    "49"; 40.5 -> "40,5" in German (the engine's text), "40.5" where the site reads English."""
    if value == int(value):
        return Text("%(n)s", n=int(value))
    units, tenth = f"{abs(value):.1f}".split(".")
    return Text(N_("%(sign)s%(units)s,%(tenth)s"), sign=MINUS if value < 0 else "", units=units, tenth=tenth)


def signed(value: int | None) -> str:
    """A score with its sign: 71 -> "+71", -44 -> "−44", 0 -> "0", None -> ""."""
    return f"+{value}" if value is not None and value > 0 else number(value)


def counted(n: int, one: str, many: str) -> Text:
    """A number with its noun in the right form, translatable (``%(n)s`` is the number):
    ``counted(1, N_("%(n)s Stich"), N_("%(n)s Stiche"))`` -> "1 Stich", with 2 -> "2 Stiche"
    (German, like English, uses the singular for 1 only)."""
    return Text(one if n == 1 else many, n=n)
