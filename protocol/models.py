"""Storage of the Partien as the Protokollant records them (facts only).

Vocabulary:

- ``Match`` (Partie): header, settings and seating of one match of a ruleset.
- ``Seat``: a player at the table, in clockwise order; ``name`` is the name the protocol
  uses (a snapshot, so renaming a member never changes an old protocol).
- ``Event``: one entry of the protocol in order: a Spiel (``game``), a Strafe
  (``penalty``), a Verwarnung (``warning``), a Disqualifikation, the end by time or the
  annulment of the Partie. ``data`` is the event's body exactly as in ``protocol/1``.
- ``Change``: the history of every write: who, when, what before and after, and why.
- ``Lot``: a Losentscheid drawn on the site (LE).
- ``Confirmation``: a player's signature in the app: he saw the final sheet and confirms it.

What the rules derive (totals, winner, Stechen) is never typed in. ``Match.status``,
``Match.winner`` and the ``ScoreLine`` rows are a cache for the league's queries, rewritten
by ``protocol.recording`` from the rules engine's answer after every write.

The rows of a Partie are ordered by their own columns (``match_id``, ``position``, ...), never
by ``match``: that would order by the Match's own ordering and join every match of every club
to each query (the archive's seats read 10,800 Partien beside a federation).
"""

from django.conf import settings as django_settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from league.models import Club, Member, Round, Season
from league.registry.addresses import of_match
from protocol import rules

USER = django_settings.AUTH_USER_MODEL


class Match(models.Model):
    class Status(models.TextChoices):
        RUNNING = "running", _("running")
        TIEBREAK = "tiebreak", _("tie-break")
        FINISHED = "finished", _("finished")
        ANNULLED = "annulled", _("annulled")

    club = models.ForeignKey(Club, verbose_name=_("club"), on_delete=models.PROTECT, related_name="matches")
    season = models.ForeignKey(Season, verbose_name=_("season"), on_delete=models.PROTECT,
                               related_name="matches", null=True, blank=True)
    ruleset = models.CharField(_("game"), max_length=20, choices=rules.choices, default=rules.DEFAULT)
    date = models.DateField(_("date"))
    place = models.CharField(_("place"), max_length=80, blank=True)
    settings = models.JSONField(_("settings"), default=dict, blank=True)
    version = models.PositiveIntegerField(default=0, help_text="Raised by every write; a stale form is refused.")
    created_by = models.ForeignKey(USER, on_delete=models.SET_NULL, null=True,
                                   blank=True, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    # Cache of the rules engine's answer (protocol.recording rewrites it on every write).
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.RUNNING)
    winner = models.ForeignKey(Member, verbose_name=_("winner"), on_delete=models.PROTECT, null=True,
                               blank=True, related_name="+")
    ended_by = models.CharField(max_length=20, blank=True)
    game_count = models.PositiveIntegerField(default=0)
    # When the engine's status became finished (None while it is not): the club's correction
    # window runs from here (league.registry.correction_window).
    finished_at = models.DateTimeField(null=True, blank=True)

    # A table of a tournament round (league.models.Round); None for a match of its own.
    round = models.ForeignKey(Round, verbose_name=_("round"), on_delete=models.PROTECT, null=True,
                              blank=True, related_name="matches")
    table_number = models.PositiveSmallIntegerField(_("table"), null=True, blank=True)

    # What the table's phone last said of its offline queue (protocol.queue_report): how many
    # entries still wait there to be sent, and when it said so. Not a fact of the Partie: written
    # with a plain UPDATE, it raises no version and moves no ``updated_at``.
    queue_waiting = models.PositiveSmallIntegerField(default=0)
    queue_reported_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        ordering = ["-date", "-id"]
        indexes = [models.Index(fields=["club", "season", "status"]),
                   # the archive's first page: a club's newest 25, not a sort of all its Partien
                   models.Index(fields=["club", "-date", "-id"], name="match_club_newest"),
                   # the archive's kept page: when a Partie of the club was last written, one seek
                   models.Index(fields=["club", "updated_at"], name="match_club_written")]
        constraints = [
            # One match in play per table of a round; an annulled one may be played again.
            models.UniqueConstraint(fields=["round", "table_number"],
                                    condition=Q(round__isnull=False) & ~Q(status="annulled"),
                                    name="one_match_per_round_table"),
        ]

    def __str__(self):
        return f"{self.get_ruleset_display()} {self.date:%d.%m.%Y}"

    def get_absolute_url(self):
        return of_match("protocol:match", self.club.slug, self.pk)

    @property
    def scorekeeper_seat(self):
        return next((seat for seat in self.seats.all() if seat.is_scorekeeper), None)


