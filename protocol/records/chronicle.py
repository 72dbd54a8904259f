"""The history of a Partie as German sentences (pure Python: no Django import).

Vocabulary:

- *Change*: one write to a Partie as ``protocol.models.Change`` keeps it: an ``action``
  (create_match, import_match, transcribe_match, edit_match, add, correct, remove, lot,
  confirm), the
  entry's ``position`` and the ``before``/``after`` documents.
- *Entry*: one event of the Partie (``{kind: body}``); a *Spiel* is an entry of kind
  ``game``. A Strafe, a Verwarnung ... is an entry, never a Spiel: Spiel numbers count games
  only, as the sheet does.
- *Line*: one sentence of the history, e.g. "Spiel 3 korrigiert: Carla Augen 40 → 45,
  Dieter Augen 30 → 25".

The entries as they stood at each change come from replaying the changes backwards from
the entries stored now (add = delete at its position, correct = put back the old body,
remove = insert the old body): so every Spiel number is the one the sheet showed then.
The words of the fields come from each game's vocabulary (``protocol/games/<game>/rules/vocabulary.py``).
Every sentence is a :class:`~protocol.rules.words.Text`: German as data, in the reader's
language where the site shows it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from protocol import games
from protocol.format_order import in_format_order
from protocol.rules.vocabulary import ENTRY_WORDS, SHARED_VALUES, counted, decimal, field_word
from protocol.rules.words import N_, Text, concat, joined

CREATED = {"create_match": N_("Partie angelegt"), "import_match": N_("Partie importiert"),
           "transcribe_match": N_("Partie vom Papierprotokoll übertragen")}
ACTION_WORDS = {"add": N_("eingetragen"), "correct": N_("korrigiert"), "remove": N_("gestrichen")}
AFTER_CONFIRMATION = N_(" (nach einer Bestätigung des Ergebnisses: Korrektur durch den Schriftführer)")


@dataclass(frozen=True)
class Step:
    """What a sentence needs of one change (a ``Change`` row or a dict)."""

    action: str
    position: int | None
    before: Any
    after: Any


def vocabulary(ruleset: str) -> tuple[dict[str, str], dict[Any, str]]:
    """The field and value words of ``ruleset`` (empty for an unknown game)."""
    try:
        module = games.part(ruleset, "rules.vocabulary")
    except (KeyError, ImportError):  # a game the registry does not list, or one without words
        return {}, {}
    return module.FIELDS, module.VALUES


def sentences(ruleset: str, steps: Iterable[Any], entries_now: list[dict],
              players: list[str] | None = None) -> list[str]:
    """One sentence per change, in the order of ``steps`` (oldest first).

    ``entries_now`` are the Partie's entries as stored now; replaying the steps backwards from
    them gives the entries at each step, hence the Spiel number of every entry then. Fields are
    named in the protocol format's order, players in ``players``' (seating) order, whatever
    order the database kept the keys in (PostgreSQL's jsonb keeps none)."""
    steps = [Step(s.action, s.position, s.before, s.after) for s in steps]
    fields, values = vocabulary(ruleset)
    words = _Words(fields, values, players or [])
    entries = [dict(e) for e in entries_now]
    lines: list[str] = []
    first_confirmation = next((i for i, s in enumerate(steps) if s.action == "confirm"), len(steps))
    for index, step in reversed(list(enumerate(steps))):
        before_step = _undo(step, entries)
        line = words.line(step, before_step if before_step is not None else entries, exact=before_step is not None)
        if index > first_confirmation and step.action in ACTION_WORDS:
            line = concat(line, AFTER_CONFIRMATION)
        lines.append(line)
        if before_step is not None:
            entries = before_step
    return lines[::-1]


def entry_name(entries: list[dict], position: int) -> str:
    """The name of the entry at ``position`` as the sheet numbers it: "Spiel 8" for a game,
    "Strafe nach Spiel 8" for a Strafe after it (a Strafe is no Spiel)."""
    kind, _ = _kind_body(entries[position]) if 0 <= position < len(entries) else ("", None)
    return _Words({}, {}).entry_name(kind, position, entries, True)


def entry_words(ruleset: str, entries: list[dict], position: int,
                players: list[str] | None = None) -> tuple[str, str]:
    """The entry at ``position`` in the history's words: its name as the sheet numbers it
    ("Spiel 7", "Strafe nach Spiel 6") and what it holds ("Trumpf As, Anna Stiche 5, …";
    "Carla 200 Punkte (entschieden von …) — Grund: …")."""
    fields, values = vocabulary(ruleset)
    words = _Words(fields, values, players or [])
    kind, body = _kind_body(entries[position])
    name = words.entry_name(kind, position, entries, True)
    if kind in ("penalty", "warning", "disqualification"):
        return name, words.sanction(body, lead="")
    reason = body.get("reason") if isinstance(body, dict) else None
    if kind in ("end", "annul_match"):
        return name, words.value(reason) if reason else ""
    return name, words._summary(body, prefix="")


def entry_differences(ruleset: str, stored: dict, yours: dict, players: list[str] | None = None) -> tuple[str, str]:
    """Two entries of the same kind as their fields that differ, each side in the history's
    words ("Trumpf schwarz", "Trumpf rot, Anna Augen 33"): what a phone shows when another
    device stored another entry at the place it typed one for."""
    fields, values = vocabulary(ruleset)
    words = _Words(fields, values, players or [])
    a, b = words.flatten(_kind_body(stored)[1]), words.flatten(_kind_body(yours)[1])
    labels = [label for label in list(a) + [k for k in b if k not in a] if a.get(label) != b.get(label)]

    def side(flat: dict) -> str:
        return joined(", ", [concat(label, " ", words.value(flat.get(label))) if label else words.value(flat.get(label))
                             for label in labels])

    return side(a), side(b)


def _undo(step: Step, entries: list[dict]) -> list[dict] | None:
    """The entries before ``step`` (None when the history does not fit the entries: then the
    sentence names the entry by its position instead of its Spiel number)."""
    p = step.position
    if step.action not in ACTION_WORDS:
        return list(entries)
    if not isinstance(p, int) or p < 0:
        return None
    earlier = list(entries)
    if step.action == "add" and p < len(earlier):
        del earlier[p]
    elif step.action == "correct" and p < len(earlier) and isinstance(step.before, dict):
        earlier[p] = step.before
    elif step.action == "remove" and p <= len(earlier) and isinstance(step.before, dict):
        earlier.insert(p, step.before)
    else:
        return None
    return earlier


def _annulled(body: Any) -> bool:
    return isinstance(body, dict) and body.get("annulled") is True


def _kind_body(entry: Any) -> tuple[str, Any]:
    if isinstance(entry, dict) and len(entry) == 1:
        return next(iter(entry.items()))
    return "", entry


class _Words:
    def __init__(self, fields: dict[str, str], values: dict[Any, str], players: list[str] | None = None):
        self.fields, self.values, self.players = fields, values, players or []

    def line(self, step: Step, entries: list[dict], *, exact: bool) -> str:
        if step.action in CREATED:
            return self.created(step)
        if step.action == "edit_match":
            return self.settings_changed(step)
        if step.action == "confirm":  # the signature on the sheet
            after = step.after if isinstance(step.after, dict) else {}
            player = after.get("player", "?")
            if after.get("on_own_device", True):
                return Text(N_("%(player)s hat das Ergebnis bestätigt"), player=player)
            if after.get("table_card"):
                return Text(N_("%(player)s hat das Ergebnis bestätigt (auf dem Gerät mit der Tischkarte)"),
                            player=player)
            return Text(N_("%(player)s hat das Ergebnis bestätigt (auf dem Gerät des Protokollanten)"), player=player)
        if step.action == "lot":  # LE
            winner = step.after.get("winner") if isinstance(step.after, dict) else None
            return Text(N_("Losentscheid gezogen: %(winner)s gewinnt"), winner=winner) if winner \
                else N_("Losentscheid gezogen")
        if step.action not in ACTION_WORDS:
            return step.action
        entry = step.after if step.action == "add" else step.before
        kind, body = _kind_body(entry if entry is not None else step.after)
        name = self.entry_name(kind, step.position, entries, exact)
        verb = ACTION_WORDS[step.action]
        if step.action == "correct":
            _, old = _kind_body(step.before)
            _, new = _kind_body(step.after)
            if _annulled(new) and not _annulled(old):  # SV 4: a Spiel annulled keeps its body
                return concat(Text(N_("%(name)s annulliert"), name=name),
                              self._reason({"reason": new.get("annul_reason")}))
            changed = self.differences(old, new)
            if not changed:
                return concat(name, " ", verb, N_(" (ohne inhaltliche Änderung)"))
            return concat(name, " ", verb, ": ", changed)
        if kind == "annul_match" and step.action == "add":
            return concat(N_("Partie annulliert"), self._reason(body))
        if kind == "end":
            reason = body.get("reason") if isinstance(body, dict) else None
            return concat(ENTRY_WORDS["end"], " ", verb, *((": ", self.value(reason)) if reason else ()))
        if kind in ("penalty", "warning", "disqualification", "annul_match"):
            return concat(name, " ", verb, self.sanction(body))
        return concat(name, " ", verb, self._summary(body, prefix=": "))

    def sanction(self, body: Any, lead: str = ": ") -> str:
        """": Carla 200 Punkte (entschieden von Anna, Bernd, Dieter) — Grund: …" (``lead`` first)."""
        if not isinstance(body, dict):
            return ""
        parts: list = []
        if body.get("player"):
            parts += [lead, body["player"]]
        if isinstance(body.get("points"), int) and not isinstance(body.get("points"), bool):
            points = body["points"]
            parts += [" ", Text(N_("%(n)s Punkt") if abs(points) == 1 else N_("%(n)s Punkte"), n=points)]
        if body.get("decided_by"):
            parts.append(Text(N_(" (entschieden von %(names)s)"), names=self.value(body["decided_by"])))
        return concat(*parts, self._reason(body))

    def entry_name(self, kind: str, position: int | None, entries: list[dict], exact: bool) -> str:
        """"Spiel 3" for a game; "Strafe nach Spiel 2" for any other entry (a Strafe is no Spiel)."""
        word = ENTRY_WORDS.get(kind, N_("Eintrag"))
        if not exact or not isinstance(position, int):
            return Text(N_("%(word)s (Eintrag %(n)s)"), word=word, n=position + 1) if isinstance(position, int) \
                else word
        games_before = sum(1 for e in entries[:position] if _kind_body(e)[0] == "game")
        if kind == "game":
            return Text(N_("Spiel %(n)s"), n=games_before + 1)
        if kind in ("end", "annul_match"):
            return word
        if games_before:
            return Text(N_("%(word)s nach Spiel %(n)s"), word=word, n=games_before)
        return Text(N_("%(word)s vor dem ersten Spiel"), word=word)

    def created(self, step: Step) -> str:
        doc = step.after if isinstance(step.after, dict) else {}
        parts: list = [CREATED[step.action]]
        players = doc.get("players")
        if isinstance(players, list) and players:
            parts += [": ", ", ".join(str(p) for p in players)]
        events = doc.get("events")
        if isinstance(events, list) and events:
            games = sum(1 for e in events if _kind_body(e)[0] == "game")
            others = len(events) - games
            parts += ["; ", counted(games, N_("%(n)s Spiel"), N_("%(n)s Spiele"))]
            if others:
                parts.append(counted(others, N_(" und %(n)s weiterer Eintrag"), N_(" und %(n)s weitere Einträge")))
        return concat(*parts)

    def settings_changed(self, step: Step) -> str:
        old = (step.before or {}).get("settings") if isinstance(step.before, dict) else None
        new = (step.after or {}).get("settings") if isinstance(step.after, dict) else None
        changed = self.differences(old or {}, new or {})
        return concat(N_("Einstellungen geändert"), *((": ", changed) if changed else ()))

    # -- the words of a body --------------------------------------------------------------

    def flatten(self, body: Any, path: tuple[str, ...] = ()) -> dict[str, Any]:
        """``{"results": {"Anna": {"points": 40}}}`` -> ``{"Anna Augen": 40}`` (each label a Text:
        its words translated on their own)."""
        if isinstance(body, dict):
            flat: dict[str, Any] = {}
            for key, value in in_format_order(body, self.players).items():
                word = self.fields.get(key, field_word({}, key) if key in _SHARED else str(key))
                if word is None:  # a key the sentences leave out (the trump's level)
                    continue
                flat.update(self.flatten(value, path + ((word,) if word else ())))
            return flat
        if isinstance(body, list) and any(isinstance(item, (dict, list)) for item in body):
            flat = {}
            for i, item in enumerate(body, 1):
                flat.update(self.flatten(item, path + (str(i),)))
            return flat
        return {joined(" ", path): body}

    def value(self, value: Any) -> str:
        if isinstance(value, list):
            return joined(", ", [self.value(v) for v in value]) if value else "–"
        if isinstance(value, bool) or value is None:
            return SHARED_VALUES[value]
        if isinstance(value, str):
            return self.values.get(value) or SHARED_VALUES.get(value) or value
        if isinstance(value, float):
            return decimal(value)  # Tarot's half points: "40,5", in English "40.5"
        return str(value)

    def differences(self, old: Any, new: Any) -> str:
        a, b = self.flatten(old), self.flatten(new)
        parts = []
        for label in list(a) + [k for k in b if k not in a]:
            if a.get(label) != b.get(label):
                change = concat(self.value(a.get(label)), " → ", self.value(b.get(label)))
                parts.append(concat(label, " ", change) if label else change)
        return joined(", ", parts) if parts else ""

    def _summary(self, body: Any, prefix: str) -> str:
        flat = self.flatten(body)
        reason = flat.pop(field_word(self.fields, "reason"), None) if isinstance(body, dict) else None
        parts = [concat(label, " ", self.value(v)) if label else self.value(v) for label, v in flat.items()
                 if v is not False and v not in (None, "", [])]
        text = concat(prefix, joined(", ", parts)) if parts else ""
        return concat(text, _because(reason)) if reason else text

    def _reason(self, body: Any) -> str:
        reason = body.get("reason") if isinstance(body, dict) else None
        return _because(reason) if reason else ""


def with_reason(line: str, reason: Any) -> str:
    """``line`` and " — Grund: …" when there is a reason (a correction's, a removal's)."""
    return concat(line, _because(reason)) if reason else line


def _because(reason: Any) -> Text:
    """" — Grund: falsch gegeben"."""
    return Text(N_(" — Grund: %(reason)s"), reason=reason)


_SHARED = {"player", "points", "reason", "decided_by", "annulled", "annul_reason", "dealer", "max_games"}
