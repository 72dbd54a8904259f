"""The cache of the engine's answer the league reads: ``Match.status``, ``winner``, ``ended_by``,
``game_count``, ``finished_at`` and the ``ScoreLine`` and ``SanctionLine`` rows. Never typed in:
protocol.recording rewrites it from the engine's answer on every write."""

from __future__ import annotations

from collections import Counter

from django.db import transaction
from django.dispatch import Signal
from django.utils import timezone

from protocol.models import Match, SanctionLine, ScoreLine
from protocol.rules import Evaluation

# Sent once a write to a Partie is committed (its cache rewritten): ``match_id``, ``club_id``,
# ``ruleset``, ``status`` and ``was`` (the status before the write). What the league derives in
# the background listens (its ratings: league.ratings.triggers); this layer never imports what listens.
match_written = Signal()


def announce(match: Match, was: str) -> None:
    """Tell the listeners of ``match_written`` once the write to ``match`` is committed."""
    facts = {"match_id": match.pk, "club_id": match.club_id, "ruleset": match.ruleset, "status": match.status,
             "was": was}
    transaction.on_commit(lambda: match_written.send(sender=Match, **facts))


def refresh_cache(match: Match, evaluation: Evaluation) -> None:
    """Rewrite what the league reads from the engine's answer (never typed in).

    Only the rows that differ are written: a Spiel appended at Spiel 40 inserts its own
    lines and leaves the 160 before it alone; a correction replaces what it changed."""
    was = match.status
    score_lines, sanction_lines = cache_rows(match, evaluation)
    match.save(update_fields=["status", "winner", "ended_by", "game_count", "finished_at", "version", "updated_at"])
    _sync(ScoreLine, match, score_lines, SCORE_FIELDS)
    _sync(SanctionLine, match, sanction_lines, SANCTION_FIELDS)
    announce(match, was)


def append_cache(match: Match, evaluation: Evaluation) -> None:
    """The cache after an appended event: the engine replays in order and never changes
    what an earlier event computed, so only the new Spiel's lines (or the new Strafe) are
    written; ``match.game_count`` still counts the Spiele before this event (the cache of
    the version the write was claimed from)."""
    known_games = match.game_count
    known_sanctions = SanctionLine.objects.filter(match=match).count()
    was = match.status
    score_lines, sanction_lines = cache_rows(match, evaluation, games_from=known_games,
                                             sanctions_from=known_sanctions)
    match.save(update_fields=["status", "winner", "ended_by", "game_count", "finished_at", "version", "updated_at"])
    ScoreLine.objects.bulk_create(score_lines)
    SanctionLine.objects.bulk_create(sanction_lines)
    announce(match, was)


CACHED_FIELDS = ("status", "winner_id", "ended_by", "game_count", "finished_at")  # what cache_rows sets on the match
SCORE_FIELDS = ("member_id", "game_number", "stage", "score", "total", "annulled", "took_trump_bonus", "points_only")
SANCTION_FIELDS = ("member_id", "kind", "points", "after_game", "stage", "reason")


def _sync(model, match: Match, wanted: list, fields: tuple[str, ...]) -> None:
    """Make the match's cache rows of ``model`` equal ``wanted``, writing only the difference."""
    missing = Counter(tuple(getattr(row, f) for f in fields) for row in wanted)
    stale = []
    for pk, *values in model.objects.filter(match=match).values_list("pk", *fields):
        key = tuple(values)
        if missing[key] > 0:
            missing[key] -= 1  # stored as it should be: keep it
        else:
            stale.append(pk)
    if stale:
        model.objects.filter(pk__in=stale).delete()
    new_rows = []
    for row in wanted:
        key = tuple(getattr(row, f) for f in fields)
        if missing[key] > 0:
            missing[key] -= 1
            new_rows.append(row)
    if new_rows:
        model.objects.bulk_create(new_rows)


def cache_rows(match: Match, evaluation: Evaluation, members: dict[str, int] | None = None,
               games_from: int = 0, sanctions_from: int = 0) -> tuple[list[ScoreLine], list[SanctionLine]]:
    """The cache of the engine's answer, unsaved: sets ``match.status``, ``winner``,
    ``ended_by``, ``game_count`` and ``finished_at`` (not saved) and returns its ScoreLine and SanctionLine
    rows (those after the first ``games_from`` Spiele and ``sanctions_from`` Strafen).
    ``members`` (seat name -> member id) spares the query for the seats; the bulk
    generator (``generate_history``) passes it and saves the rows itself."""
    computed = evaluation.match
    if members is None:
        members = {seat.name: seat.member_id for seat in match.seats.all()}
    match.status = computed.status
    match.winner_id = members.get(computed.winner) if computed.winner else None
    match.ended_by = computed.ended_by or ""
    match.game_count = len(computed.games)
    # The moment it finished (the correction window runs from it): kept while it stays finished,
    # gone when a correction makes it run again.
    finished = computed.status == Match.Status.FINISHED
    match.finished_at = (match.finished_at or timezone.now()) if finished else None
    score_lines = [
        ScoreLine(match=match, member_id=members[player], game_number=game.number,
                  stage=game.stage, score=points, total=game.totals[player],
                  annulled=game.annulled, took_trump_bonus=game.took_trump_bonus(player),
                  points_only=game.points_only)
        for game in computed.games[games_from:] if game.points
        for player, points in game.points.items()
    ]
    sanction_lines = [
        SanctionLine(match=match, member_id=members[s.player], kind=s.kind, points=s.points,
                     after_game=s.after_game, stage=s.stage, reason=s.reason)
        for s in computed.sanctions[sanctions_from:]
    ]
    return score_lines, sanction_lines
