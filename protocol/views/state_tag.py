"""The ETag of a Partie's state as the other devices at the table poll it (``protocol:sheet``).

It is asked before anything is computed or rendered: an unchanged state is a bodiless 304 for
the price of the match's row, the viewer's roles and one look at the confirmations, not the
engine's state, the sheet and a template.
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.db.models import Count, Max, Prefetch, prefetch_related_objects
from django.utils.timezone import get_current_timezone_name
from django.utils.translation import get_language

from league.registry import access, correction_window
from protocol.models import Match, Seat


def state_etag(request, match: Match) -> str:
    """A weak ETag (the state is the same, whatever the compression) that changes whenever
    anything the state fragment (``protocol/includes/match_state.html`` with its includes
    ``status``, ``finality``, ``sheet`` and ``standings``, filled by
    ``protocol.views.common.match_context``) may show differently. Its inputs:

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
      window is still open now (it closes without any write);
    - the confirmations, which raise no version: how many and the newest (final once every
      seat confirmed the current version; after one the Protokollant no longer corrects);
    - what the viewer may do: the user, ``can_record`` (the "Enter game" button),
      ``can_correct`` (the sheet's links) and ``can_manage`` (his roles: staff, secretary,
      member, Protokollant, asked as ``league.registry.access`` answers them);
    - the club's short name (the links' addresses);
    - the language and the time zone of the request (words, numbers and dates).
    """
    prefetch_related_objects([match], Prefetch("seats", queryset=Seat.objects.select_related("member")))
    user = request.user
    confirmations = match.confirmations.aggregate(count=Count("pk"), newest=Max("pk"))
    parts = (
        settings.CACHES["default"].get("KEY_PREFIX", ""),
        match.pk, match.version, match.updated_at, match.status, match.winner_id,
        match.club.name, match.season.name if match.season_id else "", match.date, match.place,
        match.finished_at, match.club.correction_window, correction_window.is_open(match),
        confirmations["count"], confirmations["newest"],
        user.pk, access.can_record(user, match), access.can_correct(user, match),
        access.can_manage_match(user, match),
        match.club.slug, get_language(), get_current_timezone_name(),
    )
    digest = hashlib.blake2b("\x1f".join(map(str, parts)).encode(), digest_size=12).hexdigest()
    return f'W/"{digest}"'
