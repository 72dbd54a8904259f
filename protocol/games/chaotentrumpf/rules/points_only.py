"""A Spiel recorded as points only (Art. 4a "Punktetabelle"; docs/chaotentrumpf.md, "A Spiel
recorded as points only").

The paper sheet often holds only the points written per player (Hinweise 6: "Ihm werden
also … Punkte aufgeschrieben"), not the Stiche, Augen and Trümpfe behind them. Such a Spiel
is recorded as ``{"scores": {player: points}}``, with the trump (``trump`` or ``selection``,
and ``inversions``) when it was noted. Art. 17, the SV and the Mischer run on the scores as
for a full Spiel; what the points alone can still prove is checked here.

What Art. 16 can produce. Each player of the Spiel is in one of four cases:

- *kein Stich*: the score is the "kein Stich" value S (Art. 16a; not added to "kein Trumpf");
- *Stiche ohne Trumpf*: Augen + the "kein Trumpf" value T (Art. 16a);
- *Trümpfe, aber nicht die meisten*: the Augen (Art. 16a);
- *die meisten Trümpfe*, shared by k players (Art. 16b, 16c): Augen + floor(B / k) for an
  additive Trumpfwertung B (Farbe rot 5, schwarz 10; Spielfarbe Karo 5, Herz 10, Pik 15,
  Kreuz 20), or Augen x max(1, floor(f / k)) for a factor f (Wert 4, after an
  Ultrainversion 4, after a Totalultrainversion or with a single card 5).

A line of scores is accepted exactly when some Stiche, Augen and Trümpfe that the full
Spiel's checks (game.py) accept score to it: an assignment of the players to the cases, the
same k for all who hold the most Trümpfe, and Stiche, Augen and Trümpfe behind every case
such that

- the Stiche add up to the hand (Art. 7, 10), at least one for every player not in
  *kein Stich* (so at least one player has a Stich);
- every implied Augen value is a whole number from 0 and can be made by the player's cards
  (Stiche x players cards of the Blätter in play, Art. 3, 13a), and the Augen of all players
  together by all the cards played;
- nobody has the most Trümpfe unless someone has Trümpfe, and everyone with Trümpfe but not
  the most has fewer than those who have the most (so those need 2 when anyone is in the
  third case); the Trümpfe fit into the player's cards and into the trump cards of the
  Blätter (16 per Blatt for a Farbe, 8 for a Spielfarbe, 4 for a Wert, 1 for a Karte).

The search is exact (it accepts what the full Spiel's checks accept, no more) for the colour
and the suit: fewer Trümpfe only ever help there, so one
Trumpf for the third case and one (or two) for the most suffice. With a rank or a single
card as trump (every trump worth the same) each player's Augen must also leave room for his
Trümpfe, as the full Spiel checks (``game.fits_trumps``); the same check on the sum
of all lines is not made for points alone (accepted: a missed check, never a false refusal).

Without a noted trump every Trumpfwertung is tried: B = 5, 10, 15, 20 and f = 4, 5 (a factor
is possible with any trump, after an Ultra- or Totalultrainversion to a colour, so the
colour's 16 trump cards per Blatt are the bound). With a noted trump (and the inversions
as noted: none when none are listed, as in a full Spiel) only its own Trumpfwertung counts,
so the share of the players who got it must be consistent.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from protocol.rules.scores import SCORES, facts_with_scores, read_scores
from protocol.rules.vocabulary import counted, number
from protocol.rules.words import N_, Text

from . import feasibility
from .game import GAME_KEYS, CheckedGame, GameContext, fits_trumps, read_head
from .inversion import Inversion, inversion_factor
from .scoring import Score
from .trump import CARD_FACTOR, RANK_FACTOR, TRUMP_BONUS, TRUMPS_PER_DECK, Trump

# What a points-only Spiel says of itself, on the page, the sheet and in the check's output.
POINTS_ONLY = N_("nur Punkte: Augen, Stiche und Trümpfe nicht geprüft")
ARTICLE = "Art. 4a, 16a"  # the Punktetabelle holds every player's points (Art. 4a), as Art. 16a scores them
ULTRA_FACTOR, TOTALULTRA_FACTOR = 4, 5  # Art. 16b, after a recognised (Total)ultrainversion
BLATT, BLAETTERN = N_("%(n)s Blatt"), N_("%(n)s Blättern")
STICH, STICHE = N_("%(n)s Stich"), N_("%(n)s Stiche")

Error = tuple[str | None, str | None, str]


@dataclass(frozen=True)
class Wertung:
    """One Trumpfwertung (Art. 16b): an additive ``bonus`` or a ``factor``, with the trump
    cards there are per Blatt and the trump itself where its cards' worth matters."""

    bonus: int | None
    factor: int | None
    trumps_per_deck: int
    trump: Trump | None = None  # a rank or a card: every trump worth the same (fits_trumps)

    def augen(self, score: int, shared: int) -> int | None:
        """The Augen of one of ``shared`` players with the most Trümpfe who scored ``score``."""
        if self.factor is not None:
            each = max(1, self.factor // shared)  # Art. 16c
            return score // each if score % each == 0 else None
        return score - self.bonus // shared  # Art. 16c


# Without a noted trump (see the module): the colour's trump cards bound every factor.
ANY_TRUMP = (Wertung(5, None, TRUMPS_PER_DECK["colour"]), Wertung(10, None, TRUMPS_PER_DECK["colour"]),
             Wertung(15, None, TRUMPS_PER_DECK["suit"]), Wertung(20, None, TRUMPS_PER_DECK["suit"]),
             Wertung(None, ULTRA_FACTOR, TRUMPS_PER_DECK["colour"]),
             Wertung(None, TOTALULTRA_FACTOR, TRUMPS_PER_DECK["colour"]))


def wertung_of(trump: Trump, inversions: list[Inversion]) -> Wertung:
    """The Trumpfwertung of a noted trump (after its noted inversions), Art. 16b."""
    factor = inversion_factor(inversions, trump)
    if factor is None and trump.level == "rank":
        factor = RANK_FACTOR
    elif factor is None and trump.level == "card":
        factor = CARD_FACTOR
    fixed = trump if trump.level in ("rank", "card") else None
    bonus = None if factor else TRUMP_BONUS[(trump.level, trump.value)]
    return Wertung(bonus, factor, TRUMPS_PER_DECK[trump.level], fixed)


@dataclass(frozen=True)
class Table:
    """What the Spiel is played with: its players, the hand, the Blätter, S and T."""

    players: int
    hand: int
    decks: int
    no_trick: int  # S, Art. 16a
    no_trump: int  # T, Art. 16a

    @property
    def cards(self) -> int:
        return self.players * self.hand

    def tricks_for(self, augen: int, trumps: int, wertung: Wertung | None) -> int:
        """The numbers of Stiche whose cards can hold these Augen and Trümpfe (Art. 3, 13a), as a
        bit mask (bit t: t Stiche)."""
        full = feasibility.stock(self.decks)
        found = 0
        for tricks in range(1, self.hand + 1):
            cards = tricks * self.players
            if trumps <= cards and feasibility.possible(augen, cards, full) and (
                    wertung is None or wertung.trump is None
                    or fits_trumps(augen, trumps, cards, wertung.trump, self.decks)):
                found |= 1 << tricks
        return found


def check_game(data: Any, ctx: GameContext) -> CheckedGame:
    """A Spiel recorded as points only, read as a full Spiel is but for its lines (game.py):
    the trump may be left out; the scores checked as far as Art. 16 allows."""
    game = read_head(data, ctx, GAME_KEYS | {SCORES}, trump_required=False)  # "results": refused below
    game.points_only = True
    if not isinstance(data, dict):
        return game
    errors = game.errors
    errors.extend(facts_with_scores(data, {"results"}, set(), "Art. 16"))
    before = len(errors)
    scores = data.get(SCORES)
    why = {name: ctx.not_playing.get(name, "gehört nicht zu den Spielern dieser Partie (Art. 4a)")
           for name in (scores if isinstance(scores, dict) else ()) if name not in ctx.players}
    read = read_scores(scores, ctx.players, ARTICLE, errors, why)
    if len(errors) > before:
        return game
    settings = ctx.settings
    table = Table(len(ctx.players), settings.hand, ctx.decks, settings.no_trick_points, settings.no_trump_points)
    checked = check_scores(read, table, game.trump, game.inversions, errors)
    if not errors:
        game.scores = checked
    return game


def is_points_only(data: Any) -> bool:
    """Whether a Spiel's body is recorded as points only (its ``scores``)."""
    return isinstance(data, dict) and SCORES in data


def check_scores(scores: dict[str, int], table: Table, trump: Trump | None, inversions: list[Inversion],
                 errors: list[Error]) -> dict[str, Score] | None:
    """The scores of a points-only Spiel if Art. 16 can produce them, else None with errors."""
    wertungen = (wertung_of(trump, inversions),) if trump is not None else ANY_TRUMP
    before = len(errors)
    for player, score in scores.items():
        if not _alone_possible(score, table, wertungen):
            errors.append((player, "scores", _impossible_score(player, score, table)))
    if len(errors) > before:
        return None
    values = list(scores.values())
    if not producible(values, table, wertungen):
        errors.append((None, "scores", _impossible_line(values, table, trump, wertungen)))
        return None
    return {p: Score(score, Text(N_("%(total)s (%(why)s)"), total=number(score), why=POINTS_ONLY), False)
            for p, score in scores.items()}


def producible(scores: list[int], table: Table, wertungen: tuple[Wertung, ...]) -> bool:
    """Whether some Stiche, Augen and Trümpfe give these scores (see the module)."""
    for shared in range(1, len(scores) + 1):
        for wertung in wertungen:
            in_play = min(wertung.trumps_per_deck * table.decks, table.cards)
            if wertung.trump is None:
                most_range = (2, 1)  # see the module: more Trümpfe never help a colour or suit
            else:
                most_range = range(1, in_play // shared + 1)
            for most in most_range:
                if shared * most <= in_play and _search(scores, table, wertung, shared, most):
                    return True
    return _search(scores, table, None, 0, 0)  # nobody has a Trumpf in his Stiche


def _search(scores: list[int], table: Table, wertung: Wertung | None, shared: int, most: int) -> bool:
    """Players one by one. A state is (Trümpfe, Augen, players with the most) so far, with the
    numbers of Stiche so far that reach it as a bit mask (bit t: t Stiche)."""
    in_play = min(wertung.trumps_per_deck * table.decks, table.cards) if wertung else 0
    all_tricks = (1 << (table.hand + 1)) - 1
    states = {(0, 0, 0): 1}
    for score in scores:
        reached: dict[tuple[int, int, int], int] = {}
        for (trumps, augen, takers), mask in states.items():
            for (n, a, w), tricks in _options(score, table, wertung, shared, most):
                if trumps + n > in_play or takers + w > shared:
                    continue
                moved = 0
                for t in range(table.hand + 1):
                    if tricks >> t & 1:
                        moved |= mask << t
                key = (trumps + n, augen + a, takers + w)
                reached[key] = reached.get(key, 0) | (moved & all_tricks)
        states = {key: mask for key, mask in reached.items() if mask}
        if not states:
            return False
    full = feasibility.stock(table.decks)
    return any(mask >> table.hand & 1 and takers == shared and feasibility.possible(augen, table.cards, full)
               for (_, augen, takers), mask in states.items())


@lru_cache(maxsize=4096)  # the same score is asked for under every Trumpfwertung tried
def _options(score: int, table: Table, wertung: Wertung | None, shared: int,
             most: int) -> tuple[tuple[tuple[int, int, int], int], ...]:
    """(Trümpfe, Augen, holds the most) of one player that score ``score``, each with the
    numbers of Stiche that can hold them as a bit mask (bit t: t Stiche)."""
    options: dict[tuple[int, int, int], int] = {}
    if score == table.no_trick:  # Art. 16a: kein Stich
        options[(0, 0, 0)] = 1
    cases = [(score - table.no_trump, 0, 0)]  # Stiche without a Trumpf (Art. 16a)
    if wertung is not None:
        cases.append((wertung.augen(score, shared), most, 1))  # the most Trümpfe (Art. 16b, 16c)
        cases += [(score, trumps, 0) for trumps in range(1, most)]  # Trümpfe, not the most
    for augen, trumps, takes in cases:
        if augen is None or augen < 0:
            continue
        tricks = table.tricks_for(augen, trumps, wertung)
        if tricks:
            options[(trumps, augen, takes)] = options.get((trumps, augen, takes), 0) | tricks
    return tuple(options.items())


def _alone_possible(score: int, table: Table, wertungen: tuple[Wertung, ...]) -> bool:
    """Whether one case of Art. 16 gives the score, whatever the others scored."""
    if score == table.no_trick:
        return True
    augen: set[int | None] = {score - table.no_trump, score}
    for wertung in wertungen:
        augen |= {wertung.augen(score, shared) for shared in range(1, table.players + 1)}
    full = feasibility.stock(table.decks)
    return any(a is not None and a >= 0 and feasibility.possible(a, tricks * table.players, full)
               for a in augen for tricks in range(1, table.hand + 1))


def _impossible_score(player: str, score: int, table: Table) -> Text:
    return Text(N_(
        "%(player)s: %(score)s Punkte ergeben sich aus keinem Fall von Art. 16: ohne Stich %(no_trick)s, mit Stichen ohne "
        "Trumpf die Augen %(no_trump)s, sonst die Augen (Kartenwerte 11, 10, 4, 3, 2, 0), mit der Trumpfwertung "
        "mehr (Art. 13a, 16a, 16b)."), player=player, score=number(score), no_trick=number(table.no_trick),
        no_trump=_plus(table.no_trump))


def _impossible_line(scores: list[int], table: Table, trump: Trump | None, wertungen: tuple[Wertung, ...]) -> Text:
    if all(score == table.no_trick for score in scores):
        return Text(N_(
            "Alle haben den Wert für „kein Stich“ (%(no_trick)s); ein Spiel hat %(hand)s, die jemand "
            "macht (Art. 7, 10, 16a)."), no_trick=number(table.no_trick), hand=counted(table.hand, STICH, STICHE))
    if trump is not None and producible(scores, table, ANY_TRUMP):
        return Text(N_(
            "Mit Trumpf %(trump)s passen diese Punkte nicht: die Trumpfwertung (%(wertung)s) der Spieler mit den "
            "meisten Trümpfen geht so in keiner Verteilung der Stiche, Augen und Trümpfe auf (Art. 16b, 16c)."),
            trump=trump.label, wertung=_wertung_label(wertungen[0]))
    return Text(N_(
        "Diese Punkte ergibt kein Spiel: keine Verteilung der %(hand)s, der Augen und der Trümpfe auf die Spieler "
        "führt nach Art. 16 zu ihnen (%(cards)s gespielte Karten aus %(decks)s; Art. 3, 7, 13a, 16)."),
        hand=counted(table.hand, STICH, STICHE), cards=table.cards, decks=counted(table.decks, BLATT, BLAETTERN))


def _wertung_label(wertung: Wertung) -> Text:
    if wertung.factor is not None:
        return Text(N_("Augen × %(factor)s"), factor=wertung.factor)
    return Text(N_("+ %(bonus)s"), bonus=wertung.bonus)


def _plus(n: int) -> str:
    return f"− {-n}" if n < 0 else f"+ {n}"
