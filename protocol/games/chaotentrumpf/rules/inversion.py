"""Inversionen (Art. 11): changing the trump after the Trumpfwahl.

Vocabulary: the *declared* kind is what the player announces; the *recognised* kind is the
weakest kind that reaches the target (Art. 11f), except that a declared Totalultra is always
recognised as Totalultra. Only recognised Ultra and Totalultra change the Trumpfwertung.
"""

from __future__ import annotations

from dataclasses import dataclass

from protocol.rules.words import N_

from .trump import Trump, parse_trump

KINDS = ("normal", "total", "ultra", "totalultra")  # weakest first
KIND_NAMES = {
    "normal": N_("Normalinversion"),
    "total": N_("Totalinversion"),
    "ultra": N_("Ultrainversion"),
    "totalultra": N_("Totalultrainversion"),
}
# Art. 11b: the swaps a Normalinversion allows, in both directions.
_PAIRS = [
    ("colour", "schwarz", "rot"),
    ("suit", "Kreuz", "Karo"), ("suit", "Pik", "Herz"),
    ("rank", "A", "7"), ("rank", "10", "8"), ("rank", "K", "9"), ("rank", "D", "B"),
]
NORMAL_SWAP = {Trump(lv, a): Trump(lv, b) for lv, a, b in _PAIRS} | {
    Trump(lv, b): Trump(lv, a) for lv, a, b in _PAIRS
}
FACTOR = {"ultra": 4, "totalultra": 5}  # Art. 16b: "nach einer (Total)ultrainversion"


def reaches(kind: str, current: Trump, target: Trump) -> bool:
    """Art. 11b: may an inversion of this kind turn ``current`` into ``target``?"""
    if kind == "normal":
        return NORMAL_SWAP.get(current) == target
    if kind == "total":
        return current.level == target.level and target.level != "card"
    if kind == "ultra":
        return target.level != "card"
    return True


def recognised_kind(declared: str, current: Trump, target: Trump) -> str:
    """Art. 11f: the weakest kind that reaches the target; a Totalultra stays Totalultra."""
    if declared == "totalultra":
        return declared
    return next(kind for kind in KINDS if reaches(kind, current, target))


@dataclass(frozen=True)
class Inversion:
    player: str
    declared: str
    recognised: str
    before: Trump
    target: Trump

    def as_json(self) -> dict:
        return {
            "player": self.player,
            "declared": self.declared,
            "recognised": self.recognised,
            "target": self.target.as_json(),
        }


def apply_inversions(data: object, trump: Trump, players: list[str]):
    """Check the announced inversions in order; answer (inversions, final trump, errors).

    ``errors`` is a list of (player or None, German message).
    """
    if data is None:
        return [], trump, []
    if not isinstance(data, list):
        return [], trump, [(None, "Die Inversionen müssen eine Liste sein (Art. 11).")]
    done: list[Inversion] = []
    errors: list[tuple[str | None, str]] = []
    inverted: set[str] = set()
    strongest = None  # the strongest recognised Ultra/Totalultra so far, Art. 11d
    current = trump
    for number, item in enumerate(data, start=1):
        if not isinstance(item, dict) or set(item) != {"player", "declared", "target"}:
            errors.append((None, f'Die {number}. Inversion braucht "player", "declared" und "target" (Art. 11a).'))
            continue
        player, declared = item["player"], item["declared"]
        if not isinstance(player, str) or player not in players:
            errors.append((None, f"{player!r} spielt in diesem Spiel nicht mit und kann nicht invertieren (Art. 11a)."))
            continue
        if player in inverted:
            errors.append((player, f"{player} invertiert ein zweites Mal; jeder darf nur einmal je Spiel invertieren (Art. 11a)."))
            continue
        if declared not in KINDS:
            errors.append((player, f"Unbekannte Inversion {declared!r}: normal, total, ultra oder totalultra (Art. 11b)."))
            continue
        target, problem = parse_trump(item["target"])
        if target is None:
            errors.append((player, f"Inversionsziel von {player}: {problem}"))
            continue
        if target == current:
            errors.append((player, f"{target.label} ist schon Trumpf; eine Inversion muss den Trumpf ändern (Art. 11)."))
            continue
        if not reaches(declared, current, target):
            errors.append((player, _cannot_reach(declared, current, target)))
            continue
        if strongest and KINDS.index(declared) < KINDS.index(strongest):
            errors.append((player, (
                f"Nach der {KIND_NAMES[strongest]} ist nur noch eine gleichwertige oder höhere "
                f"Inversion erlaubt, nicht eine {KIND_NAMES[declared]} (Art. 11d)."
            )))
            continue
        recognised = recognised_kind(declared, current, target)
        if recognised in FACTOR and (strongest is None or KINDS.index(recognised) > KINDS.index(strongest)):
            strongest = recognised
        done.append(Inversion(player, declared, recognised, current, target))
        inverted.add(player)
        current = target
    return done, current, errors


def inversion_factor(inversions: list[Inversion], trump: Trump) -> int | None:
    """Art. 16b: x5 after a recognised Totalultra (a single card implies it), x4 after an Ultra."""
    kinds = {inv.recognised for inv in inversions}
    if "totalultra" in kinds or trump.level == "card":
        return FACTOR["totalultra"]
    if "ultra" in kinds:
        return FACTOR["ultra"]
    return None


def _cannot_reach(declared: str, current: Trump, target: Trump) -> str:
    name = KIND_NAMES[declared]
    if declared == "normal":
        return (
            f"Eine Normalinversion kann {current.label} nicht zu {target.label} machen; sie "
            "tauscht nur schwarz/rot, Kreuz/Karo, Pik/Herz, As/7, 10/8, König/9, Dame/Bube (Art. 11b)."
        )
    if declared == "total":
        return (
            f"Eine Totalinversion bleibt auf der Trumpfebene: {current.label} kann nicht "
            f"zu {target.label} werden (Art. 11b)."
        )
    return f"Eine {name} kann keine einzelne Karte zum Trumpf machen; das kann nur die Totalultrainversion (Art. 11b)."
