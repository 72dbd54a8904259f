"""The registry: clubs, their members and seasons (layer 2; of protocol it imports only the rules
engine, the ground floor)."""

import datetime
import time

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.functional import lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from protocol import rules
from protocol.rules import RULESETS


def fresh_version() -> int:
    """The ``data_version`` a new row starts at: the moment in microseconds, so that a club or
    member made anew (a restored backup, a database loaded again beside a shared cache) never
    starts at a version an earlier one had (league.registry.versions)."""
    return time.time_ns() // 1000


class Versioned(models.Model):
    """A row with a ``data_version``, moved on every write that changes what its kept pages show
    (league.registry.versions raises it with an UPDATE of its own). A save of the row's other
    fields never writes it back: a form read before a write would set it to a version the kept
    pages knew with other data."""

    data_version = models.PositiveBigIntegerField(default=fresh_version, editable=False)

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if not self._state.adding and kwargs.get("update_fields") is None and not kwargs.get("force_insert"):
            kwargs["update_fields"] = [f.name for f in self._meta.concrete_fields
                                       if not f.primary_key and f.name != "data_version"]
        super().save(*args, **kwargs)


class ClubQuerySet(models.QuerySet):
    def for_user(self, user):
        """The clubs the user plays in (a linked Member) or keeps the books of."""
        if not user.is_authenticated:
            return self.none()
        return self.filter(Q(members__user=user) | Q(secretaries=user)).distinct()

    def with_public_standings(self):
        return self.filter(standings_public=True)


# A club's correction window unless its secretary sets another, and the longest he may set
# (bridge clubs: from 30 minutes to 48 hours; league.registry.correction_window).
DEFAULT_CORRECTION_WINDOW = datetime.timedelta(hours=24)
LONGEST_CORRECTION_WINDOW = datetime.timedelta(days=14)


class Club(Versioned):
    name = models.CharField(_("name"), max_length=120, unique=True)
    slug = models.SlugField(_("short name in addresses"), max_length=60, unique=True)
    place = models.CharField(_("town"), max_length=80, blank=True)
    standings_public = models.BooleanField(
        _("standings public"),
        default=False,
        help_text=_("Anyone, even without an account, may see the club's standings."),
    )
    # Publishing (league.publishing): a public page, CSV and JSON per season, embeddable in
    # the club's own website from the origins listed (one https://host[:port] a line).
    published = models.BooleanField(_("results published"), default=False)
    embed_origins = models.TextField(_("websites that may embed the results"), blank=True)
    # The published season page shows the club's rating list of its game too (league.ratings).
    published_ratings = models.BooleanField(_("ratings published"), default=False)
    # How long after a Partie finished its result may still be corrected by its Protokollant
    # (league.registry.correction_window): until then it is provisional, afterwards final.
    # Guests are rated with everyone they play against (league.ratings); shown in the rating
    # list and on their page only if the club wants.
    ratings_show_guests = models.BooleanField(
        _("show guests' ratings"), default=False,
        help_text=_("Guests are rated like members; their ratings are shown only if this is ticked."))
    correction_window = models.DurationField(
        _("correction window"), default=DEFAULT_CORRECTION_WINDOW,
        validators=[MinValueValidator(datetime.timedelta(0)), MaxValueValidator(LONGEST_CORRECTION_WINDOW)])
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


class Member(Versioned):
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
    def current_for(self, club, date, game=None):
        """The club's season that contains `date` (the latest-starting one if several
        overlap), or None. With `game`: only a league season of that game, the one a
        Partie of the game may go into by its date (a tournament's are its rounds' tables)."""
        seasons = self.filter(club=club, start__lte=date, end__gte=date)
        if game is not None:
            seasons = seasons.filter(ruleset=game, mode=Season.Mode.LEAGUE)
        return seasons.order_by("-start").first()




def _format_label(positions: int, deals: int) -> str:
    return gettext("%(p)s positions of %(d)s deals") % {"p": positions, "d": deals}


def tournament_formats() -> list[tuple[str, str]]:
    """The positions x deals a tournament may play, as the games' rules fix them (only a game
    with a fixed format has any): "5x4" -> "5 positions of 4 deals", in the reader's language.
    Read at each use from the registry's games (the registry may import the rules engine, the
    ground floor, and nothing else of protocol), so a new game needs no migration."""
    return [(key, lazy(_format_label, str)(*shape))
            for ruleset in RULESETS.values() for key, shape in ruleset.tournament_formats.items()]


