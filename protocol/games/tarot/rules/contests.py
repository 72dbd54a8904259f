"""Each Tarot deal as a contest of the taker (with his called partner at five) against the
defenders (protocol/rules/contests.py).

- The taker is the one recorded (``taker``, noted beside the scores of a points-only deal
  too). Where a points-only deal does not note him he is the one with the largest share:
  the taker gets (players - 1) x D, or 2 D with a partner at five, against D of the partner
  and of each defender (FFT-Regeln: Verträge). A tie for the largest share cannot be told:
  left out (ruling).
- The partner is the one recorded (``partner``: none when the taker called his own king);
  without a record, the other player whose score has the taker's sign.
- The taker's side won when his score is above 0. A deal declared null (every score 0,
  FFT-Regeln: Schiedsrichtergesetz) and an annulled deal count for nothing.
"""

from __future__ import annotations

from protocol.rules.contests import Contest, two_sides


def contests(match) -> list[Contest]:
    if match.status != "finished":
        return []
    return [deal_contest(game) for game in match.games
            if game.scores is not None and not game.annulled and any(game.scores.values())]


def deal_contest(game) -> Contest:
    scores = game.scores
    data = game.data if isinstance(game.data, dict) else {}
    taker = data.get("taker")
    if taker not in scores:
        largest = max(abs(s) for s in scores.values())
        biggest = [p for p, s in scores.items() if abs(s) == largest]
        if len(biggest) != 1:
            return Contest(game.number)
        taker = biggest[0]
    if "partner" in data:
        attack = [p for p in scores if p in (taker, data["partner"])]
    else:
        sign = scores[taker] > 0
        attack = [p for p, s in scores.items() if s and (s > 0) == sign]
    defence = [p for p in scores if p not in attack]
    return two_sides(game.number, attack, defence, scores[taker] > 0)
