"""One Tarot deal as entered (the ``game`` event of docs/protocol-format.md "Tarot"), checked.

Every error is collected as ``(player, field, message)``: ``player`` names the player the
error is about (a poignée's player) or is None for the deal as a whole, ``field`` is the
JSON key, ``message`` a German sentence naming the rule. The rules cited are the FFT's
text (``FFT-Regeln``, by its section) and, where that is silent, the federation's
*Règlement officiel* (docs/tarot.md).

Only what is certain is checked: the attack's points and its oudlers must fit the card
values (each oudler is worth 4.5 wherever it lies), but not the number of cards behind
them, since a deal played with a wrong écart (5 or 7 cards) is still scored when the taker
loses (FFT-Regeln: Die Ablage).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from protocol.rules.base import is_int
from protocol.rules.vocabulary import counted
from protocol.rules.words import N_, Text

from .scoring import (
    CHELEM_BONUS,
    CONTRACTS,
    OUDLER_POINTS,
    OUDLERS,
    POIGNEE_BONUS,
    POIGNEE_TRUMPS,
    SIDES,
    TOTAL_POINTS,
    TRUMPS_AND_EXCUSE,
    Deal,
    Poignee,
    format_points,
)

GAME_KEYS = ("dealer", "taker", "contract", "partner", "oudlers", "points", "petit_au_bout",
             "poignees", "chelem", "null")
PARTNER_PLAYERS = 5  # Règlement officiel: only with 5 players the taker calls a king
MADE_CHELEMS = ("announced_made", "unannounced_made")

# Where each fact comes from, as the messages cite it.
DEALING = N_("FFT-Regeln: Die Kartenausgabe")
BIDDING = N_("FFT-Regeln: Die Überbietungen")
CONTRACTS_RULE = N_("FFT-Regeln: Verträge")
POIGNEE_RULE = N_("FFT-Regeln: Die Handvoll")
CHELEM_RULE = N_("FFT-Regeln: Le Chelem")
NULL_RULE = N_("FFT-Regeln: Schiedsrichtergesetz")
OFFICIAL = N_("Règlement officiel der FFT")

Error = tuple[str | None, str | None, str]


@dataclass
class CheckedDeal:
    """A deal read and checked: ``deal`` is None when it is null or has errors."""

    deal: Deal | None
    null: bool
    errors: list[Error] = field(default_factory=list)


def read_deal(data: Any, players: list[str], extra_keys: tuple[str, ...] = ()) -> CheckedDeal:
    """Check a ``game`` body for a table of ``players`` (seating order).

    ``extra_keys`` are keys the caller reads itself (e.g. an annulment) and lets pass.
    A null deal ("für null erklärt") needs only its dealer; whatever else it names is
    checked field by field, but not against each other, and it is not scored.
    """
    errors: list[Error] = []
    if not isinstance(data, dict):
        errors.append((None, None, N_("Ein Spiel muss ein Objekt mit Kartengeber, Spielnehmer, Vertrag, Bouts und "
                                       "Punkten sein.")))
        return CheckedDeal(None, False, errors)
    for key in sorted(set(data) - set(GAME_KEYS) - set(extra_keys), key=str):
        errors.append((None, key, Text(N_("Unbekanntes Feld %(key)r in einem Tarot-Spiel."), key=key)))
    null = data.get("null", False)
    if not isinstance(null, bool):
        errors.append((None, "null", Text(N_("„für null erklärt“ ist ja oder nein (true/false) (%(rule)s)."), rule=NULL_RULE)))
        null = False
    fields = _Fields(data, players, errors, required=not null)
    values = {
        "dealer": fields.player("dealer", Text(N_("Der Kartengeber muss einer der Spieler sein (%(rule)s)."), rule=DEALING),
                                required=True),
        "taker": fields.player("taker", Text(N_("Der Spielnehmer (preneur) muss einer der Spieler sein (%(rule)s)."),
                                                   rule=BIDDING)),
        "contract": fields.choice("contract", CONTRACTS, (
            Text(N_("Der Vertrag ist prise, garde, garde_sans oder garde_contre (%(rule)s)."), rule=CONTRACTS_RULE)),
            required=True),
        "oudlers": fields.oudlers(),
        "points": fields.points(),
        "petit_au_bout": fields.choice("petit_au_bout", SIDES, (
            Text(N_("Petit au bout ist attack (Angriff), defence (Verteidigung) oder null (%(rule)s)."),
                 rule=CONTRACTS_RULE))),
        "poignees": fields.poignees(),
        "chelem": fields.choice("chelem", CHELEM_BONUS, (
            Text(N_("Chelem ist announced_made, unannounced_made, announced_failed, defence oder null (%(rule)s)."),
                 rule=CHELEM_RULE))),
    }
    values["partner"] = fields.partner(values["taker"])
    if null or errors:
        return CheckedDeal(None, null, errors)
    deal = Deal(**values)
    errors.extend(consistency_errors(deal, len(players)))
    return CheckedDeal(None if errors else deal, False, errors)


class _Fields:
    """Reads the deal's fields one by one; a wrong field adds an error and reads as None."""

    def __init__(self, data: dict, players: list[str], errors: list[Error], required: bool) -> None:
        self.data, self.players, self.errors, self.required = data, players, errors, required

    def _absent(self, key: str, message: str, required: bool | None = None) -> bool:
        """True when the field is missing or null (an error if it is required)."""
        if self.data.get(key) is not None:
            return False
        if self.required if required is None else required:
            self.errors.append((None, key, message))
        return True

    def player(self, key: str, message: str, required: bool | None = None) -> str | None:
        if self._absent(key, message, required):
            return None
        value = self.data[key]
        if value not in self.players:
            self.errors.append((None, key, message))
            return None
        return value

    def choice(self, key: str, allowed, message: str, required: bool = False) -> str | None:
        """A value from ``allowed``; the optional ones (petit au bout, chelem) may be null."""
        if self._absent(key, message, required and self.required):
            return None
        value = self.data[key]
        if not isinstance(value, str) or value not in allowed:
            self.errors.append((None, key, message))
            return None
        return value

    def oudlers(self) -> int | None:
        message = Text(N_("Die Bouts (Oudler: Petit, 21, Excuse) in den Stichen des Angriffs: "
                          "eine ganze Zahl von 0 bis %(most)s (%(rule)s)."), most=OUDLERS, rule=OFFICIAL)
        if self._absent("oudlers", message):
            return None
        value = self.data["oudlers"]
        if not is_int(value) or not 0 <= value <= OUDLERS:
            self.errors.append((None, "oudlers", message))
            return None
        return value

    def points(self) -> float | None:
        message = Text(N_("Die Punkte des Angriffs sind ein Vielfaches von 0,5 von 0 bis %(most)s "
                          "(Kartenwerte, %(rule)s)."), most=TOTAL_POINTS, rule=OFFICIAL)
        if self._absent("points", message):
            return None
        value = self.data["points"]
        # the range first: it also rules out nan, infinity and ints too big for a float
        if (isinstance(value, bool) or not isinstance(value, (int, float))
                or not 0 <= value <= TOTAL_POINTS or not float(value * 2).is_integer()):
            self.errors.append((None, "points", message))
            return None
        return float(value)

    def partner(self, taker: str | None) -> str | None:
        """5 players: the holder of the called king, or null when the taker plays alone."""
        value = self.data.get("partner")
        if value is None:
            return None
        if len(self.players) != PARTNER_PLAYERS:
            self.errors.append((None, "partner", Text(N_(
                "Einen Partner (den Spieler mit dem gerufenen König) gibt es nur zu fünft; "
                "bei %(n)s Spielern spielt der Spielnehmer allein (%(rule)s)."), n=len(self.players), rule=OFFICIAL)))
            return None
        if value not in self.players:
            self.errors.append((None, "partner", Text(N_(
                "Der Partner muss einer der Spieler sein: der mit dem gerufenen König (%(rule)s)."), rule=OFFICIAL)))
            return None
        if value == taker:
            self.errors.append((value, "partner", Text(N_(
                "Hält der Spielnehmer den gerufenen König selbst (oder liegt er im Hund), spielt er "
                "allein: Partner leer lassen (%(rule)s)."), rule=OFFICIAL)))
            return None
        return value

    def poignees(self) -> tuple[Poignee, ...] | None:
        value = self.data.get("poignees")
        if value is None:
            return ()
        sizes = N_("simple, double oder triple")
        if not isinstance(value, list):
            self.errors.append((None, "poignees", Text(N_(
                "Die Poignées sind eine Liste, je Eintrag ein Spieler und die Größe (%(sizes)s) (%(rule)s)."),
                sizes=sizes, rule=POIGNEE_RULE)))
            return None
        shown: list[Poignee] = []
        ok = True
        for item in value:
            if not isinstance(item, dict) or set(item) != {"player", "size"}:
                self.errors.append((None, "poignees", Text(N_("Eine Poignée braucht genau „player“ und „size“ (%(rule)s)."),
                                                             rule=POIGNEE_RULE)))
                ok = False
                continue
            player, size = item["player"], item["size"]
            if player not in self.players:
                self.errors.append((None, "poignees", Text(N_(
                    "%(player)r spielt an diesem Tisch nicht mit und kann keine Poignée zeigen."), player=player)))
                ok = False
            elif any(p.player == player for p in shown):
                self.errors.append((player, "poignees", Text(N_(
                    "%(player)s zeigt höchstens eine Poignée; wer mehr Trümpfe hat, zeigt die größere (%(rule)s; "
                    "%(official)s)."), player=player, rule=POIGNEE_RULE, official=OFFICIAL)))
                ok = False
            if not isinstance(size, str) or size not in POIGNEE_BONUS:
                trumps = POIGNEE_TRUMPS[len(self.players)]
                table = ", ".join(f"{name} {count}" for name, count in trumps.items())
                self.errors.append((player if player in self.players else None, "poignees", Text(N_(
                    "Die Poignée ist %(sizes)s (bei %(n)s Spielern %(table)s Trümpfe; %(rule)s; %(official)s)."),
                    sizes=sizes, n=len(self.players), table=table, rule=POIGNEE_RULE, official=OFFICIAL)))
                ok = False
            elif player in self.players:
                shown.append(Poignee(player, size))
        return tuple(shown) if ok else None


