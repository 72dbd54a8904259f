"""The ratings' background work (django-tasks): a club's game rated again after a write to
one of its Partien. The queue keeps the task by its dotted path: it stays where it is."""

from django_tasks import task


@task()
def refresh_ratings(club_id: int, game: str) -> int:
    """Rate what changed in ``game`` of the club (league.ratings.ledger.refresh); the Partien rated."""
    from league.models import Club
    from league.ratings import ledger

    club = Club.objects.filter(pk=club_id).first()
    return ledger.refresh(club, game) if club is not None else 0
