"""The registry: clubs, their members and seasons (layer 2; imports nothing of protocol)."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _


class ClubQuerySet(models.QuerySet):
    def for_user(self, user):
        """The clubs the user plays in (a linked Member) or keeps the books of."""
        if not user.is_authenticated:
            return self.none()
        return self.filter(Q(members__user=user) | Q(secretaries=user)).distinct()

    def with_public_standings(self):
        return self.filter(standings_public=True)


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120, unique=True)
    slug = models.SlugField(_("short name in addresses"), max_length=60, unique=True)
    place = models.CharField(_("town"), max_length=80, blank=True)
    standings_public = models.BooleanField(
        _("standings public"),
        default=False,
        help_text=_("Anyone, even without an account, may see the club's standings."),
    )
    secretaries = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("secretaries"),
        related_name="secretary_of_clubs",
        blank=True,
    )
    created = models.DateTimeField(_("created"), auto_now_add=True)

    objects = ClubQuerySet.as_manager()

    class Meta:
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        ordering = ["name"]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("club", kwargs={"slug": self.slug})


class Member(models.Model):
    """A person who plays in a club; may or may not have a login (`user`)."""

    club = models.ForeignKey(
        Club, verbose_name=_("club"), on_delete=models.CASCADE, related_name="members"
    )
    name = models.CharField(_("name"), max_length=80)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user account"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="memberships",
    )
    is_guest = models.BooleanField(_("guest"), default=False)
    active = models.BooleanField(_("active"), default=True)
    joined = models.DateField(_("joined"), null=True, blank=True)

    class Meta:
        verbose_name = _("member")
        verbose_name_plural = _("members")
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "name"], name="member_name_unique_per_club"
            ),
            # One account is at most one member of a club; members without accounts
            # (user NULL) are not limited.
            models.UniqueConstraint(
                fields=["club", "user"],
                condition=Q(user__isnull=False),
                name="member_user_unique_per_club",
            ),
        ]

    def __str__(self):
        return self.name


class SeasonQuerySet(models.QuerySet):
    def current_for(self, club, date):
        """The club's season that contains `date` (the latest-starting one if several
        overlap), or None."""
        return (
            self.filter(club=club, start__lte=date, end__gte=date).order_by("-start").first()
        )


class Season(models.Model):
    class RankingRule(models.TextChoices):
        WINS_THEN_PPG = "wins_then_ppg", _("Wins, then points per game")
        PPG = "ppg", _("Points per game")
        TOTAL = "total", _("Total points")

    club = models.ForeignKey(
        Club, verbose_name=_("club"), on_delete=models.CASCADE, related_name="seasons"
    )
    name = models.CharField(_("name"), max_length=40)
    start = models.DateField(_("start"))
    end = models.DateField(_("end"))
    ranking_rule = models.CharField(
        _("ranking rule"),
        max_length=20,
        choices=RankingRule.choices,
        default=RankingRule.WINS_THEN_PPG,
    )

    objects = SeasonQuerySet.as_manager()

    class Meta:
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        ordering = ["-start"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "name"], name="season_name_unique_per_club"
            ),
            models.CheckConstraint(
                condition=Q(end__gte=models.F("start")), name="season_ends_after_start"
            ),
        ]

    def __str__(self):
        return f"{self.club} – {self.name}"

    @classmethod
    def current_for(cls, club, date):
        """Shortcut for `Season.objects.current_for(club, date)`."""
        return cls.objects.current_for(club, date)
