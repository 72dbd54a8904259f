"""The envelope of a ``protocol/1`` document, the same for every ruleset.

``format``, ``ruleset``, ``club``, ``date``, ``place``, ``players`` (the seating order,
clockwise), ``scorekeeper`` (the Protokollant, one of the players), ``settings`` and
``events``. ``season`` may name the league season the match belongs to.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any

from .base import Problems
from .dates import implausible
from .text import NAME_MAX, lookalike_message, lookalikes, name_problem, string_problems, text_problem
from .words import N_, Text

FORMAT = "protocol/1"
ENVELOPE_KEYS = {"format", "ruleset", "club", "season", "date", "place", "players",
                 "scorekeeper", "settings", "events"}
# The header's texts: the German name the messages use and the most characters each may have
# (as the site stores them: Club.name, Season.name, Match.place).
HEADER_TEXTS = {"club": (N_("Verein"), 120), "season": (N_("Saison"), 40), "place": (N_("Ort"), 80)}
# Texts the event readers check themselves (protocol.rules.text.reason_problem).
READER_TEXTS = frozenset({"reason", "annul_reason"})
# The most entries (Spiele, Strafen, Verwarnungen, the end ...) a Partie can hold. No rule
# limits a Partie's length; a Partie to 1000 points takes 20-80 Spiele (Art. 17a), a
# Doppelkopf evening or a Tarot table fewer still, so 200 leaves room for a long Stechen,
# Strafen and a raised Obergrenze. Measured on the 2-core test machine (busy): the
# Spielprotokollblatt of 7 players takes 2-4 s for 60 Spiele, 8 s for 200, 18 s for 400
# (WeasyPrint's layout, linear in the rows), so 400 would come near the worker timeout (30 s).
MAX_EVENTS = 200


@dataclass
class Envelope:
    ruleset: str
    players: list[str]
    scorekeeper: str
    events: list[Any]
    settings: Any = None
    club: str = ""
    season: str = ""
    date: str | None = None
    place: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def header_json(self) -> dict[str, Any]:
        """The header fields as the protocol format writes them."""
        header = {"format": FORMAT, "ruleset": self.ruleset}
        for key in ("club", "season", "date", "place"):
            if getattr(self, key):
                header[key] = getattr(self, key)
        header["players"] = list(self.players)
        header["scorekeeper"] = self.scorekeeper
        return header


def read_envelope(doc: Any, ruleset: str, min_players: int, max_players: int,
                  problems: Problems, articles: dict[str, str] | None = None) -> Envelope | None:
    """Check the envelope; None (with problems added) if the document can't be read further.

    ``articles``: the rule the game's refusals cite, by key: ``players`` (how many play),
    ``scorekeeper`` (the Protokollant is one of them); each game cites its own."""
    articles = articles or {}

    def bad(field: str, message: str) -> None:
        problems.add(None, None, field, message)

    def where(key: str) -> str:
        return Text(" (%(article)s)", article=articles[key]) if articles.get(key) else ""

    if not isinstance(doc, dict):
        bad(None, N_("Das Protokoll muss ein JSON-Objekt sein."))
        return None
    for key in sorted(set(doc) - ENVELOPE_KEYS, key=str):
        bad(key, Text(N_("Unbekanntes Feld %(key)r im Protokoll."), key=key))
    if doc.get("format") != FORMAT:
        bad("format", Text(N_('Das Format muss "%(format)s" sein.'), format=FORMAT))
    if doc.get("ruleset") != ruleset:
        bad("ruleset", Text(N_('Das Regelwerk muss "%(ruleset)s" sein.'), ruleset=ruleset))
    for key, (label, most) in HEADER_TEXTS.items():
        if key in doc and not isinstance(doc[key], str):
            bad(key, Text(N_("„%(field)s“ muss ein Text sein."), field=label))
        elif key in doc and (problem := text_problem(doc[key], label, max_length=most)):
            bad(key, problem)
    _refuse_bad_strings(doc, problems)
    date = doc.get("date")
    if date is not None:
        try:
            day = datetime.date.fromisoformat(date)
            if len(date) != 10:
                raise ValueError
        except (TypeError, ValueError):
            bad("date", N_("Das Datum muss die Form JJJJ-MM-TT haben (z. B. 2026-11-20)."))
        else:
            if refusal := implausible(day):
                bad("date", refusal)
    players = doc.get("players")
    ok = True
    if not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players):
        bad("players", N_("Die Spieler müssen eine Liste von Namen in Sitzreihenfolge sein."))
        ok = False
    elif not min_players <= len(players) <= max_players:
        bad("players", Text(N_("Es spielen %(least)s bis %(most)s Spieler, nicht %(n)s%(where)s."), least=min_players,
                            most=max_players, n=len(players), where=where("players")))
        ok = False
    elif len(set(players)) != len(players):
        bad("players", N_("Jeder Name darf in einer Partie nur einmal vorkommen."))
        ok = False
    elif problems_of_names := [problem for i, p in enumerate(players, start=1)
                               if (problem := name_problem(p, Text(N_("Spieler %(n)s"), n=i)))]:
        for problem in problems_of_names:
            bad("players", problem)
        ok = False
    elif any(p != p.strip() for p in players):
        bad("players", Text(N_("Namen haben höchstens %(most)s Zeichen und keine Leerzeichen am Anfang oder Ende."),
                            most=NAME_MAX))
        ok = False
    elif pairs := lookalikes(players):
        for first, second in pairs:  # "Bernd" next to "bernd": nobody could tell them apart on the sheet
            bad("players", lookalike_message(first, second))
        ok = False
    scorekeeper = doc.get("scorekeeper")
    if ok and scorekeeper not in players:
        bad("scorekeeper", Text(N_("Der Protokollant muss einer der Spieler sein%(where)s."), where=where("scorekeeper")))
        ok = False
    events = doc.get("events", [])
    if not isinstance(events, list):
        bad("events", N_("Die Ereignisse müssen eine Liste sein."))
        ok = False
    if not ok:
        return None
    return Envelope(
        ruleset=ruleset, players=list(players), scorekeeper=scorekeeper, events=events,
        settings=doc.get("settings"), club=doc.get("club", "") if isinstance(doc.get("club"), str) else "",
        season=doc.get("season", "") if isinstance(doc.get("season"), str) else "",
        date=date if isinstance(date, str) else None,
        place=doc.get("place", "") if isinstance(doc.get("place"), str) else "",
    )


def _refuse_bad_strings(doc: dict, problems: Problems) -> None:
    """NUL, lone surrogates and control characters anywhere else in the document (settings,
    events), each at its event and field; players and reasons have their own checks."""
    rest = {key: value for key, value in doc.items() if key not in ("players", "scorekeeper", *HEADER_TEXTS)}
    for path, message in string_problems(rest, READER_TEXTS):
        if path[:1] == ("events",) and len(path) > 1 and isinstance(path[1], int):
            field = next((str(p) for p in reversed(path[2:]) if isinstance(p, str)), None)
            problems.add(path[1], None, field, message)
        else:
            problems.add(None, None, str(path[0]) if path else None, message)
def past_the_last_entry(index: int, problems: Problems) -> bool:
    """True if the event at ``index`` is beyond what a Partie holds: the replays ask it for
    every event they are fed and skip such an event. The first one beyond is an error (so a
    file, a form or a correction is refused); the rest are not replayed at all, so a Partie
    stored longer before the limit still shows (and prints) its first MAX_EVENTS entries
    (``manage.py check --database default`` lists it, league.W003)."""
    if index < MAX_EVENTS:
        return False
    if index == MAX_EVENTS:
        problems.add(index, None, None, Text(N_(
            "Eine Partie hat höchstens %(most)s Einträge (Spiele, Strafen, Verwarnungen und Ende zusammen); "
            "eine Partie bis 1000 Punkte dauert 20 bis 80 Spiele. Bitte eine neue Partie beginnen."), most=MAX_EVENTS))
    return True


def single_key(event: Any) -> tuple[str | None, Any]:
    """An event is an object with exactly one key naming its kind."""
    if isinstance(event, dict) and len(event) == 1:
        (kind, body), = event.items()
        return kind, body
    return None, None
