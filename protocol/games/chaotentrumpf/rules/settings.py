"""The match settings of a Partie: what the Regelwerk prescribes and what NÜV lets a table agree.

Every value a club may settle differently is a setting (printed on the sheet), not a constant:

- ``limit``: the Obergrenze, at least 1000, with more than 4 players at least 750 (Art. 17a);
- ``cards_per_deal``: 5, or by NÜV 2 down to 3 (Art. 7), a hand holds twice as many;
- ``decks``: Blätter per Art. 3b, or by NÜV 1 fewer;
- ``no_trump_points`` / ``no_trick_points``: -100 / -200 (Art. 16a), other values by NÜV 5;
- ``scorekeeper_skips_shuffling``: the Protokollant is exempted from shuffling (Art. 5c);
- ``max_games``: the Partie is limited to that many Spiele (Art. 17c).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from protocol.rules.base import Problems, is_int
from protocol.rules.words import N_, Text

from .cards import CARDS_PER_DECK, decks_for_players, hand_size

LIMIT_DEFAULT = 1000
LIMIT_MIN = 1000  # Art. 17a
LIMIT_MIN_MANY_PLAYERS = 750  # Art. 17a, more than 4 players
LIMIT_MAX = 100_000  # no rule; a guard against typing errors
PENALTY_POINTS_MIN = -1000  # NÜV 5 "sinngemäß": still a deduction, of at most an SV Strafe
MIN_PLAYERS, MAX_PLAYERS = 2, 10


@dataclass(frozen=True)
class Settings:
    limit: int
    cards_per_deal: int
    decks: int
    no_trump_points: int
    no_trick_points: int
    scorekeeper_skips_shuffling: bool
    max_games: int | None

    @property
    def hand(self) -> int:
        return hand_size(self.cards_per_deal)

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


def default_settings(players: int) -> dict[str, Any]:
    return {
        "limit": LIMIT_DEFAULT,
        "cards_per_deal": 5,
        "decks": decks_for_players(players),
        "no_trump_points": -100,
        "no_trick_points": -200,
        "scorekeeper_skips_shuffling": False,
        "max_games": None,
    }


def differences_from_rules(settings: Settings, players: int) -> dict[str, Any]:
    """The settings that differ from the Regelwerk, so the sheet can name the agreements."""
    defaults = default_settings(players)
    return {k: v for k, v in settings.as_json().items() if defaults[k] != v}


def read_settings(data: Any, players: int, problems: Problems) -> Settings | None:
    """Fill in the defaults and check each value against its rule; None if anything is wrong."""
    if data is None:
        data = {}
    if not isinstance(data, dict):
        problems.add(None, None, "settings", N_("Die Einstellungen müssen ein Objekt sein."))
        return None
    values = default_settings(players)
    before = len(problems)
    for key in data:
        if key not in values:
            problems.add(None, None, f"settings.{key}", Text(N_("Unbekannte Einstellung %(key)r."), key=key))
    values.update({k: v for k, v in data.items() if k in values})

    def bad(key: str, message: str) -> None:
        problems.add(None, None, f"settings.{key}", message)

    limit = values["limit"]
    least = LIMIT_MIN_MANY_PLAYERS if players > 4 else LIMIT_MIN
    if not is_int(limit) or not least <= limit <= LIMIT_MAX:
        if players > 4:
            bad("limit", Text(N_("Die Obergrenze muss bei mehr als 4 Spielern mindestens 750 Punkte betragen (Art. 17a), "
                                 "höchstens %(most)s."), most=LIMIT_MAX))
        else:
            bad("limit", Text(N_("Die Obergrenze muss mindestens 1000 Punkte betragen (Art. 17a; 750 erst bei mehr als "
                                 "4 Spielern), höchstens %(most)s."), most=LIMIT_MAX))
    per_deal = values["cards_per_deal"]
    if not is_int(per_deal) or not 3 <= per_deal <= 5:
        bad("cards_per_deal", N_("Je Austeilen gibt es 5 Karten, nach NÜV 2 auch 4 oder 3 (Art. 7)."))
    decks, full = values["decks"], decks_for_players(players)
    if not is_int(decks) or not 1 <= decks <= full:
        bad("decks", Text(N_("Bei %(players)s Spielern wird mit %(full)s Blättern gespielt (Art. 3b), nach NÜV 1 mit "
                             "weniger, aber mindestens einem."), players=players, full=full))
    elif is_int(per_deal) and 3 <= per_deal <= 5 and players * hand_size(per_deal) >= decks * CARDS_PER_DECK:
        bad("decks", Text(N_(
            "%(decks)s Blätter (%(cards)s Karten) reichen nicht für %(players)s Spieler "
            "mit je %(hand)s Karten und die Trumpfwahl (Art. 3, 7, 8, NÜV 1)."), decks=decks,
            cards=decks * CARDS_PER_DECK, players=players, hand=hand_size(per_deal)))
    for key, article in (("no_trump_points", N_("kein Trumpf im Stich")), ("no_trick_points", N_("kein Stich"))):
        value = values[key]
        if not is_int(value) or not PENALTY_POINTS_MIN <= value <= 0:
            bad(key, Text(N_("Der Wert für „%(article)s“ muss zwischen %(least)s und 0 liegen (Art. 16a, NÜV 5)."),
                          article=article, least=PENALTY_POINTS_MIN))
    skips = values["scorekeeper_skips_shuffling"]
    if not isinstance(skips, bool):
        bad("scorekeeper_skips_shuffling", N_("Die Befreiung des Protokollanten vom Mischen ist ja oder nein (true/false)."))
    elif skips and players <= 3:
        bad("scorekeeper_skips_shuffling", N_("Der Protokollant kann erst bei mehr als 3 Spielern vom Mischen befreit werden "
                                             "(Art. 5c)."))
    max_games = values["max_games"]
    if max_games is not None and (not is_int(max_games) or not 1 <= max_games <= 1000):
        bad("max_games", N_("Die Begrenzung der Spielanzahl muss eine Zahl von 1 bis 1000 sein (Art. 17c)."))
    if len(problems) > before:
        return None
    return Settings(**values)
