"""One Spiel as entered: the Trumpfwahl, the inversions and a line per player, checked
against every rule ("What a Spiel entry must satisfy" in docs/chaotentrumpf.md) and scored.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from protocol.rules.annulment import ANNUL_KEYS, read_game_annulment
from protocol.rules.base import is_int
from protocol.rules.vocabulary import counted
from protocol.rules.words import N_, Text

from . import feasibility
from .cards import POINTS, parse_card
from .inversion import Inversion, apply_inversions, inversion_factor
from .scoring import Line, Score, score_game
from .settings import Settings
from .trump import TRUMPS_PER_DECK, Trump, parse_trump, trump_from_selection

GAME_KEYS = {"selection", "trump", "inversions", "results", *ANNUL_KEYS}
LINE_KEYS = {"tricks", "points", "trumps"}
FIELD_NAMES = {"tricks": N_("Stiche"), "points": N_("Augen"), "trumps": N_("Trümpfe")}
# The counted nouns of the messages (``counted``: "1 Stich", "2 Stiche").
STICH, STICHE = N_("%(n)s Stich"), N_("%(n)s Stiche")
TRUMPF, TRUEMPFE = N_("%(n)s Trumpf"), N_("%(n)s Trümpfe")
BLATT, BLAETTERN = N_("%(n)s Blatt"), N_("%(n)s Blättern")


@dataclass
class GameContext:
    """Where a Spiel stands in its Partie: who plays it and with how many Blätter."""

    players: list[str]  # the stage's players still in the game, seating order
    decks: int
    settings: Settings
    not_playing: dict[str, str] = field(default_factory=dict)  # name -> why (German)
    # The Spiel whose annulment took away the Stechen it opened, and that Stechen's players
    # (partie.Match.annulled_opener): a Spiel with lines for them alone was meant for it.
    annulled_opener: tuple[int, tuple[str, ...]] | None = None


@dataclass
class CheckedGame:
    """A Spiel read and checked; ``scores`` is None when it could not be scored."""

    selected_trump: Trump | None
    trump: Trump | None
    inversions: list[Inversion]
    lines: dict[str, Line] | None
    scores: dict[str, Score] | None
    annulled: bool
    annul_reason: str
    selection: dict | None
    errors: list[tuple[str | None, str | None, str]]  # (player, field, message)
    points_only: bool = False  # recorded as points only: no lines, the scores checked as far as Art. 16 allows


def check_game(data: Any, ctx: GameContext) -> CheckedGame:
    game = read_head(data, ctx, GAME_KEYS)
    errors = game.errors
    if not isinstance(data, dict):
        return game
    results = data.get("results")
    if results is None and game.annulled:
        return game  # an annulled Spiel may be recorded without results (SV 4)
    before = len(errors)
    lines = _read_lines(results, ctx, errors)
    complete = len(lines) == len(ctx.players) and len(errors) == before
    _check_lines(lines, game.trump, ctx, errors, complete)
    game.lines = lines if complete else None
    if not errors and game.trump is not None:
        game.scores = score_game(
            game.lines, game.trump, inversion_factor(game.inversions, game.trump),
            ctx.settings.no_trump_points, ctx.settings.no_trick_points)
    return game


def read_head(data: Any, ctx: GameContext, keys: set[str], trump_required: bool = True) -> CheckedGame:
    """What every Spiel records besides its lines: the annulment, the trump (by the
    Trumpfwahl or directly) and the inversions; ``keys``: the fields the Spiel may have."""
    errors: list[tuple[str | None, str | None, str]] = []
    game = CheckedGame(None, None, [], None, None, False, "", None, errors)
    if not isinstance(data, dict):
        errors.append((None, None, N_("Ein Spiel muss ein Objekt sein.")))
        return game
    for key in sorted(set(data) - keys):
        errors.append((None, key, f"Unbekanntes Feld {key!r} in einem Spiel."))
    annulled, game.annul_reason, problems = read_game_annulment(data, "SV 4")
    game.annulled = annulled
    errors.extend((None, field, message) for field, message in problems)
    _read_trump(data, ctx, game, trump_required)
    if game.selected_trump is not None:
        game.inversions, game.trump, problems = apply_inversions(
            data.get("inversions"), game.selected_trump, ctx.players)
        errors.extend((player, "inversions", message) for player, message in problems)
    elif data.get("inversions"):
        errors.append((None, "inversions", N_("Ohne Trumpf kann nicht invertiert werden (Art. 11).")))
    return game


def _read_trump(data: dict, ctx: GameContext, game: CheckedGame, required: bool) -> None:
    errors = game.errors
    derived = None
    selection = data.get("selection")
    if selection is not None:
        if not isinstance(selection, dict) or not set(selection) <= {"cards", "agreed"} or "cards" not in selection:
            errors.append((None, "selection", 'Die Trumpfwahl braucht "cards" und optional "agreed" (Art. 9).'))
        elif not isinstance(selection.get("agreed", False), bool):
            errors.append((None, "selection", "„Einigung“ ist ja oder nein (true/false) (Art. 9b)."))
        else:
            game.selection = {"cards": selection["cards"], "agreed": selection.get("agreed", False)}
            derived, problem = trump_from_selection(selection["cards"], game.selection["agreed"], ctx.decks)
            if problem:
                errors.append((None, "selection", problem))
    given = None
    if "trump" in data and data["trump"] is not None:
        given, problem = parse_trump(data["trump"])
        if problem:
            errors.append((None, "trump", problem))
        elif given.level == "card":
            errors.append((None, "trump", N_("Eine einzelne Karte wird erst durch eine Totalultrainversion Trumpf, nicht in der Trumpfwahl (Art. 9, 11b).")))
            given = None
    if given and derived and given != derived:
        errors.append((None, "trump", Text(N_("Der Trumpf %(given)s passt nicht zur Trumpfwahl, die %(derived)s ergibt (Art. 9)."), given=given.label, derived=derived.label)))
    game.selected_trump = given or derived
    if required and game.selected_trump is None and not any(field in ("trump", "selection") for _, field, _ in errors):
        errors.append((None, "trump", N_("Der Trumpf fehlt: Trumpf oder Trumpfwahl eintragen (Art. 9).")))


def _read_lines(results: Any, ctx: GameContext, errors: list) -> dict[str, Line]:
    """The well-formed lines (errors for the others)."""
    if not isinstance(results, dict):
        errors.append((None, "results", "Für jeden Spieler des Spiels braucht es eine Zeile mit Stichen, Augen und Trümpfen."))
        return {}
    lines: dict[str, Line] = {}
    for name in results:
        if name not in ctx.players:
            why = ctx.not_playing.get(name, "gehört nicht zu den Spielern dieser Partie (Art. 4a)")
            errors.append((name if isinstance(name, str) else None, None, f"{name} {why}."))
    opener = ctx.annulled_opener
    meant_for_stechen = opener is not None and results and set(results) <= set(opener[1])
    for player in ctx.players:
        if player not in results:
            if meant_for_stechen:  # ruling (docs/chaotentrumpf.md): say which annulment ended the Stechen
                errors.append((player, None, Text(N_(
                    "Für %(player)s fehlt die Zeile: Spiel %(number)s ist annulliert, und mit ihm entfällt das "
                    "Stechen von %(stechen)s, das es eröffnet hatte; dieses Spiel gehört wieder zur Partie, "
                    "alle spielen mit (SV 4, Art. 17b)."), player=player, number=opener[0],
                    stechen=", ".join(opener[1]))))
            else:
                errors.append((player, None, Text(N_("Für %(player)s fehlt die Zeile: jeder Spieler zählt seine Stiche, Augen und Trümpfe (Art. 16a)."), player=player)))
            continue
        row = results[player]
        if not isinstance(row, dict):
            errors.append((player, None, f"Die Zeile von {player} muss Stiche, Augen und Trümpfe enthalten."))
            continue
        values = {}
        for key in sorted(set(row) - LINE_KEYS):
            errors.append((player, key, f"Unbekanntes Feld {key!r} in der Zeile von {player}."))
        for key in ("tricks", "points", "trumps"):
            value = row.get(key)
            if not is_int(value) or value < 0:
                errors.append((player, key, Text(N_("%(field)s von %(player)s: eine ganze Zahl ab 0 eintragen."), field=FIELD_NAMES[key], player=player)))
            else:
                values[key] = value
        if len(values) == 3:
            lines[player] = Line(**values)
    return lines


def _check_lines(lines: dict[str, Line], trump: Trump | None, ctx: GameContext, errors: list,
                 complete: bool) -> None:
    """Each line on its own; the sums only when every line is there and well-formed."""
    n, hand, decks = len(ctx.players), ctx.settings.hand, ctx.decks
    full = feasibility.stock(decks)
    tricks = sum(line.tricks for line in lines.values())
    if complete and tricks != hand:
        errors.append((None, "tricks", Text(N_("Die Stiche ergeben zusammen %(sum)s; ein Spiel hat %(hand)s, so viele Karten hat jede Hand (Art. 7, 10)."), sum=tricks, hand=counted(hand, STICH, STICHE))))
    for player, line in lines.items():
        cards = line.tricks * n
        if line.tricks == 0:
            if line.points:
                errors.append((player, "points", Text(N_("%(player)s hat keinen Stich und kann keine Augen haben (Art. 13a)."), player=player)))
            if line.trumps:
                errors.append((player, "trumps", Text(N_("%(player)s hat keinen Stich und kann keine Trümpfe im Stich haben (Art. 16a)."), player=player)))
            continue
        if line.tricks > hand:
            errors.append((player, "tricks", Text(N_("%(player)s kann höchstens %(hand)s machen (Art. 7, 10)."), player=player, hand=counted(hand, STICH, STICHE))))
            continue
        if line.trumps > cards:
            errors.append((player, "trumps", Text(N_(
                "%(player)s hat %(tricks)s mit %(cards)s Karten, also höchstens %(most)s, nicht %(trumps)s "
                "(Art. 15a, 16b)."), player=player, tricks=counted(line.tricks, STICH, STICHE), cards=cards,
                most=counted(cards, TRUMPF, TRUEMPFE), trumps=line.trumps)))
        if not feasibility.possible(line.points, cards, full):
            errors.append((player, "points", _impossible_points(player, line.points, cards, full)))
        elif trump and line.trumps <= cards and not fits_trumps(line.points, line.trumps, cards, trump, decks):
            errors.append((player, "points", Text(N_(
                "%(player)s: %(trumps)s (%(trump)s) und %(points)s Augen passen nicht in %(cards)s Karten "
                "(Kartenwerte Art. 13a)."), player=player, trumps=counted(line.trumps, TRUMPF, TRUEMPFE),
                trump=trump.label, points=line.points, cards=cards)))
    if not complete or trump is None:
        return
    in_play = n * hand
    trumps_in_play = min(TRUMPS_PER_DECK[trump.level] * decks, in_play)
    trumps = sum(line.trumps for line in lines.values())
    if trumps > trumps_in_play:
        errors.append((None, "trumps", Text(N_(
            "Es gibt nur %(most)s (%(trump)s) in %(decks)s (Art. 3); eingetragen sind zusammen %(sum)s."),
            most=counted(trumps_in_play, TRUMPF, TRUEMPFE), trump=trump.label,
            decks=counted(decks, BLATT, BLAETTERN), sum=trumps)))
    points = sum(line.points for line in lines.values())
    if tricks == hand and all(line.tricks <= hand for line in lines.values()):
        if not feasibility.possible(points, in_play, full):
            most = feasibility.most_points(in_play, full)
            template = (N_("Die Augen ergeben zusammen %(sum)s; die %(cards)s gespielten Karten aus %(decks)s "
                           "sind höchstens %(most)s wert (Art. 3, 13a).") if points > most else
                        N_("Die Augen ergeben zusammen %(sum)s; so viel können die %(cards)s gespielten Karten "
                           "aus %(decks)s nicht wert sein (Art. 3, 13a)."))
            errors.append((None, "points", Text(template, sum=points, cards=in_play,
                                                decks=counted(decks, BLATT, BLAETTERN), most=most)))
        elif trumps <= trumps_in_play and not fits_trumps(points, trumps, in_play, trump, decks):
            errors.append((None, "points", Text(N_(
                "Zusammen %(trumps)s (%(trump)s) und %(sum)s Augen passen nicht zu den %(cards)s gespielten "
                "Karten (Art. 13a)."), trumps=counted(trumps, TRUMPF, TRUEMPFE), trump=trump.label, sum=points,
                cards=in_play)))


def _impossible_points(player: str, points: int, cards: int, full) -> str:
    most = feasibility.most_points(cards, full)
    if points > most:
        return Text(N_("%(player)s: %(cards)s Karten sind höchstens %(most)s Augen wert, nicht %(points)s "
                       "(Art. 3, 13a)."), player=player, cards=cards, most=most, points=points)
    return Text(N_("%(player)s: %(points)s Augen sind mit %(cards)s Karten nicht möglich "
                   "(Kartenwerte 11, 10, 4, 3, 2, 0; Art. 13a)."), player=player, points=points, cards=cards)


def fits_trumps(points: int, trumps: int, cards: int, trump: Trump, decks: int) -> bool:
    """With a rank or a single card as trump every trump is worth the same: the rest must fit."""
    if trump.level == "rank":
        rest = feasibility.stock(decks, without_rank=trump.value)
        value = POINTS[trump.value]
    elif trump.level == "card":
        card = parse_card(trump.value)
        rest = feasibility.stock(decks, without_card_of_rank=card.rank)
        value = card.points
    else:
        return True
    if trumps * value > points:
        return False
    return feasibility.possible(points - trumps * value, cards - trumps, rest)
