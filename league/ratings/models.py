"""The ratings as computed (league.ratings.ledger): never typed in, rewritten from the
Partien in the order they were played. Models of the ``league`` app (its migrations),
loaded with it (league.apps)."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from league.models import Club, Member


class RatingStream(models.Model):
    """The ratings of one game in one club: they are computed one after the other, never
    mixing games; ``version`` rises with every change of them (a page's cache key)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    game = models.CharField(max_length=20)
    version = models.PositiveIntegerField(default=0)

    class Meta:
        app_label = "league"
        constraints = [models.UniqueConstraint(fields=["club", "game"], name="rating_stream_unique")]


class Rating(models.Model):
    """A member's rating in one game after every Partie rated so far: the OpenSkill belief
    (``mu``, ``sigma``) and how many results (``games``: the contests of protocol/rules/contests.py, a
    Partie where the whole table is ranked, a Spiel where sides play) it rests on."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="ratings")
    game = models.CharField(_("game"), max_length=20)
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(default=0)

    class Meta:
        app_label = "league"
        indexes = [models.Index(fields=["club", "game"], name="rating_club_game")]
        constraints = [models.UniqueConstraint(fields=["member", "game"], name="rating_member_game_unique")]


class RatingStep(models.Model):
    """A member's rating after one Partie (the chart's points): the state a correction of a
    later Partie starts again from. ``partners`` (a game of sides): for each partner's pk, the
    Spiele played in one party in this Partie and those of them won."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="rating_steps")
    game = models.CharField(max_length=20)
    # No constraint: a deleted Partie's steps stay until the ratings are computed again from it.
    match = models.ForeignKey("protocol.Match", on_delete=models.DO_NOTHING, db_constraint=False, related_name="+")
    date = models.DateField()
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField()
    partners = models.JSONField(default=dict, blank=True)

    class Meta:
        app_label = "league"
        ordering = ["date", "match_id"]
        indexes = [models.Index(fields=["club", "game", "date", "match"], name="rating_step_order"),
                   models.Index(fields=["member", "game", "date"], name="rating_step_member")]


class RatedMatch(models.Model):
    """A Partie as it was rated: its ``version`` and ``date`` then (a later write or a new
    date tells that it must be rated again, and from where), its results counted and those
    left out (the record does not tell the sides)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    game = models.CharField(max_length=20)
    match = models.OneToOneField("protocol.Match", on_delete=models.DO_NOTHING, db_constraint=False,
                                 related_name="+")
    version = models.PositiveIntegerField()
    date = models.DateField()
    contests = models.PositiveIntegerField(default=0)
    left_out = models.PositiveIntegerField(default=0)
    # What the Partie adds to the club's records and to a head-to-head, in member pks
    # (league.ratings.records.partie_figures): derived with its ratings, never typed in.
    figures = models.JSONField(default=dict, blank=True)
    # Its results counted, as [teams, ranks] in member pks (protocol/rules/contests.py): who
    # played with and against whom on a head-to-head page. Apart: the records never read it.
    sides = models.JSONField(default=list, blank=True)

    class Meta:
        app_label = "league"
        indexes = [models.Index(fields=["club", "game", "date", "match"], name="rated_match_order")]
