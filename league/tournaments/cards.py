"""A tournament table's card: a code that opens that table's Partie on any phone, without an
account, until the round is closed.

The code is a MAC, not a stored secret: ten characters of Crockford's base 32 (50 bits) of an
HMAC-SHA256, under the site's ``SECRET_KEY``, of the card's row (round, table, issue and a
random nonce). The database keeps only the SHA-256 of the code, to find the card by it: a copy
of the database (a backup) opens no table, yet the secretary can print a card again at any time
(the code is computed anew; a key in ``SECRET_KEY_FALLBACKS`` still prints the cards issued
under it). Reissuing a card makes the next issue (a new nonce and code) and marks the one
before replaced: its code is still found, and answers that it was reissued. A forged or
mistyped code is found nowhere.

The address is short enough to type: ``/t/K7M2X-Q9PTA/`` (the dash, the case and the letters
O, I and L for 0, 1 and 1 are forgiven, as Crockford's alphabet intends).
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _

from league.models import Round, TableCard
from protocol.models import Match

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford's base 32: no I, L, O, U
LENGTH = 10  # 50 bits: guessing one of a day's hundred valid cards takes ~10^13 tries
SALT = "league.tournaments.cards"
CARDS_PER_SHEET = 4  # A6 cards on an A4 sheet


def _encode(digest: bytes) -> str:
    number = int.from_bytes(digest[:8], "big") >> (64 - 5 * LENGTH)
    return "".join(ALPHABET[(number >> (5 * i)) & 31] for i in reversed(range(LENGTH)))


def _code_with(card: TableCard, key: str) -> str:
    message = f"{card.round_id}:{card.table}:{card.generation}:{card.nonce}"
    return _encode(salted_hmac(SALT, message, secret=key, algorithm="sha256").digest())


def digest(code: str) -> str:
    return hashlib.sha256(code.encode()).hexdigest()


def code_of(card: TableCard) -> str | None:
    """The card's code, computed anew (None: issued under a key the site no longer has)."""
    for key in (settings.SECRET_KEY, *getattr(settings, "SECRET_KEY_FALLBACKS", ())):
        code = _code_with(card, key)
        if digest(code) == card.code_hash:
            return code
    return None


def shown(code: str) -> str:
    """The code as printed and typed: two groups of five."""
    return f"{code[:5]}-{code[5:]}"


def normalised(typed: str) -> str | None:
    """The code of what was typed or scanned, or None when it cannot be one."""
    code = typed.upper().replace("-", "").replace(" ", "").translate(str.maketrans("OIL", "011"))
    if len(code) != LENGTH or any(c not in ALPHABET for c in code):
        return None
    return code


def path(code: str) -> str:
    return reverse("table_card", kwargs={"card": shown(code)})


def _issue(round_: Round, table: int, generation: int, user) -> TableCard:
    card = TableCard(round=round_, table=table, generation=generation, nonce=secrets.token_hex(16),
                     issued_by=user if user is not None and user.is_authenticated else None)
    card.code_hash = digest(_code_with(card, settings.SECRET_KEY))
    card.save()
    return card


def cards_of(round_: Round, tables: list[int], user=None) -> dict[int, TableCard]:
    """The valid card of each of ``tables`` (numbers), issued now where a table has none."""
    cards = {c.table: c for c in round_.cards.filter(replaced_at=None, table__in=tables)}
    missing = [t for t in tables if t not in cards]
    if missing:
        last = dict(round_.cards.filter(table__in=missing).values("table").annotate(n=Max("generation"))
                    .values_list("table", "n"))
        try:
            with transaction.atomic():
                for table in missing:
                    cards[table] = _issue(round_, table, last.get(table, 0) + 1, user)
        except IntegrityError:  # printed at the same moment on another device: those are the cards
            cards = {c.table: c for c in round_.cards.filter(replaced_at=None, table__in=tables)}
    return cards


def reissue(round_: Round, table: int, user) -> TableCard:
    """A new card for ``table``; the one before stops opening it."""
    with transaction.atomic():
        Round.objects.select_for_update().get(pk=round_.pk)
        last = round_.cards.filter(table=table).order_by("-generation").first()
        if last is not None:
            round_.cards.filter(table=table, replaced_at=None).update(replaced_at=timezone.now())
        return _issue(round_, table, (last.generation + 1) if last else 1, user)


def withdraw(round_: Round) -> int:
    """Every valid card of the round stops working (its seating was drawn anew: the printed
    cards name other players); the next print issues new ones."""
    return round_.cards.filter(replaced_at=None).update(replaced_at=timezone.now())


@dataclass
class Found:
    """What a code opens: ``card`` (None: no card has this code) and ``refusal``, why it no
    longer opens anything ("" while it does)."""

    card: TableCard | None
    refusal: str = ""


def refusal(card: TableCard) -> str:
    """Why ``card`` opens nothing any more, "" while it does (asked on every request)."""
    if card.round.closed_at is not None:
        return _("This table card is no longer valid: the round is closed.")
    if card.replaced_at is not None:
        return _("This table card is no longer valid: it was reissued. Please use the new card from the "
                 "secretary.")
    return ""


def find(typed: str) -> Found:
    code = normalised(typed)
    if code is None:
        return Found(None)
    card = TableCard.objects.select_related("round", "round__season", "round__season__club").filter(
        code_hash=digest(code)).first()
    return Found(card, refusal(card) if card is not None else "")


def table_match(card: TableCard):
    """The Partie the card's table plays (the one in play; else the last annulled), or None."""
    matches = Match.objects.filter(round=card.round_id, table_number=card.table).order_by("-pk")
    return matches.exclude(status=Match.Status.ANNULLED).first() or matches.first()
