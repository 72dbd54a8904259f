"""What the entry page shows of a Partie, computed from its protocol document by the rules
engine: pure Python, the same on the server and in the browser (the offline entry page).

Vocabulary:

- *document*: a ``protocol/1`` document (what protokoll.json serves, plus queued entries);
- *entry*: one event ``{kind: body}``; an entry's *fields* are its form's data
  (protocol/entry_form/__init__.py);
- *state*: the page's facts as JSON: the next game's number, its dealer (Chaotentrumpf:
  the Mischer, Art. 5b), its players (a Stechen plays only the tied players, Art. 17b), the
  running totals of the stage under way, the leader (None on a tie at the top), the
  Stechen, whether the Partie is still open;
- *check*: the state after one more entry, or the engine's errors of it, each with the
  field it marks and the article it cites; a game's *preview* is its points per player
  with the engine's explanation.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from protocol import games
from protocol.rules import RULESETS, evaluate, get_ruleset
from protocol.rules.match import leader
from protocol.rules.seating import next_clockwise

from . import game_body, game_field, sanction

# The rule a message cites, e.g. "(Art. 16c)", "(SV 4)", "(NÜV 5)", "(TCG-Regeln, Vorbehalte)",
# "(DDV-Turnierspielregeln 9)", "(FFT-Regeln: Schiedsrichtergesetz)", "(Règlement officiel der FFT)",
# "(Protokollformat)" (where a game's rules are silent, docs/doppelkopf.md), and every rule a game
# of the registry cites (its ``articles``, sanctions, penalties and examples name them).
# A rule after other words in the parentheses counts too: "(Kartenwerte 11, 10; Art. 13a)".
RULE_NAMES = ("Art.", "SV", "NÜV", "§", "Règlement", "TCG", "DDV", "FFT", "Protokollformat", "ISkO")
SANCTIONS = ("penalty", "warning", "disqualification")


def rule_names() -> tuple[str, ...]:
    """The first word of every rule the registry's games cite, besides the shared ones."""
    cited = [article for ruleset in RULESETS.values()
             for article in (*ruleset.articles.values(), *ruleset.sanction_articles.values(),
                             ruleset.penalties.article, ruleset.examples.refused_article)]
    found = {str(article).split()[0].rstrip(":,") for article in cited if str(article).strip()}
    return tuple(sorted(set(RULE_NAMES) | found))


@lru_cache(maxsize=8)
def _article_pattern(names: tuple[str, ...]) -> re.Pattern:
    words = "|".join(re.escape(name) for name in sorted(names, key=len, reverse=True))
    return re.compile(rf"\((?:[^()]*?; )?((?:{words})[^()]*)\)")


def article_of(message: str) -> str:
    """The last rule a German engine message cites ("" if none)."""
    found = _article_pattern(rule_names()).findall(str(message))
    return found[-1].strip() if found else ""


def rotation_dealer(match) -> str | None:
    """Who deals next where the rules don't say it (Doppelkopf, Tarot): a suggestion, not a
    rule: the player after the last game's dealer, clockwise, among those still playing; for
    game 1 the first seat."""
    last = next((g.data["dealer"] for g in reversed(match.games)
                 if isinstance(g.data, dict) and g.data.get("dealer")), None)
    players, active = match.players, match.active_players
    if not active:
        return None
    if last not in players:  # game 1: the first seat deals, as the sheet's seating starts there
        return next((p for p in players if p in active), None)
    return next_clockwise(players, last, active)


def next_dealer(ruleset: str, match) -> str | None:
    own = getattr(games.entry_form(ruleset), "next_dealer", None)
    return own(match) if own else rotation_dealer(match)


def is_open(ruleset: str, match) -> bool:
    """Can another game be entered?"""
    own = getattr(games.entry_form(ruleset), "is_open", None)
    if own:
        return own(match)
    return match.status == "running" and len(match.active_players) >= get_ruleset(ruleset).min_players


def next_players(ruleset: str, match) -> list[str]:
    own = getattr(games.entry_form(ruleset), "next_players", None)
    return own(match) if own else match.active_players


def state(document: dict[str, Any]) -> dict[str, Any]:
    """The entry page's facts of the document (``errors`` instead if it breaks a rule)."""
    evaluation = evaluate(document)
    if evaluation.errors:
        return {"errors": [error_json(e) for e in evaluation.errors]}
    return facts(document["ruleset"], evaluation.match)


def facts(ruleset: str, match) -> dict[str, Any]:
    stage = match.current_stage or (match.stages[-1] if match.stages else None)
    totals = dict(stage.totals) if stage else dict(match.totals)
    counted = [p for p in (stage.players if stage else match.players) if p not in match.disqualified]
    top = leader(totals, counted)
    tiebreak = stage if stage is not None and stage.depth and match.current_stage is not None else None
    return {
        "number": len(match.games) + 1,
        "open": is_open(ruleset, match),
        "status": match.status,
        "winner": match.winner,
        "dealer": next_dealer(ruleset, match) if is_open(ruleset, match) else None,
        "players": next_players(ruleset, match),
        "seats": list(match.players),
        "totals": [{"player": p, "total": totals[p], "leader": p == top, "disqualified": p in match.disqualified}
                   for p in (stage.players if stage else match.players)],
        "leader": top,
        "stechen": {"players": list(tiebreak.players), "limit": tiebreak.limit} if tiebreak else None,
        "events": len(match.envelope.events),
    }


