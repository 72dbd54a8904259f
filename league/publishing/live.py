"""The live board of a published tournament: its table, the current round's tables with their
state, the last results, for a projector in the hall and for a phone at home.

Its state is polled every few seconds by every screen that shows it: :func:`board_tag` reads
what may change it in one statement, before anything is computed, so that an unchanged board
is a bodiless 304 (the same approach as the table's state poll, protocol.views.state_tag).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from django.conf import settings
from django.db.models import Count, Max, OuterRef, Q, Subquery, Sum
from django.utils.timezone import get_current_timezone_name
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from league.models import Club, Round, Season
from league.registry.round_clock import Clock, clock_of
from league.registry.statements import Statements
from league.standings.tables import number
from league.tournaments.rounds import TableView, round_tables
from protocol.confirmations import agreed, awaiting_agreement, with_confirmed_by_all
from protocol.models import Confirmation, Match, SanctionLine, ScoreLine

from .serializers import PublicTable, public_table

LAST_RESULTS = 6  # the newest finished tables: what a screen shows beside the round

# What a table's state is called on the board; the key is its CSS modifier.
STATES = {"waiting": _("not started"), "running": _("running"), "awaiting": _("awaiting confirmation"),
          "finished": _("finished"), "confirmed": _("confirmed")}


def board_tag(slug: str, season_pk: int) -> str | None:
    """A weak ETag that changes whenever the board may show something else; None for no
    published club ``slug`` with such a season (the page then answers 404). Its inputs, read
    in one statement:

    - the release (the cache's key prefix carries the fingerprint of code and templates);
    - the club's ``data_version`` (finished Partien, members, the season's settings:
      league.registry.versions): the table;
    - the season's rounds: how many, the newest number, the last closed, the newest seat drawn,
      the newest clock started (the round's clock: league.registry.round_clock);
    - the season's Partien: how many, the sum of their versions and the newest change
      (every write through the recording door raises a version: a Spiel, its end, an
      annulment), and the confirmations, which raise no version;
    - what the tables' phones said of their offline queues (protocol.queue_report): the sum of
      the entries waiting and of the tables with some (not when they said it: a report of the
      same count moves nothing on the board);
    - the language and time zone of the request.
    """
    found = _TAG.run(slug=slug, season=season_pk)[0]
    if not found:
        return None
    row = found[0]
    parts = (settings.CACHES["default"].get("KEY_PREFIX", ""), *row.values(),
             get_language(), get_current_timezone_name())
    digest = hashlib.blake2b("\x1f".join(map(str, parts)).encode(), digest_size=12).hexdigest()
    return f'W/"{digest}"'


def _tag_statement(slug, season):
    """The one read of :func:`board_tag`, its SQL written once per process (Statements):
    building these eleven subqueries took more CPU than the database took to run them."""
    rounds = Round.objects.filter(season=OuterRef("pk")).order_by().values("season")
    matches = Match.objects.filter(season=OuterRef("pk")).order_by().values("season")
    confirmations = Confirmation.objects.filter(match__season=OuterRef("pk")).order_by().values("match__season")
    return (Season.objects.filter(pk=season, club__slug=slug, club__published=True).values(
        "pk", "club__data_version",
        round_count=Subquery(rounds.annotate(n=Count("pk")).values("n")),
        newest_round=Subquery(rounds.annotate(n=Max("number")).values("n")),
        last_closed=Subquery(rounds.annotate(n=Max("closed_at")).values("n")),
        seats_drawn=Subquery(rounds.annotate(n=Max("seats__pk")).values("n")),  # a redraw seats anew
        clock_started=Subquery(rounds.annotate(n=Max("started_at")).values("n")),
        match_count=Subquery(matches.annotate(n=Count("pk")).values("n")),
        version_sum=Subquery(matches.annotate(n=Sum("version")).values("n")),
        last_change=Subquery(matches.annotate(n=Max("updated_at")).values("n")),
        confirmation_count=Subquery(confirmations.annotate(n=Count("pk")).values("n")),
        queue_waiting=Subquery(matches.annotate(n=Sum("queue_waiting")).values("n")),
        queue_tables=Subquery(matches.annotate(n=Sum("table_number", filter=Q(queue_waiting__gt=0))).values("n")),
    ),)


_TAG = Statements(_tag_statement, slug=str, season=int)


@dataclass
class BoardTable:
    number: int
    seats: list[tuple[str, str]]  # each player's name and points at the table so far ("–" before a Spiel)
    state: str  # a key of STATES
    round_number: int = 0
    queue_waiting: int = 0  # entries its phone said still wait there to be sent (protocol.queue_report)

    @property
    def state_name(self) -> str:
        return str(STATES[self.state])


@dataclass
class Board:
    table: PublicTable
    round: Round | None
    tables: list[BoardTable] = field(default_factory=list)
    last_results: list[BoardTable] = field(default_factory=list)
    clock: Clock | None = None  # the current round's clock, where the tournament limits its time

    @property
    def score_label(self) -> str:
        """The column the table ranks by: the tournament's score, else the points."""
        labels = {c.key: c.label for c in self.table.columns}
        return str(labels.get("tournament_score", labels["points"]))


def board(club: Club, season: Season) -> Board:
    """What the live board shows of ``season``: its published table, its newest round's tables
    and the last finished tables of any round."""
    current = season.rounds.order_by("-number").first()
    tables = [_board_table(t) for t in round_tables(current)] if current is not None else []
    if current is not None:
        confirmed = set(with_confirmed_by_all(current.matches.filter(status=Match.Status.FINISHED))
                        .filter(confirmed_by_all=True).values_list("table_number", flat=True))
        awaiting = set(awaiting_agreement(current.matches.all()).values_list("table_number", flat=True)) \
            if season.needs_agreement else set()
        for table in tables:
            if table.state == "finished" and table.number in awaiting:
                table.state = "awaiting"  # "two at the table agree": not counted yet
            elif table.state == "finished" and table.number in confirmed:
                table.state = "confirmed"
    return Board(public_table(club, season), current, tables, _last_results(season), clock_of(current))


def _board_table(view: TableView) -> BoardTable:
    match = view.match
    if match is None or match.status == Match.Status.ANNULLED:
        state = "waiting"
    elif match.status == Match.Status.FINISHED:
        state = "finished"
    else:
        state = "running"
    return BoardTable(view.number, [(s.member.name, s.points_text) for s in view.seats], state,
                      queue_waiting=match.queue_waiting if state != "waiting" else 0)


def _last_results(season: Season) -> list[BoardTable]:
    """The newest finished tables of the season with each player's points (four queries)."""
    finished = season.matches.filter(status=Match.Status.FINISHED, round__isnull=False)
    if season.needs_agreement:  # only the results that count
        finished = finished.filter(agreed())
    finished = list(finished
                    .select_related("round").prefetch_related("seats")
                    .order_by("-finished_at", "-pk")[:LAST_RESULTS])
    if not finished:
        return []
    totals: dict[tuple[int, int], int] = {}
    scored = ScoreLine.objects.filter(match__in=finished, stage=0, annulled=False).values_list("match", "member")
    for match, member, total in scored.annotate(total=Sum("score")):
        totals[(match, member)] = total or 0
    deducted = SanctionLine.objects.filter(match__in=finished, stage=0).values_list("match", "member")
    for match, member, total in deducted.annotate(total=Sum("points")):  # the Strafen, as the round's page deducts them
        totals[(match, member)] = totals.get((match, member), 0) - (total or 0)
    results = []
    for match in finished:
        seats = list(match.seats.all())
        results.append(BoardTable(match.table_number or 0,
                                  [(s.name, number(totals.get((match.pk, s.member_id), 0))) for s in seats], "finished",
                                  match.round.number))
    return results
