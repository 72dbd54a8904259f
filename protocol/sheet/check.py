"""The check code of a printed sheet: who holds the paper can see the Partie as stored now.

Every sheet printed from a stored Partie carries a short code and its QR code; both open the
public check page (``/pruefen/<code>/``, protocol/views/check.py). The code is

    <match id>-<version>-<MAC, 8 characters as 4-4>        e.g. 4711-15-K7QX-M2PA

- the match id and the version printed say *which* Partie and *which state* of it the paper
  shows (the version is raised by every write, protocol/recording.py);
- the MAC signs both: the first 40 bits of an HMAC-SHA256 of "<id>:<version>" with the
  site's ``SECRET_KEY`` and a salt of its own (``django.utils.crypto.salted_hmac``, what
  ``django.core.signing`` uses), written in Crockford's base32 (digits and capitals without
  I, L, O and U: nothing to mistake, read aloud or typed on a phone).

So a code cannot be guessed (2^40 tries for one Partie's code, each a request) nor made for
another Partie or another version (the MAC would not fit). A code signed with a key the site
used before (``SECRET_KEY_FALLBACKS``) still opens the page, as Django's signed values do: a
key rotation does not orphan the paper in the clubs' folders. The id and the version are
in plain sight on purpose: they are no secret, and a person can tell at a glance which
Partie the code is of.

What a person types is read kindly: small letters, spaces or long dashes in place of the
hyphens, the MAC's two halves run together, O for 0 and I or L for 1, the whole address
pasted in (:func:`parse`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.conf import settings
from django.urls import reverse
from django.utils.crypto import constant_time_compare, salted_hmac

from protocol.rules.check import points_only_summary
from protocol.rules.vocabulary import number
from protocol.rules.words import translated

SALT = "trumpfbuch.protocol.sheet.check"  # this code's own: no other signed value of the site fits
ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford's base32
MAC_BITS = 40
MAC_CHARS = MAC_BITS // 5
MAX_DIGITS = 9  # a match id or a version: what an integer column holds, with room

# Crockford's reading of what looks alike; hyphens for what people type between the parts.
_LOOKALIKES = str.maketrans({"O": "0", "I": "1", "L": "1", "–": "-", "—": "-", "‐": "-", "‑": "-"})
_SHAPE = re.compile(rf"(\d{{1,{MAX_DIGITS}}})-(\d{{1,{MAX_DIGITS}}})-([{ALPHABET}]{{4}})-?([{ALPHABET}]{{4}})")
MAX_LENGTH = 200  # what the form takes (a pasted address included)


@dataclass(frozen=True)
class CheckCode:
    """A code as the site signed it: the Partie ``match_id`` printed at ``version``."""

    match_id: int
    version: int

    def __str__(self) -> str:
        mac = _mac(self.match_id, self.version, settings.SECRET_KEY)
        return f"{self.match_id}-{self.version}-{mac[:4]}-{mac[4:]}"


def make(match_id: int, version: int) -> str:
    """The code printed on the sheet of the Partie ``match_id`` at ``version``."""
    return str(CheckCode(int(match_id), int(version)))


def parse(text: str) -> CheckCode | None:
    """The Partie and version of a code the site signed (with its key or one it used before);
    None for anything else: malformed, tampered with, or signed for another Partie or version."""
    shape = _shape(text)
    if shape is None:
        return None
    match_id, version = int(shape[1]), int(shape[2])
    given = shape[3] + shape[4]
    keys = [settings.SECRET_KEY, *settings.SECRET_KEY_FALLBACKS]
    if not any(constant_time_compare(given, _mac(match_id, version, key)) for key in keys):
        return None
    return CheckCode(match_id, version)


def well_formed(text: str) -> bool:
    """Does ``text`` look like a check code at all (signed or not)? For the form's message."""
    return _shape(text) is not None


def _shape(text: str) -> re.Match | None:
    if not isinstance(text, str) or len(text) > MAX_LENGTH:
        return None
    text = text.strip().rstrip("/")
    if "/" in text:  # the whole address pasted: its last part is the code
        text = text.rsplit("/", 1)[-1]
    return _SHAPE.fullmatch(re.sub(r"\s*-\s*|\s+", "-", text.upper().translate(_LOOKALIKES)))


def path(code: str) -> str:
    """The check page's address on this site."""
    return reverse("sheet_check", kwargs={"code": code})


def url(code: str, site: str) -> str:
    """The check page's full address, for the QR code: ``site`` is the site's own
    ("https://trumpfbuch.example"; see :func:`site_of`)."""
    return site.rstrip("/") + path(code)


def site_of(request) -> str:
    """The address the printed sheet names: ``SITE_URL`` where the operators set it (paper
    outlives a change of host names only where they did), else the one this request came to."""
    return settings.SITE_URL or request.build_absolute_uri("/").rstrip("/")


def _mac(match_id: int, version: int, key: str) -> str:
    digest = salted_hmac(SALT, f"{match_id}:{version}", secret=key, algorithm="sha256").digest()
    bits = int.from_bytes(digest[: MAC_BITS // 8], "big")
    return "".join(ALPHABET[(bits >> shift) & 31] for shift in range(MAC_BITS - 5, -1, -5))


# -- what the check page shows of the engine's answer -----------------------------------------

@dataclass(frozen=True)
class PlayerResult:
    """A player's line of the check page: his total of the Partie (and of each Stechen he
    played), as the engine computed them; nothing typed, nothing of his account."""

    player: str
    total: str
    negative: bool
    tiebreaks: tuple[tuple[int, str], ...]  # (the Stechen's number, his total in it)
    winner: bool
    disqualified: bool


def results(computed) -> list[PlayerResult]:
    """Every player in seating order, as the printed sheet's result lists them: the engine's
    totals (``Match.totals``: the Partie's own, Strafen deducted), its Stechen and winner."""
    return [PlayerResult(
        player=player, total=number(computed.totals[player]), negative=computed.totals[player] < 0,
        tiebreaks=tuple((stage.depth, number(stage.totals[player]))
                        for stage in computed.tiebreaks if player in stage.players),
        winner=player == computed.winner, disqualified=player in computed.disqualified)
        for player in computed.players]


@dataclass(frozen=True)
class PointsOnly:
    """The games of the Partie recorded as points only: their count as a sentence and each
    game's number (and Stechen) with the engine's words on what was not checked."""

    summary: str
    games: tuple[dict, ...]


def points_only(computed) -> PointsOnly | None:
    """What the check page says of the games recorded as points only, in the reader's language;
    None when every game has its facts."""
    found = points_only_summary(computed)
    if found is None:
        return None
    return PointsOnly(translated(found["summary"]), tuple(
        {"number": game["number"], "stage": game["stage"], "explanation": translated(game["explanation"])}
        for game in found["games"]))
