"""What people read of a rating: one conservative number, provisional until it rests on
enough results, and who a member fares best and worst with as partner.

The number is OpenSkill's *ordinal* (mu - 3 sigma: the skill the member has at least, with
99.7 % certainty) on a scale people know from chess: 1000 + 30 x ordinal. A newcomer starts
at 1000 (25 - 3 x 25/3 = 0); with beta = 25/6 two settled players 200 apart win against each
other about 3 in 4 results, as 200 Elo points say (30 is 400 / (ln 10 x sqrt(2) x beta),
rounded). The scale changes no order, only how the numbers read.
"""

from __future__ import annotations

from dataclasses import dataclass

from protocol.rules import RULESETS

BASE, SCALE = 1000, 30
PARTNER_MIN_GAMES = 3  # fewer games together say nothing about a partnership
SETTLES_AFTER = 10  # for a game the registry no longer knows


def shown(mu: float, sigma: float) -> int:
    """The rating as shown: 1000 + 30 x (mu - 3 sigma), a whole number."""
    return round(BASE + SCALE * (mu - 3 * sigma))


def settles_after(game: str) -> int:
    """The results a rating of ``game`` rests on before it is no longer provisional."""
    ruleset = RULESETS.get(game)
    return getattr(ruleset, "rating_settles_after", SETTLES_AFTER)


def provisional(game: str, games: int) -> bool:
    return games < settles_after(game)


@dataclass(frozen=True)
class Partner:
    member_pk: int
    together: int
    won: int

    @property
    def share(self) -> float:
        return self.won / self.together


def partners(steps) -> list[Partner]:
    """The partners of the member's steps (``RatingStep.partners`` added up), those with at
    least ``PARTNER_MIN_GAMES`` together, the best share first (more games first on a tie)."""
    totals: dict[int, list[int]] = {}
    for step in steps:
        for pk, (together, won) in step.items():
            seen = totals.setdefault(int(pk), [0, 0])
            seen[0] += together
            seen[1] += won
    found = [Partner(pk, together, won) for pk, (together, won) in totals.items() if together >= PARTNER_MIN_GAMES]
    return sorted(found, key=lambda p: (-p.share, -p.together, p.member_pk))
