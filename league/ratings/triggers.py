"""After a write to a Partie (protocol.score_cache.match_written): a Partie that is finished,
or was rated before (a correction reopened, annulled or changed it), has its game rated
again in the background; a Spiel saved into a running Partie never rated costs one query."""

from django.dispatch import receiver

from league.ratings.models import RatedMatch
from protocol.score_cache import match_written


@receiver(match_written, dispatch_uid="ratings_follow_the_partien")
def rate_again(sender, *, match_id, club_id, ruleset, status, **kwargs):
    if status != "finished" and not RatedMatch.objects.filter(match_id=match_id).exists():
        return
    from league.ratings.tasks import refresh_ratings

    refresh_ratings.enqueue(club_id, ruleset)