class Seat(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField(_("seat"))
    member = models.ForeignKey(Member, verbose_name=_("member"), on_delete=models.PROTECT, related_name="seats")
    name = models.CharField(_("name"), max_length=80)
    is_scorekeeper = models.BooleanField(_("scorekeeper"), default=False)

    class Meta:
        ordering = ["match_id", "position"]
        constraints = [
            models.UniqueConstraint(fields=["match", "position"], name="seat_position_unique"),
            models.UniqueConstraint(fields=["match", "member"], name="seat_member_unique"),
            models.UniqueConstraint(fields=["match", "name"], name="seat_name_unique"),
            models.UniqueConstraint(fields=["match"], condition=Q(is_scorekeeper=True),
                                    name="one_scorekeeper_per_match"),
        ]

    def __str__(self):
        return self.name


class Event(models.Model):
    class Kind(models.TextChoices):
        GAME = "game", _("game")
        PENALTY = "penalty", _("penalty")
        WARNING = "warning", _("warning")
        DISQUALIFICATION = "disqualification", _("disqualification")
        END = "end", _("end")
        ANNUL_MATCH = "annul_match", _("annulment of the match")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="events")
    position = models.PositiveIntegerField()  # 0, 1, 2 ... the index in protocol/1 ``events``
    kind = models.CharField(max_length=20, choices=Kind.choices)
    data = models.JSONField()  # the event body exactly as in protocol/1
    # The form's one-time token: a double submit is recorded once. Unique within its Partie only:
    # a phone that sends the same id to two Partien gets each answered on its own.
    submission = models.UUIDField(null=True, blank=True,
                                  help_text="The form's one-time token: a double submit is recorded once.")
    created_by = models.ForeignKey(USER, on_delete=models.SET_NULL, null=True,
                                   blank=True, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match_id", "position"]
        constraints = [models.UniqueConstraint(fields=["match", "position"], name="event_position_unique"),
                       models.UniqueConstraint(fields=["match", "submission"], name="event_submission_unique")]

    def __str__(self):
        return f"{self.match_id}#{self.position} {self.kind}"

    def as_protocol(self):
        return {self.kind: self.data}


class Change(models.Model):
    """One write to a match, kept for ever: who, when, what (before/after) and why."""

    class Action(models.TextChoices):
        CREATE_MATCH = "create_match", _("match created")
        IMPORT_MATCH = "import_match", _("match imported")
        TRANSCRIBE_MATCH = "transcribe_match", _("match transcribed from paper")
        EDIT_MATCH = "edit_match", _("match header changed")
        ADD = "add", _("entry added")
        CORRECT = "correct", _("entry corrected")
        REMOVE = "remove", _("entry removed")
        LOT = "lot", _("lot drawn")
        CONFIRM = "confirm", _("result confirmed")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="changes")
    action = models.CharField(max_length=20, choices=Action.choices)
    position = models.PositiveIntegerField(null=True, blank=True)  # the event's position, if any
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    reason = models.TextField(blank=True)
    user = models.ForeignKey(USER, on_delete=models.SET_NULL, null=True, blank=True,
                             related_name="+")
    at = models.DateTimeField(auto_now_add=True)
    # When the entry was typed on a phone without network (the offline queue sent it at ``at``);
    # None: saved as it was typed.
    recorded_at = models.DateTimeField(null=True, blank=True)
    # The one-time id of the entry or correction that made this change (a resent correction is
    # recognised by it: exactly once; a phone knows its own entries in "what other devices
    # entered meanwhile" by it); None for every other change.
    submission = models.UUIDField(null=True, blank=True)
    # The match's version this change produced (None: a change that raises no version, or one
    # stored before versions were kept here): a phone that last saw version 12 is shown the
    # changes above 12 before it hands over what it typed offline.
    version = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["match_id", "at", "id"]
        indexes = [models.Index(fields=["match", "version"], name="change_match_version")]
        constraints = [models.UniqueConstraint(fields=["match", "submission"], name="change_submission_unique")]

    def __str__(self):
        return f"{self.get_action_display()} ({self.at:%d.%m.%Y %H:%M})"


