"""One Doppelkopf game as the Protokollant records it, checked against every rule.

Vocabulary (docs/doppelkopf.md, protocol-format.md "Doppelkopf"):

- *Table*: the four players of a game. With five players the *dealer* sits out (scores 0)
  and is in neither party (TCG Allgemeines).
- *Party*: ``re`` (the soloist alone in a solo) and ``kontra`` (everyone else at the table).
- *Ansage*: "re" or "kontra"; *Absage*: keine 90, keine 60, keine 30, schwarz, made in this
  order after the party's Ansage. A party's announcements are a prefix of
  [re|kontra, keine 90, keine 60, keine 30, schwarz]; its *Absage level* is how many
  Absagen it made (0 to 4).
- *Schwarz*: the party that took no trick (it has 0 points).
- *Extras*: the special points per party (Doppelkopf, Fuchs gefangen, Karl(chen), and under
  TCG rules the reine Herzstich).
- *Revoke* (Verwurf): the player whose wrong play ended the game at once.

Citations: "TCG-Regeln, <Abschnitt>" are the sections of the seed text; "TCG 1" to "TCG 8"
the numbered rules of docs/doppelkopf.md ("TCG game value"); "DDV" the sections of the
DDV-Turnierspielregeln.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from protocol.rules.base import Problems, is_int
from protocol.rules.tally import ANNUL_KEYS
from protocol.rules.words import N_, Text

from .settings import PLAYERS_AT_TABLE, Settings

PARTIES = ("re", "kontra")
PARTY_NAMES = {"re": "Re", "kontra": "Kontra"}
TYPES = {
    "normal": N_("Normalspiel"),
    "hochzeit": N_("Hochzeit"),
    "abgabe": N_("Abgabe"),
    "solo_damen": N_("Damensolo"),
    "solo_buben": N_("Bubensolo"),
    "solo_trumpf": N_("Trumpfsolo"),
    "stille_hochzeit": N_("stille Hochzeit"),
}
SOLO_TYPES = {"solo_damen", "solo_buben", "solo_trumpf", "stille_hochzeit"}
ABSAGEN = ("keine 90", "keine 60", "keine 30", "schwarz")
EXTRA_KINDS = ("doppelkopf", "fuchs", "karl", "herzstich")
GAME_KEYS = {"type", "dealer", "re", "re_points", "schwarz", "announcements", "extras", "revoke"}
REQUIRED_KEYS = ("type", "dealer", "re", "re_points")
TOTAL_POINTS = 240
DOPPELKOPF_POINTS = 40  # a Doppelkopf is a trick of at least 40 points
MIN_TRICK_POINTS = {"tcg": 8, "ddv": 0}  # TCG: no nines, the least trick is four Buben

ORDER_RULE = {"tcg": N_("TCG-Regeln, Allgemeines: „Es muß die Reihenfolge eingehalten werden“"),
              "ddv": N_("DDV-Turnierspielregeln 6")}
DECK_RULE = {"tcg": N_("TCG-Regeln, Allgemeines: 40 Karten"), "ddv": N_("DDV-Turnierspielregeln 2.2: 48 Karten")}
PARTY_RULE = {"tcg": N_("TCG-Regeln, Vorbehalte"), "ddv": N_("DDV-Turnierspielregeln 2.4")}
# Five at a table: TCG Allgemeines; DDV tables have four, clubs play five as TCG does (ruling).
TABLE_RULE = {"tcg": N_("TCG-Regeln, Allgemeines: bei mehr als 4 Spielern sitzt der Geber aus"),
              "ddv": N_("DDV-Turnierspielregeln: am Tisch spielen vier; zu fünft sitzt im Vereinsspiel der Geber aus")}
# What "schwarz" records (the protocol format): the party that took no trick, so 0 Augen.
SCHWARZ_RULE = N_("Protokollformat: „schwarz“ nennt die Partei ohne Stich")


@dataclass(frozen=True)
class Deal:
    """A game read and checked (the word avoids clashing with the tally's games)."""

    rules: str  # tcg | ddv
    type: str
    dealer: str
    players: list[str]  # every player of the match who may play, seating order
    table: list[str]  # the four who play it, seating order
    re: list[str]
    re_points: int
    schwarz: str | None
    announcements: dict[str, list[str]]  # party -> its announcements, in order
    extras: dict[str, dict[str, int]]  # party -> kind -> count
    revoke: str | None

    @property
    def kontra(self) -> list[str]:
        return [p for p in self.table if p not in self.re]

    @property
    def solo(self) -> bool:
        """Solo, stille Hochzeit, and a Hochzeit whose partner was not found (TCG Vorbehalt e, DDV 4.4)."""
        return len(self.re) == 1

    @property
    def sitting_out(self) -> str | None:
        return self.dealer if len(self.players) > PLAYERS_AT_TABLE else None

    def members(self, party: str) -> list[str]:
        return self.re if party == "re" else self.kontra

    def party_of(self, player: str) -> str:
        return "re" if player in self.re else "kontra"

    def points(self, party: str) -> int:
        return self.re_points if party == "re" else TOTAL_POINTS - self.re_points

    def took_trick(self, party: str) -> bool:
        return self.schwarz != party

    def announced(self, party: str) -> bool:
        """The party made its Ansage (Re or Kontra); every Absage includes it."""
        return bool(self.announcements[party])

    def absage(self, party: str) -> int:
        """The party's Absage level: 0 none, 1 keine 90, 2 keine 60, 3 keine 30, 4 schwarz."""
        return max(0, len(self.announcements[party]) - 1)


def other(party: str) -> str:
    return "kontra" if party == "re" else "re"


def read_deal(data: dict, players: list[str], settings: Settings, index: int,
              problems: Problems) -> Deal | None:
    """Check a game's body against every rule; None (with every error added) if it is wrong."""
    before = len(problems)
    rules = settings.rules

    def bad(field: str | None, message: str, player: str | None = None) -> None:
        problems.add(index, player, field, message)

    for key in sorted(set(data) - GAME_KEYS - ANNUL_KEYS, key=str):
        bad(key, Text(N_("Unbekanntes Feld %(key)r in einem Doppelkopf-Spiel."), key=key))
    for key in REQUIRED_KEYS:
        if key not in data:
            bad(key, Text(N_("Das Feld „%(key)s“ fehlt: Spielart, Geber, Re-Partei und Augen der Re-Partei gehören zu jedem Spiel."), key=key))
    game_type = _read_type(data.get("type"), rules, bad) if "type" in data else None
    dealer = data.get("dealer")
    if "dealer" in data and dealer not in players:
        bad("dealer", Text(N_("Der Geber %(dealer)r spielt in dieser Partie nicht (mehr) mit."), dealer=dealer))
        dealer = None
    table = [p for p in players if p != dealer] if len(players) > PLAYERS_AT_TABLE else list(players)
    re = _read_re(data.get("re"), game_type, dealer, players, table, rules, bad) if "re" in data else None
    re_points = _read_points(data.get("re_points"), rules, bad) if "re_points" in data else None
    revoke = _read_revoke(data.get("revoke"), table, dealer, players, rules, bad)
    schwarz = _read_schwarz(data.get("schwarz"), re_points, rules, revoke is not None, bad)
    announcements = _read_announcements(data.get("announcements"), rules, bad)
    if len(problems) > before:
        _read_extras(data.get("extras"), None, rules, settings.tricks, bad)  # their form errors too
        return None
    deal = Deal(rules, game_type, dealer, list(players), table, re, re_points, schwarz,
                announcements, {}, revoke)
    extras = _read_extras(data.get("extras"), deal, rules, settings.tricks, bad)
    return None if len(problems) > before else replace(deal, extras=extras)


def _read_type(value: Any, rules: str, bad) -> str | None:
    if not isinstance(value, str) or value not in TYPES:
        names = ", ".join(TYPES)
        rule = N_("TCG-Regeln, Vorbehalte") if rules == "tcg" else N_("DDV-Turnierspielregeln 4")
        bad("type", Text(N_("Unbekannte Spielart %(value)r; möglich sind %(names)s (%(rule)s)."), value=value, names=names,
                         rule=rule))
        return None
    if value == "abgabe" and rules == "ddv":
        # DDV 4: the Vorbehalte are Hochzeit and the Soli; an Armut (Abgabe) is a house rule.
        bad("type", N_("Eine Abgabe kennen die DDV-Turnierspielregeln nicht: Vorbehalte sind nur Hochzeit und "
                       "Soli (DDV-Turnierspielregeln 4)."))
        return None
    return value


def _read_re(value: Any, game_type: str | None, dealer: str | None, players: list[str],
             table: list[str], rules: str, bad) -> list[str] | None:
    if not isinstance(value, list) or not all(isinstance(p, str) for p in value) or len(set(value)) != len(value):
        bad("re", N_("Die Re-Partei ist eine Liste verschiedener Spielernamen."))
        return None
    ok = True
    for name in value:
        if name not in players:
            bad("re", Text(N_("%(name)r spielt in dieser Partie nicht (mehr) mit."), name=name))
            ok = False
        elif name not in table:
            bad("re", Text(N_("%(name)s gibt, sitzt bei fünf Spielern aus und gehört keiner Partei an (%(rule)s)."),
                           name=name, rule=TABLE_RULE[rules]), name)
            ok = False
    if not ok or game_type is None:
        return None
    if game_type in SOLO_TYPES and len(value) != 1:
        rule = N_("TCG-Regeln, Vorbehalt b und e") if rules == "tcg" else N_("DDV-Turnierspielregeln 2.4")
        bad("re", Text(N_("%(type)s: einer spielt allein, die Re-Partei ist nur der Solist (%(rule)s)."),
                       type=TYPES[game_type], rule=rule))
        return None
    if game_type == "hochzeit" and len(value) not in (1, 2):
        rule = N_("TCG-Regeln, Vorbehalt e") if rules == "tcg" else N_("DDV-Turnierspielregeln 4.4")
        bad("re", Text(N_("Bei einer Hochzeit ist die Re-Partei der Hochzeiter und sein Partner, oder er "
                          "allein, wenn sich nach 3 Stichen kein Partner fand (%(rule)s)."), rule=rule))
        return None
    if game_type in ("normal", "abgabe") and len(value) != 2:
        bad("re", Text(N_("%(type)s: zwei spielen gegen zwei, die Re-Partei hat zwei Spieler (%(rule)s)."),
                       type=TYPES[game_type], rule=PARTY_RULE[rules]))
        return None
    return list(value)


def _read_points(value: Any, rules: str, bad) -> int | None:
    if not is_int(value) or not 0 <= value <= TOTAL_POINTS:
        bad("re_points", Text(N_("Die Augen der Re-Partei sind eine ganze Zahl von 0 bis 240 (Kontra hat 240 "
                                 "minus diese; %(rule)s mit 240 Augen), nicht %(value)r."), rule=DECK_RULE[rules],
                              value=value))
        return None
    least = MIN_TRICK_POINTS[rules]
    if rules == "tcg" and (0 < value < least or 0 < TOTAL_POINTS - value < least):
        bad("re_points", Text(N_("%(value)s Augen sind mit 40 Karten unmöglich: jeder Stich hat mindestens 8 Augen "
                                 "(vier Buben), eine Partei hat 0 oder mindestens 8 (%(rule)s)."), value=value,
                              rule=DECK_RULE[rules]))
        return None
    if rules == "ddv" and value in (1, TOTAL_POINTS - 1):
        bad("re_points", Text(N_("%(value)s Augen sind unmöglich: keine Karte zählt 1 Auge (%(rule)s)."), value=value,
                              rule=DECK_RULE[rules]))
        return None
    return value


def _read_schwarz(value: Any, re_points: int | None, rules: str, revoked: bool, bad) -> str | None:
    """Which party took no trick. 0 Augen means schwarz only in a game played to its end: a
    game cut short by a Verwurf is never schwarz because of its points alone (ruling, TCG 7)."""
    if value is not None and value not in PARTIES:
        bad("schwarz", Text(N_('„schwarz“ ist "re" oder "kontra" (die Partei ohne Stich) oder null, nicht %(value)r.'),
                            value=value))
        return None
    if re_points is None:
        return value
    if value is not None:
        points = re_points if value == "re" else TOTAL_POINTS - re_points
        if points:
            bad("schwarz", Text(N_("Eine Partei ohne Stich hat 0 Augen; %(party)s hat aber %(points)s (%(rule)s)."),
                                party=PARTY_NAMES[value], points=points, rule=SCHWARZ_RULE))
            return None
    elif rules == "tcg" and not revoked:
        for party, points in (("re", re_points), ("kontra", TOTAL_POINTS - re_points)):
            if points == 0:
                bad("schwarz", Text(N_("%(party)s hat 0 Augen, also keinen Stich (mit 40 Karten hat jeder Stich "
                                       "mindestens 8 Augen): „schwarz“ ist %(key)r (%(rule)s)."),
                                    party=PARTY_NAMES[party], key=party, rule=DECK_RULE[rules]))
                return None
    return value


def _read_announcements(value: Any, rules: str, bad) -> dict[str, list[str]]:
    result: dict[str, list[str]] = {p: [] for p in PARTIES}
    if value is None:
        return result
    if not isinstance(value, dict):
        bad("announcements", N_('Die Ansagen sind ein Objekt mit "re" und "kontra", je eine Liste.'))
        return result
    for key in sorted(set(value) - set(PARTIES), key=str):
        bad("announcements", Text(N_("Ansagen machen nur die Parteien „re“ und „kontra“, nicht %(key)r."), key=key))
    for party in PARTIES:
        said = value.get(party, [])
        order = [party, *ABSAGEN]
        if said is None:
            said = []
        if not isinstance(said, list) or said != order[: len(said)]:
            listed = ", ".join(f"„{a}“" for a in order)
            bad("announcements", Text(N_(
                "Die Ansagen von %(party)s folgen der Reihe nach: %(listed)s; keine darf fehlen oder doppelt sein "
                "(eine Absage schließt die vorigen ein; %(rule)s)."), party=PARTY_NAMES[party], listed=listed,
                rule=ORDER_RULE[rules]))
            continue
        result[party] = list(said)
    return result


def _read_revoke(value: Any, table: list[str], dealer: str | None, players: list[str], rules: str,
                 bad) -> str | None:
    if value is None:
        return None
    if value not in players:
        bad("revoke", Text(N_("Der Verwurf muss einem Spieler am Tisch zugeordnet werden, nicht %(value)r."), value=value))
        return None
    if value not in table:
        bad("revoke", Text(N_("%(player)s gibt und sitzt aus, ein Verwurf ist so nicht möglich (%(rule)s)."),
                           player=value, rule=TABLE_RULE[rules]), value)
        return None
    return value


def _read_extras(value: Any, deal: Deal | None, rules: str, tricks: int, bad) -> dict[str, dict[str, int]]:
    """The special points per party; ``deal`` None means: only check the form."""
    counts = {p: {k: 0 for k in EXTRA_KINDS} for p in PARTIES}
    if value is None:
        return counts
    if not isinstance(value, dict):
        bad("extras", N_('Die Sonderpunkte sind ein Objekt mit "re" und "kontra".'))
        return counts
    ok = True
    for key in sorted(set(value) - set(PARTIES), key=str):
        bad("extras", Text(N_("Sonderpunkte haben nur die Parteien „re“ und „kontra“, nicht %(key)r."), key=key))
        ok = False
    for party in PARTIES:
        given = value.get(party) or {}
        if not isinstance(given, dict):
            bad("extras", Text(N_("Die Sonderpunkte von %(party)s sind ein Objekt (doppelkopf, fuchs, karl, herzstich)."),
                               party=PARTY_NAMES[party]))
            ok = False
            continue
        for kind, count in given.items():
            if kind not in EXTRA_KINDS:
                bad("extras", Text(N_("Unbekannter Sonderpunkt %(kind)r; möglich sind doppelkopf, fuchs, karl, herzstich."),
                                   kind=kind))
                ok = False
            elif not is_int(count) or count < 0:
                bad("extras", Text(N_("Die Zahl der Sonderpunkte „%(kind)s“ von %(party)s ist eine ganze Zahl ab 0, "
                                      "nicht %(count)r."), kind=kind, party=PARTY_NAMES[party], count=count))
                ok = False
            else:
                counts[party][kind] = count
    if ok and deal is not None:
        _check_extras_possible(counts, deal, rules, tricks, bad)
    return counts


def _check_extras_possible(counts: dict[str, dict[str, int]], deal: Deal, rules: str, tricks: int, bad) -> None:
    def total(kind: str) -> int:
        return counts["re"][kind] + counts["kontra"][kind]

    rule = N_("TCG-Regeln, Sonderpunkte") if rules == "tcg" else N_("DDV-Turnierspielregeln 7.2")
    if rules == "ddv" and total("herzstich"):
        bad("extras", N_("Einen reinen Herzstich als Sonderpunkt kennen die DDV-Turnierspielregeln nicht "
                         "(DDV-Turnierspielregeln 7.2)."))
    if total("fuchs") > 2:
        bad("extras", Text(N_("Es gibt nur zwei Füchse (Karo-Asse): höchstens 2 gefangen, nicht %(n)s (%(rule)s)."),
                           n=total("fuchs"), rule=rule))
    if total("karl") > 1:
        bad("extras", Text(N_("Den letzten Stich macht nur einer: höchstens ein Karl(chen), nicht %(n)s (%(rule)s)."),
                           n=total("karl"), rule=rule))
    if total("doppelkopf") > tricks:
        bad("extras", Text(N_("Ein Spiel hat %(tricks)s Stiche (%(rule)s): höchstens %(tricks)s Doppelköpfe, "
                              "nicht %(n)s."), tricks=tricks, rule=DECK_RULE[rules], n=total("doppelkopf")))
    else:
        for party in PARTIES:
            n, points = counts[party]["doppelkopf"], deal.points(party)
            if n * DOPPELKOPF_POINTS > points:
                bad("extras", Text(N_("Doppelköpfe sind Stiche mit mindestens 40 Augen: %(n)s brauchen %(needed)s "
                                      "Augen, %(party)s hat nur %(points)s (%(rule)s)."), n=n,
                                   needed=n * DOPPELKOPF_POINTS, party=PARTY_NAMES[party], points=points, rule=rule))
    most_herzstiche = 2 if deal.type in ("solo_damen", "solo_buben") else 1  # 4 or 8 Fehl-Herzen of 40 cards
    if rules == "tcg" and total("herzstich") > most_herzstiche:
        most = N_("einen reinen Herzstich") if most_herzstiche == 1 else N_("zwei reine Herzstiche")
        bad("extras", Text(N_("Mit 40 Karten gibt es in diesem Spiel höchstens %(most)s, nicht %(n)s (%(rule)s)."),
                           most=most, n=total("herzstich"), rule=rule))
    for party in PARTIES:
        if not deal.took_trick(party) and any(counts[party].values()):
            bad("extras", Text(N_("%(party)s hat keinen Stich gemacht und kann keine Sonderpunkte haben "
                                  "(%(rule)s: jeder Sonderpunkt ist ein Stich)."), party=PARTY_NAMES[party], rule=rule))
