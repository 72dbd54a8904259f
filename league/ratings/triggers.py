"""After a write to a Partie (protocol.score_cache.match_written): a Partie finished before or
after the write has its game rated again in the background (a new result, a correction, an
annulment or a reopening). A Spiel saved into a running Partie costs nothing: a Partie that was
not finished before the write was never rated as it stands (the write that reopened one queued
its rating then). A finished Partie deleted (the admin, the shell) is rated away the same way:
the ledger sees it rated but gone and computes again from where it stood."""

from django.db import transaction
from django.db.models.signals import post_delete
from django.dispatch import receiver

from protocol.models import Match
from protocol.score_cache import match_written

FINISHED = "finished"


@receiver(match_written, dispatch_uid="ratings_follow_the_partien")
def rate_again(sender, *, club_id, ruleset, status, was, **kwargs):
    if FINISHED not in (status, was):
        return
    from league.ratings.tasks import refresh_ratings

    refresh_ratings.enqueue(club_id, ruleset)


@receiver(post_delete, sender=Match, dispatch_uid="ratings_follow_a_deleted_partie")
def rate_without(sender, instance: Match, **kwargs):
    facts = {"club_id": instance.club_id, "ruleset": instance.ruleset, "status": "deleted", "was": instance.status}
    transaction.on_commit(lambda: rate_again(Match, **facts))