def consistency_errors(deal: Deal, players: int) -> list[Error]:
    """What the fields, each valid on its own, cannot all be at once."""
    return [*_points_errors(deal), *_petit_errors(deal), *_poignee_errors(deal, players),
            *_chelem_errors(deal)]


def _points_errors(deal: Deal) -> list[Error]:
    """The attack's oudlers are worth 4.5 each, so are the defence's (Règlement officiel)."""
    least = deal.oudlers * OUDLER_POINTS
    most = TOTAL_POINTS - (OUDLERS - deal.oudlers) * OUDLER_POINTS
    points = format_points(deal.points)
    if deal.points < least:
        return [(None, "points", Text(N_(
            "%(bouts)s sind allein %(least)s Punkte wert; der Angriff kann damit nicht %(points)s Punkte haben "
            "(jeder Bout zählt 4,5; %(rule)s)."), bouts=_bouts(deal.oudlers), least=format_points(least),
            points=points, rule=OFFICIAL))]
    if deal.points > most:
        return [(None, "points", Text(N_(
            "Hat der Angriff %(bouts)s, bleiben der Verteidigung %(left)s mit %(defence)s Punkten: der Angriff hat "
            "höchstens %(most)s von %(total)s Punkten, nicht %(points)s (%(rule)s)."), bouts=_bouts(deal.oudlers),
            left=OUDLERS - deal.oudlers, defence=format_points(TOTAL_POINTS - most), most=format_points(most),
            total=TOTAL_POINTS, points=points, rule=OFFICIAL))]
    return []


