"""The ETag of a Partie's state as the other devices at the table poll it (``protocol:sheet``).

It is asked before anything is computed or rendered, in one statement written once
(:func:`poll_facts`, league.registry.statements): an unchanged state is a bodiless 304 for the
price of that statement beside the session and the user every signed-in page reads, not the
engine's state, the sheet and a template.
"""

from __future__ import annotations

import datetime
import hashlib
from types import SimpleNamespace

from django.conf import settings
from django.db.models import Count, Exists, F, OuterRef, Subquery
from django.utils.timezone import get_current_timezone_name
from django.utils.translation import get_language

from league.models import Club, Member
from league.registry import access, correction_window
from league.registry.statements import Statements
from protocol.models import Confirmation, Match, Seat


def poll_facts(request, slug: str, pk: int) -> dict | None:
    """What the state's ETag is made of, for a signed-in user, read in one statement: the match
    of the club ``slug`` with its club's and season's names, its Protokollant's user, its
    confirmations, and the viewer's roles in the club (remembered for the rest of the request,
    ``access.remember_roles``); None for nobody signed in or no such match of the club. The
    values come as the database driver reads them (:class:`Statements`)."""
    user = request.user
    if not user.is_authenticated:
        return None
    rows = _POLL.run(match=int(pk), slug=slug, user=user.pk)[0]
    if not rows:
        return None
    facts = rows[0]
    facts["secretary"], facts["member"] = bool(facts["secretary"]), bool(facts["member"])
    access.remember_roles(user, Club(pk=facts["club_id"]), secretary=facts["secretary"], member=facts["member"])
    return facts


def _poll_statement(match, slug, user):
    confirmations = Confirmation.objects.filter(match=OuterRef("pk")).order_by()
    return (Match.objects.filter(pk=match, club__slug=slug).values(
        "pk", "version", "updated_at", "status", "winner_id", "date", "place", "finished_at", "club_id",
        club_name=F("club__name"), club_slug=F("club__slug"), window=F("club__correction_window"),
        season_name=F("season__name"),
        keeper=Subquery(Seat.objects.filter(match=OuterRef("pk"), is_scorekeeper=True).values("member__user_id")[:1]),
        confirmed=Subquery(confirmations.values("match").annotate(n=Count("pk")).values("n")),
        newest_confirmation=Subquery(confirmations.order_by("-pk").values("pk")[:1]),
        secretary=Exists(Club.secretaries.through.objects.filter(club_id=OuterRef("club_id"), user_id=user)),
        member=Exists(Member.objects.filter(club_id=OuterRef("club_id"), user_id=user)),
    ),)


# Written as SQL once per process: building it is most of what a 304 would cost otherwise.
_POLL = Statements(_poll_statement, match=int, slug=str, user=int)


def may_see(request, facts: dict) -> bool:
    """The access check of the match's pages (``access.can_view_match``), from the roles read."""
    return access.can_view_club_data(request.user, Club(pk=facts["club_id"]))


def state_etag(request, facts: dict) -> str:
    """A weak ETag (the state is the same, whatever the compression) that changes whenever
    anything the state fragment (``protocol/includes/match_state.html`` with its includes
    ``status``, ``finality``, ``sheet`` and ``standings``, filled by
    ``protocol.views.common.match_context``) may show differently. Its inputs (``facts``:
    :func:`poll_facts`):

    - the release: the cache's key prefix carries the fingerprint of the code, templates and
      translations (config.caches): a deploy never answers 304 for the markup before it;
    - the match's ``version`` and ``updated_at``: every write through the recording door
      (protocol.recording: a Spiel, a Strafe, a Verwarnung, a Disqualifikation, a correction,
      a removal, the end, an annulment, new settings) raises the one and sets the other; a
      repaired text (protocol.records.text_audit) raises the version too;
    - the match's ``status`` and ``winner`` (the headline, "Enter game", the finality);
    - the header the engine reads (``header_facts``, ``status_facts``): the club's and the
      season's names, the date and the place;
    - the correction window (finality, "may still be corrected until", the Protokollant's
      right to correct): ``finished_at``, the club's ``correction_window`` and whether the
      window is still open now (``correction_window.is_open``: it closes without any write);
    - the confirmations, which raise no version: how many and the newest (final once every
      seat confirmed the current version; after one the Protokollant no longer corrects);
    - the viewer and every fact ``league.registry.access`` decides ``can_record`` (the "Enter
      game" button), ``can_correct`` (the sheet's links) and ``can_manage`` from: the user,
      staff, secretary and member of the club, the Protokollant of the match (with the
      status, the window and the confirmations above);
    - the club's short name (the links' addresses);
    - the language and the time zone of the request (words, numbers and dates).
    """
    user = request.user
    window, finished_at = _span(facts["window"]), _moment(facts["finished_at"])
    open_now = correction_window.is_open(SimpleNamespace(status=facts["status"], finished_at=finished_at,
                                                         club=SimpleNamespace(correction_window=window)))
    parts = (
        settings.CACHES["default"].get("KEY_PREFIX", ""),
        facts["pk"], facts["version"], facts["updated_at"], facts["status"], facts["winner_id"],
        facts["club_name"], facts["season_name"], facts["date"], facts["place"],
        finished_at, window, open_now, facts["confirmed"], facts["newest_confirmation"],
        user.pk, user.is_staff, facts["secretary"], facts["member"], facts["keeper"] == user.pk,
        facts["club_slug"], get_language(), get_current_timezone_name(),
    )
    digest = hashlib.blake2b("\x1f".join(map(str, parts)).encode(), digest_size=12).hexdigest()
    return f'W/"{digest}"'


def _moment(value) -> datetime.datetime | None:
    """A stored moment as the driver reads it (SQLite: naive, or ISO text, in UTC)."""
    if isinstance(value, str):
        value = datetime.datetime.fromisoformat(value)
    if value is not None and value.tzinfo is None:
        value = value.replace(tzinfo=datetime.UTC)
    return value


def _span(value) -> datetime.timedelta:
    """A stored duration as the driver reads it (SQLite: a number of microseconds)."""
    return value if isinstance(value, datetime.timedelta) else datetime.timedelta(microseconds=int(value))