class ScoreLine(models.Model):
    """Cache: one player's score in one Spiel as the rules computed it (for league queries)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="score_lines")
    member = models.ForeignKey(Member, on_delete=models.PROTECT, related_name="score_lines")
    game_number = models.PositiveIntegerField()
    stage = models.PositiveSmallIntegerField(default=0)
    score = models.IntegerField()
    total = models.IntegerField()
    annulled = models.BooleanField(default=False)
    took_trump_bonus = models.BooleanField(default=False)
    # The Spiel was recorded as points only (protocol/rules/scores.py): its score is known, the
    # facts behind it (Augen, Stiche, Trümpfe, whether he took the Trumpfwertung) are not.
    points_only = models.BooleanField(default=False)

    class Meta:
        ordering = ["match_id", "game_number", "member_id"]
        # The Stechen lines alone (a few in a hundred): the league table counts each member's
        # Partien with a Stechen from this index, not by sorting all his lines.
        indexes = [models.Index(fields=["member", "annulled", "stage"]),
                   models.Index(fields=["match", "member"], condition=Q(stage__gte=1, annulled=False),
                                name="scoreline_stechen")]
        constraints = [models.UniqueConstraint(fields=["match", "game_number", "member"], name="score_line_unique")]


class Lot(models.Model):
    """A Losentscheid drawn on the site (LE): who named what, which cards came, who won."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="lots")
    purpose = models.CharField(_("purpose"), max_length=120)
    data = models.JSONField()
    drawn_by = models.ForeignKey(USER, on_delete=models.SET_NULL, null=True, blank=True,
                                 related_name="+")
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match_id", "at"]


class SanctionLine(models.Model):
    """Cache: a Strafe, Verwarnung or Disqualifikation as the rules placed it (league queries)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="sanction_lines")
    member = models.ForeignKey(Member, on_delete=models.PROTECT, related_name="sanction_lines")
    kind = models.CharField(max_length=20)  # penalty | warning | disqualification
    points = models.PositiveIntegerField(default=0)
    after_game = models.PositiveIntegerField(default=0)
    stage = models.PositiveSmallIntegerField(default=0)
    reason = models.TextField(blank=True)

    class Meta:
        ordering = ["match_id", "after_game", "id"]
        indexes = [models.Index(fields=["member", "kind"])]


class Confirmation(models.Model):
    """A player confirms the result of a finished Partie, like his signature on the paper sheet.

    ``version`` is the match's version he saw: a later correction (the secretary's, once a
    player confirmed) raises the match's version, so the confirmation stands for the earlier
    result. ``by`` is who tapped: the player on his own login, or the Protokollant on his phone
    for a guest who looked at the final sheet there."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="confirmations")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="confirmations")
    version = models.PositiveIntegerField()
    by = models.ForeignKey(USER, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match_id", "at", "id"]
        constraints = [models.UniqueConstraint(fields=["seat", "version"], name="one_confirmation_per_result")]

    def __str__(self):
        return f"{self.seat} ({self.at:%d.%m.%Y %H:%M})"
