"""After a write to a Partie (protocol.score_cache.match_written): a Partie finished before or
after the write has its game rated again in the background (a new result, a correction, an
annulment or a reopening). A Spiel saved into a running Partie costs nothing: a Partie that was
not finished before the write was never rated as it stands (the write that reopened one queued
its rating then)."""

from django.dispatch import receiver

from protocol.score_cache import match_written

FINISHED = "finished"


@receiver(match_written, dispatch_uid="ratings_follow_the_partien")
def rate_again(sender, *, club_id, ruleset, status, was, **kwargs):
    if FINISHED not in (status, was):
        return
    from league.ratings.tasks import refresh_ratings

    refresh_ratings.enqueue(club_id, ruleset)
