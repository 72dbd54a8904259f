"""The ETag of a Partie's state as the other devices at the table poll it (``protocol:sheet``).

It is asked before anything is computed or rendered, in one statement written once
(:func:`poll_facts`, league.registry.statements): an unchanged state is a bodiless 304 for the
price of that statement beside the session and the user every signed-in page reads (a table
card's holder, who has no account: the session and his card), not the engine's state, the sheet
and a template. The same facts say whether the poll may report its phone's offline queue
(:func:`note_queue`).
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
from protocol import queue_report
from protocol.models import Confirmation, Match, Seat

NOBODY = 0  # no user has this id: the roles of a table card's holder, who has no account


def poll_facts(request, slug: str, pk: int) -> dict | None:
    """What the state's ETag is made of, for a signed-in user or the holder of a table's card
    that still holds (``access.card_grant``: the card's page, league.tournaments.card_access),
    read in one statement: the match of the club ``slug`` with its club's and season's names,
    its round and table, its Protokollant's user, its confirmations, what its phone last said
    of its offline queue, and the viewer's roles in the club (remembered for the rest of the
    request, ``access.remember_roles``); None for nobody signed in without a card, or no such
    match of the club. The values come as the database driver reads them (:class:`Statements`)."""
    user = request.user
    if not _has_facts(request):
        return None
    rows = _POLL.run(match=int(pk), slug=slug, user=user.pk if user.is_authenticated else NOBODY)[0]
    if not rows:
        return None
    facts = rows[0]
    facts["secretary"], facts["member"] = bool(facts["secretary"]), bool(facts["member"])
    if user.is_authenticated:
        access.remember_roles(user, Club(pk=facts["club_id"]), secretary=facts["secretary"], member=facts["member"])
    return facts


def facts_of(request, match: Match) -> dict | None:
    """:func:`poll_facts` of a Partie its page read already (``protocol.views.common.require_match``,
    whose statement reads the same facts and the viewer's roles with it): no statement more.
    None for nobody signed in without a card that holds."""
    if not _has_facts(request):
        return None
    club = match.club
    return {"pk": match.pk, "version": match.version, "updated_at": match.updated_at, "status": match.status,
            "winner_id": match.winner_id, "date": match.date, "place": match.place, "finished_at": match.finished_at,
            "club_id": match.club_id, "round_id": match.round_id, "table_number": match.table_number,
            "queue_waiting": match.queue_waiting, "queue_reported_at": match.queue_reported_at,
            "club_name": club.name, "club_slug": club.slug, "window": club.correction_window,
            "season_name": match.season.name if match.season_id else None, "keeper": match.keeper,
            "confirmed": match.confirmed, "newest_confirmation": match.newest_confirmation,
            "secretary": bool(getattr(match, "viewer_secretary", False)),
            "member": bool(getattr(match, "viewer_member", False))}


def _has_facts(request) -> bool:
    """A signed-in user, or the holder of a table's card that still holds: the viewers the facts
    are read for (a refused card: the full answer says why, 403)."""
    if request.user.is_authenticated:
        return True
    grant = access.card_grant()
    return grant is not None and not grant.refusal


def fact_columns() -> dict:
    """What the facts read besides the Partie's and its club's columns: its Protokollant's user
    and its confirmations (how many, the newest), as subqueries of a statement of the Partie."""
    confirmations = Confirmation.objects.filter(match=OuterRef("pk")).order_by()
    return {"keeper": Subquery(Seat.objects.filter(match=OuterRef("pk"), is_scorekeeper=True)
                               .values("member__user_id")[:1]),
            "confirmed": Subquery(confirmations.values("match").annotate(n=Count("pk")).values("n")),
            "newest_confirmation": Subquery(confirmations.order_by("-pk").values("pk")[:1])}


def _poll_statement(match, slug, user):
    return (Match.objects.filter(pk=match, club__slug=slug).values(
        "pk", "version", "updated_at", "status", "winner_id", "date", "place", "finished_at", "club_id",
        "round_id", "table_number", "queue_waiting", "queue_reported_at",
        club_name=F("club__name"), club_slug=F("club__slug"), window=F("club__correction_window"),
        season_name=F("season__name"), **fact_columns(),
        secretary=Exists(Club.secretaries.through.objects.filter(club_id=OuterRef("club_id"), user_id=user)),
        member=Exists(Member.objects.filter(club_id=OuterRef("club_id"), user_id=user)),
    ),)


# Written as SQL once per process: building it is most of what a 304 would cost otherwise.
_POLL = Statements(_poll_statement, match=int, slug=str, user=int)


def may_see(request, facts: dict) -> bool:
    """The access check of the match's pages (``access.can_view_match``), from the roles read."""
    return access.can_view_club_data(request.user, Club(pk=facts["club_id"])) or _holds_card(facts)


def _holds_card(facts: dict) -> bool:
    """The request holds the valid card of this match's table."""
    return access.holds_card(SimpleNamespace(round_id=facts["round_id"], table_number=facts["table_number"]))


def _is_keeper(request, facts: dict) -> bool:
    return facts["keeper"] is not None and facts["keeper"] == request.user.pk


def note_queue(request, facts: dict) -> None:
    """Keep what the poll says of its phone's offline queue (protocol.queue_report), if the
    viewer is one who records at the table (``access.can_send_entries``, from the facts read:
    the secretary, the Protokollant, the table card's holder)."""
    count = queue_report.reported(request)
    if count is None:
        return
    if request.user.is_staff or facts["secretary"] or _is_keeper(request, facts) or _holds_card(facts):
        queue_report.keep(facts["pk"], count, facts["queue_waiting"], _moment(facts["queue_reported_at"]))


def state_etag(request, facts: dict) -> str:
    """A weak ETag (the state is the same, whatever the compression) that changes whenever
    anything the state fragment (``protocol/jinja2/protocol/parts/state.html``: the status, the
    finality, the sheet and the standing, filled by ``protocol.views.common.match_context``) may
    show differently. Its inputs (``facts``: :func:`poll_facts`, or :func:`facts_of` the Partie
    its page read):

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
      status, the window and the confirmations above), the holder of the table's card (its
      round and table: a card that no longer holds gets no ETag, its answer is a 403);
    - the club's short name (the links' addresses);
    - the language and the time zone of the request (words, numbers and dates).
    """
    digest = hashlib.blake2b("\x1f".join(map(str, _parts(request, facts, request.user.pk))).encode(),
                             digest_size=12).hexdigest()
    return f'W/"{digest}"'


def shared_key(request, facts: dict) -> str:
    """The cache key of the state fragment as rendered: the ETag's inputs but the user's own id.
    What the fragment shows of the viewer are his rights (staff, secretary, member, Protokollant,
    the card's holder), so every viewer with the same rights is sent the same bytes: the other
    phones at the table and the members following it render a new state once between them."""
    digest = hashlib.blake2b("\x1f".join(map(str, _parts(request, facts, None))).encode(),
                             digest_size=16).hexdigest()
    return f"state-fragment:{digest}"


def kept_key(request, facts: dict | None, match) -> str | None:
    """:func:`shared_key` for a page that read ``facts`` and then ``match``: None (keep nothing)
    for a viewer the facts do not cover (nobody signed in without a card) or who may not see it,
    or when a write came between the two reads (the facts' version is not the match's)."""
    if facts is None or facts["version"] != match.version or not may_see(request, facts):
        return None
    return shared_key(request, facts)


def confirmed(facts: dict | None, key: str | None) -> bool | None:
    """Whether anybody confirmed the match, as the facts read it with its key (:func:`kept_key`);
    None where there is no key: the facts are not the match's, the page asks itself."""
    return bool(facts["confirmed"]) if key is not None else None


def _parts(request, facts: dict, user_pk) -> tuple:
    user = request.user
    window, finished_at = _span(facts["window"]), _moment(facts["finished_at"])
    open_now = correction_window.is_open(SimpleNamespace(status=facts["status"], finished_at=finished_at,
                                                         club=SimpleNamespace(correction_window=window)))
    return (
        settings.CACHES["default"].get("KEY_PREFIX", ""),
        facts["pk"], facts["version"], _moment(facts["updated_at"]), facts["status"], facts["winner_id"],
        facts["club_name"], facts["season_name"], facts["date"], facts["place"],
        finished_at, window, open_now, facts["confirmed"], facts["newest_confirmation"],
        user_pk, user.is_authenticated, user.is_staff, facts["secretary"], facts["member"], _is_keeper(request, facts),
        _holds_card(facts), facts["club_slug"], get_language(), get_current_timezone_name(),
    )


def _moment(value) -> datetime.datetime | None:
    """A stored moment as the driver reads it (SQLite: naive, or ISO text, in UTC), or as the
    Partie's page read it (aware): the same moment in UTC either way."""
    if isinstance(value, str):
        value = datetime.datetime.fromisoformat(value)
    if value is not None and value.tzinfo is None:
        value = value.replace(tzinfo=datetime.UTC)
    return value.astimezone(datetime.UTC) if value is not None else None


def _span(value) -> datetime.timedelta:
    """A stored duration as the driver reads it (SQLite: a number of microseconds)."""
    return value if isinstance(value, datetime.timedelta) else datetime.timedelta(microseconds=int(value))