def _petit_errors(deal: Deal) -> list[Error]:
    """The Petit au bout lies in the last trick, so it is in the tricks of the side taking it."""
    if deal.petit_au_bout == "attack" and deal.oudlers == 0:
        return [(None, "petit_au_bout", Text(N_(
            "Bringt der Angriff den Petit zum letzten Stich, hat er ihn in seinen Stichen: "
            "mindestens 1 Bout, nicht 0 (%(rule)s)."), rule=CONTRACTS_RULE))]
    if deal.petit_au_bout == "defence" and deal.oudlers == OUDLERS:
        return [(None, "petit_au_bout", Text(N_(
            "Bringt die Verteidigung den Petit zum letzten Stich, ist er in ihren Stichen: der "
            "Angriff hat höchstens 2 Bouts, nicht 3 (%(rule)s)."), rule=CONTRACTS_RULE))]
    return []


def _poignee_errors(deal: Deal, players: int) -> list[Error]:
    """All the poignées together cannot show more than the 21 trumps and the Excuse."""
    trumps = POIGNEE_TRUMPS[players]
    total = sum(trumps[p.size] for p in deal.poignees)
    if total <= TRUMPS_AND_EXCUSE:
        return []
    shown = " + ".join(f"{trumps[p.size]} ({p.player})" for p in deal.poignees)
    return [(None, "poignees", Text(N_(
        "Diese Poignées zeigen zusammen mindestens %(shown)s = %(total)s Trümpfe; es gibt nur 21 "
        "Trümpfe und die Excuse (Größen bei %(n)s Spielern; %(rule)s; %(official)s)."), shown=shown, total=total,
        n=players, rule=POIGNEE_RULE, official=OFFICIAL))]