class Season(models.Model):
    class RankingRule(models.TextChoices):
        WINS_THEN_PPG = "wins_then_ppg", _("Wins, then points per game")
        PPG = "ppg", _("Points per game")
        TOTAL = "total", _("Total points")
        TCG = "tcg", _("TCG tournament score")
        FFT = "fft", _("FFT tournament score")

    class Mode(models.TextChoices):
        LEAGUE = "league", _("League")
        TOURNAMENT = "tournament", _("Tournament")

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
    # ``ruleset``: the season's game; every Partie in it is of that game (checked where a
    # Partie is created, ``protocol.matches.create_match``).
    # A tournament: rounds of drawn tables, every table one match of ``ruleset`` with
    # ``game_settings`` (the rules it plays by, for a game with several: {"rules": key}), in a
    # ``tournament_format`` where the game's rules fix positions and deals.
    # Its Partien are only the tables of its rounds.
    mode = models.CharField(_("mode"), max_length=12, choices=Mode.choices, default=Mode.LEAGUE)
    ruleset = models.CharField(_("game"), max_length=20, choices=rules.choices, default=rules.DEFAULT)
    game_settings = models.JSONField(_("game settings"), default=dict, blank=True)
    tournament_format = models.CharField(_("positions and deals"), max_length=5, choices=tournament_formats,
                                         blank=True)
    # "Two at the table agree": a tournament table's result counts (standings, live board) only
    # once a player other than its Protokollant confirmed it as it stands (protocol.confirmations.agreed).
    two_agree = models.BooleanField(
        _("two at the table agree"), default=False,
        help_text=_("A table's result counts once another player of the table has accepted it."))
    # The time a round may last (Art. 17c Zeitbegrenzung; FFT-Regeln "Spielrhythmus"); empty: the
    # rules' time for the format, if they fix one (:attr:`round_duration`).
    round_minutes = models.PositiveSmallIntegerField(
        _("minutes per round"), null=True, blank=True,
        help_text=_("The round's clock on the round board and at the tables; empty: the time the rules fix, if any."))

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
    def current_for(cls, club, date, game=None):
        """Shortcut for `Season.objects.current_for(club, date, game)`."""
        return cls.objects.current_for(club, date, game)

    @property
    def is_tournament(self) -> bool:
        return self.mode == self.Mode.TOURNAMENT

    @property
    def needs_agreement(self) -> bool:
        """A tournament table's result counts only once a second player accepted it."""
        return self.is_tournament and self.two_agree

    @property
    def round_duration(self) -> datetime.timedelta | None:
        """How long a round may last: the tournament's own minutes, else the rules' time for
        its format's deals (FFT: 35 minutes for 3 deals, 45 for 4); None for no limit."""
        if self.round_minutes:
            return datetime.timedelta(minutes=self.round_minutes)
        ruleset, shape = RULESETS.get(self.ruleset), self.format_positions_deals
        minutes = ruleset.position_minutes.get(shape[1]) if ruleset is not None and shape else None
        return datetime.timedelta(minutes=minutes) if minutes else None

    @property
    def format_positions_deals(self) -> tuple[int, int] | None:
        """The tournament's (positions, deals per position), e.g. (5, 4), where its game's
        rules fix them; else None."""
        ruleset = RULESETS.get(self.ruleset)
        if ruleset is None or not self.tournament_format:
            return None
        return ruleset.tournament_formats.get(self.tournament_format)


