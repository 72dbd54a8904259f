"""The ratings computed: each game of each club on its own, Partie after Partie in the
order they were played (their date, then their pk: the order they were entered), each
Partie's contests (protocol/rules/contests.py) rated with OpenSkill's Plackett–Luce model.

Deterministic and correctable: :func:`refresh` compares the finished Partien with those
rated (their version and date), and computes again from the earliest that differs (a new
Partie, a correction, a new date, an annulment, a deletion), starting from the ratings as
they were before it (the steps kept per Partie: ``RatingStep``). So the incremental path and
:func:`rebuild` (from the first Partie) give the same numbers: the same floats fed in the
same order. Guests are rated like everyone (their opponents' results depend on them).
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Callable, Iterator

from django.db import transaction
from django.db.models import F, Q

from league.models import Club
from league.ratings.models import RatedMatch, Rating, RatingStep, RatingStream
from league.ratings.records import partie_figures
from league.registry import versions
from protocol.models import Event, Match, Seat
from protocol.reading import BulkReading, document
from protocol.rules import get_ruleset

CHUNK = 200  # Partien read (and replayed) at a time
Key = tuple[datetime.date, int]  # where a Partie stands in the order played: (date, pk)


def model():
    """The model with OpenSkill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300."""
    from openskill.models import PlackettLuce

    return PlackettLuce()


def refresh(club: Club, game: str, progress: Callable | None = None) -> int:
    """Rate what changed since the last run of ``game`` in ``club``; the Partien rated anew."""
    with transaction.atomic():
        _lock(club, game)
        finished = set(_finished(club, game).values_list("date", "pk", "version"))
        rated = set(RatedMatch.objects.filter(club=club, game=game).values_list("date", "match_id", "version"))
        changed = finished ^ rated
        if not changed:
            return 0
        return _compute_from(club, game, min((d, pk) for d, pk, _ in changed), progress)


def rebuild(club: Club, game: str, progress: Callable | None = None) -> int:
    """Every Partie of ``game`` in ``club`` rated anew from the first; the Partien rated."""
    with transaction.atomic():
        _lock(club, game)
        return _compute_from(club, game, None, progress)


def games_of(club: Club) -> list[str]:
    """The games the club has Partien of (rated or to be rated)."""
    played = set(Match.objects.filter(club=club).values_list("ruleset", flat=True).distinct())
    played |= set(RatedMatch.objects.filter(club=club).values_list("game", flat=True).distinct())
    return sorted(played)


def _lock(club: Club, game: str) -> RatingStream:
    """The game's stream of the club, locked: one computation of it at a time."""
    RatingStream.objects.get_or_create(club=club, game=game)
    return RatingStream.objects.select_for_update().get(club=club, game=game)


def _finished(club: Club, game: str):
    return Match.objects.filter(club=club, ruleset=game, status=Match.Status.FINISHED)


def _from(key: Key | None, date: str = "date", pk: str = "match_id") -> Q:
    if key is None:
        return Q()
    return Q(**{f"{date}__gt": key[0]}) | Q(**{date: key[0], f"{pk}__gte": key[1]})


def _compute_from(club: Club, game: str, key: Key | None, progress: Callable | None) -> int:
    steps = RatingStep.objects.filter(club=club, game=game)
    # Whose rating is written again: their pages are kept by their version (league.registry.versions).
    touched = set(steps.filter(_from(key)).values_list("member_id", flat=True).distinct())
    removed, _ = steps.filter(_from(key)).delete()
    RatedMatch.objects.filter(club=club, game=game).filter(_from(key)).delete()
    if key is None:
        state = {}
    elif removed:  # as they were before the first Partie computed again
        state = {}
        for member, mu, sigma, count in steps.order_by("date", "match_id").values_list("member_id", "mu", "sigma",
                                                                                       "games"):
            state[member] = (mu, sigma, count)
    else:  # appended after the last one rated: the ratings as they stand
        state = {member: (mu, sigma, count) for member, mu, sigma, count in
                 Rating.objects.filter(club=club, game=game).values_list("member_id", "mu", "sigma", "games")}
    matches = _finished(club, game).filter(_from(key, "date", "pk")).order_by("date", "pk")
    total = matches.count()
    rated = 0
    for chunk in _chunks(matches, total, progress):
        new_steps, new_rated = [], []
        for match, contests, figures in chunk:
            left_out = sum(1 for c in contests if c.left_out)
            counted = [c for c in contests if not c.left_out]
            partners = _rate(state, counted) if counted else {}
            rated_members = sorted({m for c in counted for team in c.teams for m in team})
            touched.update(rated_members)
            for member in rated_members:
                mu, sigma, count = state[member]
                new_steps.append(RatingStep(club=club, member_id=member, game=game, match_id=match.pk,
                                            date=match.date, mu=mu, sigma=sigma, games=count,
                                            partners=partners.get(member, {})))
            new_rated.append(RatedMatch(club=club, game=game, match_id=match.pk, version=match.version,
                                        date=match.date, contests=len(counted), left_out=left_out,
                                        figures=figures, sides=[[c.teams, c.ranks] for c in counted]))
            rated += 1
        RatingStep.objects.bulk_create(new_steps, batch_size=500)
        RatedMatch.objects.bulk_create(new_rated, batch_size=500)
    _store(club, game, state)
    versions.touch_members(touched)
    RatingStream.objects.filter(club=club, game=game).update(version=F("version") + 1)
    return rated