def _chelem_errors(deal: Deal) -> list[Error]:
    """A chelem is every trick: the other side keeps at most its Excuse (and the dog it owns)."""
    errors: list[Error] = []
    if deal.chelem in MADE_CHELEMS:
        if deal.petit_au_bout == "defence":
            errors.append((None, "petit_au_bout", Text(N_(
                "Beim Chelem des Angriffs macht die Verteidigung keinen Stich, auch nicht den letzten (%(rule)s)."),
                rule=CHELEM_RULE)))
        if deal.contract == "garde_contre":
            # the defence keeps the dog (and maybe its Excuse): too little to beat the contract
            if not deal.made:
                errors.append((None, "chelem", Text(N_(
                    "Mit einem Chelem macht der Angriff alle Stiche und seinen Vertrag; mit "
                    "%(points)s Punkten und %(bouts)s wäre er verloren (%(rule)s)."),
                    points=format_points(deal.points), bouts=_bouts(deal.oudlers), rule=CHELEM_RULE)))
        elif deal.oudlers < OUDLERS - 1 or deal.points < TOTAL_POINTS - OUDLER_POINTS:
            errors.append((None, "chelem", Text(N_(
                "Beim Chelem des Angriffs bleibt der Verteidigung höchstens die Excuse: der Angriff hat "
                "mindestens 2 Bouts und 86,5 Punkte, nicht %(bouts)s und %(points)s Punkte (%(rule)s; %(official)s)."),
                bouts=_bouts(deal.oudlers), points=format_points(deal.points), rule=CHELEM_RULE, official=OFFICIAL)))
    if deal.chelem == "defence":
        if deal.petit_au_bout == "attack":
            errors.append((None, "petit_au_bout", Text(N_(
                "Beim Chelem der Verteidigung macht der Angriff keinen Stich, auch nicht den letzten (%(rule)s)."),
                rule=CHELEM_RULE)))
        if deal.contract == "garde_contre" and (deal.oudlers > 1 or deal.points > OUDLER_POINTS):
            errors.append((None, "chelem", Text(N_(
                "Beim Chelem der Verteidigung gegen eine Garde contre bleibt dem Angriff höchstens "
                "die Excuse: 1 Bout, 4,5 Punkte (%(rule)s; %(official)s)."), rule=CHELEM_RULE, official=OFFICIAL)))
        elif deal.made:
            errors.append((None, "chelem", Text(N_(
                "Macht die Verteidigung alle Stiche, verliert der Angriff seinen Vertrag; mit "
                "%(points)s Punkten und %(bouts)s wäre er gewonnen (%(rule)s)."),
                points=format_points(deal.points), bouts=_bouts(deal.oudlers), rule=CHELEM_RULE)))
    return errors


def _bouts(n: int) -> Text:
    return counted(n, N_("%(n)s Bout"), N_("%(n)s Bouts"))
