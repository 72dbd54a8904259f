"""Free text as the site stores it: the one boundary every name, reason and note passes.

Pure Python (no Django): the rules engine checks the names and reasons inside a protocol
document with it, and the site's forms, imports and ``check_texts`` use the same functions
(``league.registry.texts`` is the thin Django layer).

Vocabulary:

- *name*: one line that tells a person, club, season or place apart (players, members,
  guests). *Multi-line text*: a reason or a note (tab, newline and carriage return allowed).
- *control character*: Unicode category Cc (U+0000–U+001F, U+007F–U+009F). NUL (U+0000)
  can't be stored in PostgreSQL at all; the others break spreadsheets (openpyxl refuses them)
  and are invisible on the page.
- *lone surrogate*: U+D800–U+DFFF on its own. JSON can spell one ("\\ud800"), but no text
  file or database can store it.
- *bidi control*: the embeddings, overrides and isolates of Unicode's bidirectional
  algorithm (U+202A–U+202E, U+2066–U+2069). Invisible themselves, they turn the text after
  them around on a table or sheet ("Anna\u202e001" reads "Anna100"): refused in every text.
- *invisible*: format characters (category Cf: zero-width space and joiners, bidi overrides
  and isolates, soft hyphen, BOM) and whitespace. A name made only of these looks empty.
- *fold*: the key under which two names count as the same for people reading a sheet:
  NFKC, case folded, the common Cyrillic and Greek lookalikes of Latin letters mapped to
  them, invisibles removed, spaces collapsed. "bernd", "Bernd" and "Веrnd" (Cyrillic В, е)
  fold alike.

Every text is stored in Unicode NFC; :func:`normalise` gives that form, :func:`text_problem`
refuses a text that is not in it (the entry points normalise before they check).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator
from typing import Any

from .words import N_, Text

NAME_MAX = 80  # a player, member or guest (Member.name, Seat.name)
REASON_MAX = 500  # a Strafe, Verwarnung, Disqualifikation or annulment reason

MULTILINE_ALLOWED = {"\t", "\n", "\r"}
SURROGATE = re.compile("[\ud800-\udfff]")
# LRE, RLE, PDF, LRO, RLO and LRI, RLI, FSI, PDI (UAX #9); the marks LRM and RLM change no
# order of the text around them and stay allowed.
BIDI_CONTROLS = frozenset(map(chr, [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]))

# Cyrillic and Greek letters that look like Latin ones (after case folding), after
# Unicode's confusables.txt; only the common ones a name could be typed with by mistake.
CONFUSABLES = str.maketrans({
    # Cyrillic
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p",
    "с": "c", "т": "t", "у": "y", "х": "x", "і": "i", "ї": "i", "ј": "j", "ѕ": "s", "һ": "h",
    "ԁ": "d", "ԛ": "q", "ԝ": "w", "ӏ": "l", "ь": "b",
    # Greek
    "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "μ": "u", "ν": "v", "ο": "o",
    "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "ζ": "z",
})


def normalise(text: str) -> str:
    """The text in Unicode NFC (what the site stores)."""
    return unicodedata.normalize("NFC", text)


def normalise_strings(value: Any) -> Any:
    """A JSON value with every string (keys too) in NFC; a file written on a Mac (NFD) then
    names the same players as one typed on the site."""
    if isinstance(value, str):
        return normalise(value)
    if isinstance(value, list):
        return [normalise_strings(v) for v in value]
    if isinstance(value, dict):
        return {normalise_strings(k): normalise_strings(v) for k, v in value.items()}
    return value


def is_invisible(char: str) -> bool:
    return char.isspace() or unicodedata.category(char) == "Cf"


def visible(text: str) -> str:
    """The text without its invisible characters (see the module's vocabulary)."""
    return "".join(c for c in text if not is_invisible(c))


def fold(name: str) -> str:
    """The key under which names count as the same (case, width, lookalike letters)."""
    folded = unicodedata.normalize("NFKC", name).casefold().translate(CONFUSABLES)
    folded = "".join(" " if c.isspace() else c for c in folded if c.isspace() or not is_invisible(c))
    return " ".join(folded.split())


def codepoint(char: str) -> str:
    return f"U+{ord(char):04X}"


def text_problem(text: str, field: str, *, max_length: int | None = None, multiline: bool = False,
                 required: bool = False) -> str | None:
    """What is wrong with a text the site would store, as a German sentence naming ``field``
    (e.g. "Name", "Grund", "Spieler 2"); None if nothing is. The sentence is a
    :class:`~protocol.rules.words.Text`: the site shows it in the reader's language.

    Refused: NUL, lone surrogates, control characters (in multi-line texts tab and line
    breaks are allowed), bidi controls, a text not in NFC, one longer than ``max_length``, and, when
    ``required``, one that is empty once invisible characters are removed.
    """
    if not (text.isascii() and text.isprintable()):  # the common case has none of these
        if problem := _character_problem(text, field, multiline):
            return problem
    if max_length is not None and len(text) > max_length:
        return Text(N_("„%(field)s“ hat höchstens %(most)s Zeichen, nicht %(n)s."), field=field, most=max_length,
                    n=len(text))
    if required and not visible(text):
        if text:
            return Text(N_("„%(field)s“ besteht nur aus unsichtbaren Zeichen; bitte einen lesbaren Text eingeben."),
                        field=field)
        return Text(N_("„%(field)s“ darf nicht leer sein."), field=field)
    return None


def _character_problem(text: str, field: str, multiline: bool) -> str | None:
    if "\x00" in text:
        return Text(N_("„%(field)s“ enthält ein Nullzeichen (U+0000); bitte entfernen."), field=field)
    surrogate = SURROGATE.search(text)
    if surrogate:
        return Text(N_("„%(field)s“ enthält ein ungültiges Zeichen (ein einzelnes Surrogat, %(code)s); "
                       "bitte entfernen."), field=field, code=codepoint(surrogate.group()))
    for char in text:
        if unicodedata.category(char) == "Cc" and not (multiline and char in MULTILINE_ALLOWED):
            return Text(N_("„%(field)s“ enthält ein Steuerzeichen (%(code)s); bitte entfernen."), field=field,
                        code=codepoint(char))
        if char in BIDI_CONTROLS:
            return Text(N_("„%(field)s“ enthält ein Steuerzeichen der Schreibrichtung (%(code)s), das den Text "
                           "danach umgekehrt anzeigen kann; bitte entfernen."), field=field, code=codepoint(char))
    if not unicodedata.is_normalized("NFC", text):
        return Text(N_("„%(field)s“ ist nicht in der Unicode-Normalform NFC."), field=field)
    return None


def name_problem(name: str, field: str = N_("Name"), max_length: int = NAME_MAX) -> str | None:
    """:func:`text_problem` for a name: one line, not empty once invisibles are removed."""
    return text_problem(name, field, max_length=max_length, required=True)


def reason_problem(reason: str, field: str = N_("Grund"), max_length: int = REASON_MAX) -> str | None:
    """:func:`text_problem` for a reason: several lines allowed, not empty."""
    return text_problem(reason, field, max_length=max_length, multiline=True, required=True)


def lookalikes(names: Iterable[str]) -> list[tuple[str, str]]:
    """Each name that folds like an earlier one, as (earlier, later); exact repeats too."""
    seen: dict[str, str] = {}
    pairs = []
    for name in names:
        key = fold(name)
        if key in seen:
            pairs.append((seen[key], name))
        else:
            seen[key] = name
    return pairs


def lookalike_message(first: str, second: str) -> str:
    """Why ``second`` may not stand next to ``first`` (the same name, or one folding like it)."""
    if first == second:
        return Text(N_("„%(name)s“ steht zweimal da; jeder Name darf nur einmal vorkommen."), name=first)
    return Text(N_("„%(second)s“ ist von „%(first)s“ kaum zu unterscheiden (nur Groß-/Kleinschreibung oder "
                   "ähnlich aussehende Buchstaben); bitte die Namen klar unterscheiden, z. B. mit einer Initiale."),
                first=first, second=second)


def _all_fine(value: Any, skip: frozenset[str]) -> bool:
    """Whether no string inside ``value`` (but under a key in ``skip``) has a problem
    (:func:`text_problem`'s verdict does not depend on the field it names)."""
    stack, fine = [value], set()  # the names of the players recur in every entry: each checked once
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if not (item.isascii() and item.isprintable()) and item not in fine:
                if text_problem(item, "Text", multiline=True):
                    return False
                fine.add(item)
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend([entry for key, entry in item.items() if key not in skip])
    return True


def string_problems(value: Any, skip: frozenset[str] = frozenset(), path: tuple = ()
                    ) -> Iterator[tuple[tuple, str]]:
    """Every string inside a JSON value that no text of the site may contain: (path, German
    message). Strings under a key in ``skip`` are left to their own reader; keys are left to
    the readers too (each refuses a key it does not know, or a player not at the table).

    A document whose every string is fine (the usual one) is found so first, in one walk
    without a path per value: the walk that names each value's path took a tenth of the
    engine's time for a stored Partie."""
    if not path and _all_fine(value, skip):
        return
    if isinstance(value, str):
        field = str(path[-1]) if path else "Text"
        problem = text_problem(value, field, multiline=True)
        if problem:
            yield path, problem
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from string_problems(item, skip, (*path, index))
    elif isinstance(value, dict):
        for key, item in value.items():
            if key not in skip:
                yield from string_problems(item, skip, (*path, key))
