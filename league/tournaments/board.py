"""The secretary's round board: each table of a round waiting, running, silent, finished or
confirmed, who sits out, and "Nächste Runde auslosen" once every table is done. While tables
play, the page reloads itself every :data:`REFRESH_SECONDS`.

*Silent*: a running table with no entry for :data:`SILENT_AFTER`; the secretary goes and
looks. Entries still in a phone's offline queue are known here as the phone last said
(protocol.queue_report: "3 Einträge warten auf Übertragung", and how many minutes ago it said
so); the board says too how many of a table's entries arrived late from a phone's queue.
"""

from __future__ import annotations

from datetime import timedelta

from django.db.models import Count, Max, Q
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_safe

from league.registry import access
from league.registry.access import require_club
from league.registry.round_clock import clock_of
from league.tournaments import attendance, draws
from league.tournaments.rounds import _round, round_state, round_tables
from protocol import queue_report
from protocol.confirmations import awaiting_agreement, with_confirmed_by_all
from protocol.models import Change, Match

SILENT_AFTER = timedelta(minutes=10)  # no entry for this long: the board marks the table silent
REFRESH_SECONDS = 30  # while tables play, the board reloads itself (not once the next draw's form shows)

STATES = ("waiting", "running", "silent", "awaiting", "finished", "confirmed")


def table_state(match: Match | None, last_entry, now, *, awaiting: bool = False) -> str:
    """One table's state on the board (see the module); ``awaiting``: finished, but a second
    player has yet to accept it ("two at the table agree")."""
    if match is None or match.status == Match.Status.ANNULLED:
        return "waiting"
    if match.status == Match.Status.FINISHED:
        if awaiting:
            return "awaiting"
        return "confirmed" if getattr(match, "confirmed_by_all", False) else "finished"
    if now - (last_entry or match.created_at) > SILENT_AFTER:
        return "silent"
    return "running"


@require_safe
def round_board(request, slug, round_pk):
    club = require_club(request, slug, access.can_manage_club)
    round_ = _round(club, round_pk)
    tables = round_tables(round_)
    pks = [t.match.pk for t in tables if t.match is not None]
    confirmed = dict(with_confirmed_by_all(Match.objects.filter(pk__in=pks)).values_list("pk", "confirmed_by_all"))
    activity = {row["match"]: row for row in Change.objects.filter(match__in=pks).values("match").annotate(
        last=Max("at"), late=Count("id", filter=Q(recorded_at__isnull=False)))}
    season = round_.season
    awaiting = set(awaiting_agreement(Match.objects.filter(pk__in=pks)).values_list("pk", flat=True)) \
        if season.needs_agreement else set()
    now = timezone.now()
    for table in tables:
        if table.match is not None:
            table.match.confirmed_by_all = confirmed.get(table.match.pk, False)
        row = activity.get(table.match.pk if table.match else None, {})
        table.state = table_state(table.match, row.get("last"), now,
                                  awaiting=table.match is not None and table.match.pk in awaiting)
        table.late = row.get("late", 0)
        table.queue_waiting, table.reported_minutes = 0, None
        # what its phone said of its queue: while it plays, and after if something still waits there
        if table.state in ("running", "silent") or (table.state != "waiting" and table.match.queue_waiting):
            table.queue_waiting = table.match.queue_waiting
            table.reported_minutes = queue_report.minutes_ago(table.match, now)
    is_last = not season.rounds.filter(number__gt=round_.number).exists()
    names = dict(club.members.filter(pk__in=round_.sitting_out).values_list("pk", "name"))
    context = {
        "club": club, "season": season, "round": round_, "tables": tables,
        "counts": {state: sum(1 for t in tables if t.state == state) for state in STATES},
        "sitting_out": [names[pk] for pk in round_.sitting_out if pk in names],
        "can_draw_next": is_last and round_state(tables) == "finished" and not awaiting,
        "present_count": len(attendance.present_ids(season)), "kinds": draws.KINDS,
        "silent_minutes": int(SILENT_AFTER.total_seconds() // 60), "refresh_seconds": REFRESH_SECONDS,
        "clock": clock_of(round_),
    }
    return render(request, "league/round_board.html", context)