def _chunks(matches, total: int, progress: Callable | None) -> Iterator[list]:
    """The Partien with their contests as member pks and their figures for the records
    (league.ratings.records), ``CHUNK`` at a time: their events and
    seats read in two queries a chunk, the engine's answer the kept one or a replay (a bulk
    reading, protocol.reading)."""
    ruleset = None
    done = 0
    pks = list(matches.values_list("pk", flat=True))
    for start in range(0, len(pks), CHUNK):
        chunk = list(Match.objects.filter(pk__in=pks[start:start + CHUNK]).select_related("club", "season")
                     .order_by("date", "pk"))
        events, seats = defaultdict(list), defaultdict(list)
        for match_id, kind, data in (Event.objects.filter(match_id__in=[m.pk for m in chunk])
                                     .order_by("match_id", "position").values_list("match_id", "kind", "data")):
            events[match_id].append({kind: data})
        for seat in Seat.objects.filter(match_id__in=[m.pk for m in chunk]).order_by("match_id", "position"):
            seats[seat.match_id].append(seat)
        reading = BulkReading(chunk)
        out = []
        for match in chunk:
            ruleset = ruleset or get_ruleset(match.ruleset)
            doc = document(match, events[match.pk], ordered=False,
                           seats=[(seat.name, seat.is_scorekeeper) for seat in seats[match.pk]])
            evaluation = reading.evaluation(match, doc)
            members = {seat.name: seat.member_id for seat in seats[match.pk]}
            computed = evaluation.match
            contests = ruleset.contests(computed) if ruleset and computed else []
            figures = partie_figures(computed, members) if computed and computed.status == "finished" else {}
            out.append((match, [_as_members(c, members) for c in contests], figures))
        done += len(chunk)
        if progress:
            progress(done, total)
        yield out


def _as_members(contest, members: dict[str, int]):
    from protocol.rules.contests import Contest

    teams = tuple(tuple(members[p] for p in team) for team in contest.teams)
    return Contest(contest.number, teams, contest.ranks)


def _rate(state: dict, contests) -> dict[int, dict[str, list[int]]]:
    """Feed ``contests`` (member pks) to the model in order, updating ``state``; the partners
    of each member in this Partie (a side of two or more: {partner pk: [together, won]})."""
    engine = model()
    partners: dict[int, dict[str, list[int]]] = defaultdict(dict)
    for contest in contests:
        teams = [[engine.rating(*state[m][:2]) if m in state else engine.rating() for m in team]
                 for team in contest.teams]
        after = engine.rate(teams, ranks=list(contest.ranks))
        best = min(contest.ranks)
        for team, rank, rated in zip(contest.teams, contest.ranks, after, strict=True):
            won = rank == best and contest.ranks.count(best) == 1
            for member, rating in zip(team, rated, strict=True):
                state[member] = (rating.mu, rating.sigma, state.get(member, (0, 0, 0))[2] + 1)
                if len(team) > 1 and len(contest.teams) == 2:
                    for partner in team:
                        if partner != member:
                            seen = partners[member].setdefault(str(partner), [0, 0])
                            seen[0] += 1
                            seen[1] += won
    return partners


def _store(club: Club, game: str, state: dict) -> None:
    """The ratings as they stand, for the lists and pages."""
    Rating.objects.filter(club=club, game=game).delete()
    Rating.objects.bulk_create([Rating(club=club, member_id=member, game=game, mu=mu, sigma=sigma, games=count)
                                for member, (mu, sigma, count) in sorted(state.items())], batch_size=500)