def error_json(error, field: str | None = None) -> dict[str, Any]:
    message = str(error.message)
    return {"message": message, "article": article_of(message), "field": field, "player": error.player,
            "event": error.event}


def entry_of(ruleset: str, kind: str, fields: dict[str, Any], players: list[str], seats: list[str],
             options: dict[str, Any]) -> tuple[str, Any]:
    """(kind, body) of a form's fields: a game's by its game's module, a sanction's by its own."""
    if kind == "game":
        return "game", game_body(ruleset, fields, players, seats, **options)  # in the mode the switch chose
    if kind in SANCTIONS or kind == "sanction":
        return sanction.event(fields)
    return kind, fields


def field_of(ruleset: str, kind: str, error, fields, players, seats, options) -> str | None:
    if kind == "game":
        return game_field(ruleset, error, fields, players, seats, **options)
    return sanction.field_for(error)


def game_options(ruleset: str, document: dict[str, Any]) -> dict[str, Any]:
    """The match's options a game's entry mapping reads (Doppelkopf: its rules)."""
    own = getattr(games.entry_form(ruleset), "options", None)
    return own(document.get("settings") or {}) if own else {}


def check(document: dict[str, Any], kind: str, fields: dict[str, Any]) -> dict[str, Any]:
    """One more entry typed into the form, checked against the whole document: ``{kind, body,
    errors: [...], preview, state}`` (``errors`` empty: the entry fits, ``state`` is the page
    after it). An error of an earlier entry (a document already broken) is on the form's top."""
    ruleset = document.get("ruleset")
    before = evaluate(document)
    if before.errors:
        return {"kind": kind, "body": None, "preview": None, "state": None,
                "errors": [error_json(e) for e in before.errors]}
    match = before.match
    players, seats = next_players(ruleset, match), list(match.players)
    options = game_options(ruleset, document)
    kind, body = entry_of(ruleset, kind, fields, players, seats, options)
    events = list(document.get("events") or [])
    index = len(events)
    after = evaluate(document | {"events": events + [{kind: body}]})
    return answered(ruleset, after, index, kind, body, (fields, players, seats, options))


def answered(ruleset: str, after, index: int, kind: str, body, typed: tuple) -> dict[str, Any]:
    """The check's answer of the document ``after`` (evaluated) whose entry at ``index`` was
    typed (``typed``: its fields, players, seats and options, to mark its errors' fields)."""
    errors = [error_json(e, field_of(ruleset, kind, e, *typed) if e.event == index else None) for e in after.errors]
    answer = {"kind": kind, "body": body, "errors": errors, "preview": None, "state": None}
    if not errors:
        answer["state"] = facts(ruleset, after.match)
        game = next((g for g in after.match.games if g.event == index), None)
        answer["preview"] = preview(game) if game is not None else None
    return answer


def preview(game) -> dict[str, Any]:
    """A scored game's points per player with the engine's explanation."""
    scores = game.scores or {}
    return {"number": game.number, "annulled": game.annulled,
            "scores": [{"player": p, "points": getattr(s, "points", s),
                        "explanation": str(getattr(s, "explanation", "") or getattr(game, "explanation", ""))}
                       for p, s in scores.items()],
            "totals": dict(game.totals)}


def corrected(document: dict[str, Any], position: int, entry: dict[str, Any]) -> dict[str, Any]:
    """The document with its entry at ``position`` replaced by ``entry`` ({kind: body})."""
    events = list(document.get("events") or [])
    events[position] = entry
    return document | {"events": events}


def check_correction(document: dict[str, Any], position: int, kind: str, fields: dict[str, Any]) -> dict[str, Any]:
    """A correction typed into the correction form: the entry at ``position`` replaced, the
    whole document checked (what follows is derived anew and must stay valid): ``{kind, body,
    errors, preview, state}`` as :func:`check`. The entry keeps its kind; an error of a later
    entry is on the form's top, naming it."""
    ruleset = document.get("ruleset")
    events = list(document.get("events") or [])
    if not 0 <= position < len(events):
        return {"kind": kind, "body": None, "preview": None, "state": None,
                "errors": [{"message": f"Die Partie hat keinen Eintrag an Stelle {position}.", "article": "",
                            "field": None, "player": None, "event": position}]}
    before = evaluate(document | {"events": events[:position]})  # the Partie as the entry found it
    players, seats = next_players(ruleset, before.match), list(before.match.players)
    options = game_options(ruleset, document)
    kind, body = entry_of(ruleset, kind, fields, players, seats, options)
    if kind != next(iter(events[position])):
        return {"kind": kind, "body": body, "preview": None, "state": None, "errors": [{
            "message": "Die Art eines Eintrags lässt sich nicht ändern; bitte ihn löschen und neu eintragen.",
            "article": "", "field": "kind", "player": None, "event": position}]}
    after = evaluate(corrected(document, position, {kind: body}))
    return answered(ruleset, after, position, kind, body, (fields, players, seats, options))