class Round(models.Model):
    """One seating of a tournament (a *position* where the rules speak of positions): the tables drawn for the players
    present, each table then one match (``protocol.models.Match.round``)."""

    season = models.ForeignKey(Season, verbose_name=_("season"), on_delete=models.CASCADE,
                               related_name="rounds")
    number = models.PositiveSmallIntegerField(_("round"))
    date = models.DateField(_("date"))
    seed = models.PositiveBigIntegerField(
        _("seed of the draw"), help_text=_("The same seed and players give the same seating plan."))
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                                   blank=True, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    # Closed by the secretary once the round is played: its table cards stop opening anything
    # (league.tournaments.cards).
    closed_at = models.DateTimeField(_("closed"), null=True, blank=True)
    # The round's clock, started by the secretary (Season.round_duration says how long it runs).
    started_at = models.DateTimeField(_("clock started"), null=True, blank=True)
    # How the tables were drawn (league.tournaments.draws.KINDS) and who sat out because the
    # count fit no tables of the game's sizes (member ids), for the note on the round's pages.
    draw_kind = models.CharField(_("draw"), max_length=12, default="random")
    sitting_out = models.JSONField(_("sitting out"), default=list, blank=True)

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["season", "number"]
        constraints = [
            models.UniqueConstraint(fields=["season", "number"], name="round_number_unique_per_season"),
        ]

    def __str__(self):
        return f"{self.season.name} – {self.number}"

    def get_absolute_url(self):
        return reverse("round", kwargs={"slug": self.season.club.slug, "round_pk": self.pk})


class TableSeat(models.Model):
    """A player's place in a round: his table and seat there (clockwise from 0, North,
    who keeps the table's score sheet)."""

    round = models.ForeignKey(Round, verbose_name=_("round"), on_delete=models.CASCADE,
                              related_name="seats")
    table = models.PositiveSmallIntegerField(_("table"))  # 1, 2, 3 ...
    position = models.PositiveSmallIntegerField(_("seat"))  # 0 = North, then clockwise
    member = models.ForeignKey(Member, verbose_name=_("member"), on_delete=models.PROTECT,
                               related_name="table_seats")

    class Meta:
        verbose_name = _("seat at a table")
        verbose_name_plural = _("seats at the tables")
        ordering = ["round", "table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["round", "member"], name="table_seat_member_unique"),
            models.UniqueConstraint(fields=["round", "table", "position"], name="table_seat_unique"),
        ]

    def __str__(self):
        return f"{self.round} / {self.table}.{self.position}: {self.member}"

    @property
    def is_north(self) -> bool:
        """North keeps the table's score sheet (FFT-Regeln "Nord Spieler")."""
        return self.position == 0


class Attendance(models.Model):
    """A player present at a tournament, for its next round (league.tournaments.attendance):
    the secretary ticks arrivals and unticks who left; the next draw seats those present."""

    season = models.ForeignKey(Season, verbose_name=_("season"), on_delete=models.CASCADE,
                               related_name="attendances")
    member = models.ForeignKey(Member, verbose_name=_("member"), on_delete=models.CASCADE,
                               related_name="attendances")
    since = models.DateTimeField(_("present since"), auto_now_add=True)

    class Meta:
        verbose_name = _("attendance")
        verbose_name_plural = _("attendances")
        ordering = ["season", "member"]
        constraints = [models.UniqueConstraint(fields=["season", "member"], name="attendance_unique")]

    def __str__(self):
        return f"{self.season} / {self.member}"


class TableCard(models.Model):
    """The card of a table of a round: its code opens that table's Partie on any phone, for
    entries and confirmations, until the round is closed (league.tournaments.cards). Reissued,
    a card gets the next ``generation`` and the one before is ``replaced_at``. Only a hash of
    the code is stored (the code itself is derived from the row and the site's secret key)."""

    round = models.ForeignKey(Round, verbose_name=_("round"), on_delete=models.CASCADE, related_name="cards")
    table = models.PositiveSmallIntegerField(_("table"))
    generation = models.PositiveSmallIntegerField(_("issue"), default=1)
    nonce = models.CharField(max_length=32)  # random, so that no two issues share a code
    code_hash = models.CharField(max_length=64, unique=True)  # SHA-256 of the code, to find it
    issued_at = models.DateTimeField(_("issued"), auto_now_add=True)
    issued_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                  related_name="+")
    replaced_at = models.DateTimeField(_("reissued"), null=True, blank=True)

    class Meta:
        verbose_name = _("table card")
        verbose_name_plural = _("table cards")
        ordering = ["round", "table", "generation"]
        constraints = [
            models.UniqueConstraint(fields=["round", "table", "generation"], name="table_card_issue_unique"),
            models.UniqueConstraint(fields=["round", "table"], condition=Q(replaced_at__isnull=True),
                                    name="table_card_one_valid_per_table"),
        ]

    def __str__(self):
        return f"{self.round} / {self.table} ({self.generation})"
