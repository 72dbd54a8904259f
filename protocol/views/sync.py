"""The offline queue's way in: entries typed on a phone without network, sent as JSON when it
is back (static/js/offline/queue.js).

``POST …/eintraege/`` with ``{kind, body, version, submission, recorded_at}`` goes the very
path of an online save (protocol.services.add_event: compare and swap on ``version``, the
one-time ``submission``, the engine re-checks everything). A correction is ``{kind:
"correction", position, body: {<the entry's own kind>: {…}}, reason, …}`` and goes
protocol.services.correct_event (its right: access.can_correct). The answers, always JSON:

- 201 ``{version, position}`` saved; 200 ``{…, already: true}`` this submission was saved
  before (a second tab, a lost answer: exactly once);
- 409 ``{version, document, message}`` another device saved since ``version``: the phone
  replays its queue on ``document`` and sends again;
- 422 ``{errors: [{message, article, field, player}]}`` the engine refuses the entry;
- 400 bad JSON or a missing part, 401 not signed in (``login``: where to), 403 no right.

``GET`` answers ``{version, document, state}``: the match as stored, for the replay; ``HEAD``
answers 204 (is the server there?).
"""

from __future__ import annotations

import json
import uuid
from datetime import timedelta

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import resolve_url
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.http import urlencode
from django.utils.translation import gettext as _

from league.registry import access
from protocol import services
from protocol.entries import sanction
from protocol.entries import state as entry_state
from protocol.views.common import require_match

KINDS = ("game", *sanction.KINDS, "end", "correction")  # what a Protokollant records (annulling: the manager)


class BadEntry(Exception):
    """The request is no entry (German message for the Protokollant)."""


def entries_sync(request, slug, pk):
    try:
        match = require_match(request, slug, pk, access.can_send_entries, methods=("GET", "HEAD", "POST"))
    except access.LoginRequired:
        login = f"{resolve_url(settings.LOGIN_URL)}?{urlencode({'next': match_path(slug, pk)})}"
        return JsonResponse({"message": _("Please log in again to send the waiting entries."), "login": login},
                            status=401)
    except PermissionDenied:
        return JsonResponse({"message": _("You may not record entries in this match.")}, status=403)
    except access.MethodNotAllowed:
        return JsonResponse({"message": _("Only GET, HEAD and POST.")}, status=405)
    except Http404:
        return JsonResponse({"message": _("There is no such match.")}, status=404)
    if request.method == "HEAD":  # the entry page asks whether the server answers before a save
        return HttpResponse(status=204)
    if request.method == "GET":
        return JsonResponse(stored(match))
    try:
        kind, body, version, submission, recorded_at = read_entry(request.body)
    except BadEntry as bad:
        return JsonResponse({"message": str(bad)}, status=400)
    if kind != "correction" and not access.can_record(request.user, match):  # within the correction window
        return JsonResponse({"message": _("You may not record entries in this match.")}, status=403)
    try:
        if kind == "correction":
            event = correct(request, match, body, version, submission, recorded_at)
        else:
            event = services.add_event(match, kind, body, user=request.user, version=version,
                                       submission=submission, recorded_at=recorded_at)
    except BadEntry as bad:
        return JsonResponse({"message": str(bad)}, status=400)
    except PermissionDenied:
        return JsonResponse({"message": _("You may not correct entries in this match.")}, status=403)
    except services.AlreadySaved as saved:
        match.refresh_from_db(fields=["version"])
        return JsonResponse({"version": match.version, "position": saved.position, "already": True})
    except services.StaleMatch as stale:
        match.refresh_from_db()
        return JsonResponse({"message": stale.message} | stored(match, with_state=False), status=409)
    except services.RuleViolation as refused:
        return JsonResponse({"errors": [entry_state.error_json(e, e.field) for e in refused.errors]}, status=422)
    return JsonResponse({"version": match.version, "position": event.position}, status=201)


def correct(request, match, correction: dict, version, submission, recorded_at):
    """Save the correction ``correction`` ({position, body: {kind: {…}}, reason}) of the entry at
    its position: the entry keeps its kind (the correction page's rule)."""
    if not access.can_correct(request.user, match):
        raise PermissionDenied
    position, (kind, body) = correction["position"], next(iter(correction["body"].items()))
    stored_kind = match.events.filter(position=position).values_list("kind", flat=True).first()
    if stored_kind is None:
        raise BadEntry(f"Die Partie hat keinen Eintrag an Stelle {position}.")
    if kind != stored_kind:
        raise BadEntry("Die Art eines Eintrags lässt sich nicht ändern; bitte ihn löschen und neu eintragen.")
    return services.correct_event(match, position, body, user=request.user, version=version,
                                  reason=correction["reason"], submission=submission, recorded_at=recorded_at)


def match_path(slug, pk) -> str:
    return reverse("protocol:match", kwargs={"slug": slug, "pk": pk})


def stored(match, *, with_state: bool = True) -> dict:
    document = services.document(match)
    answer = {"version": match.version, "document": document}
    if with_state:
        answer["state"] = entry_state.state(document)
    return answer


def read_entry(raw: bytes):
    """(kind, body, version, submission, recorded_at) of the request's JSON, or BadEntry."""
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise BadEntry("Die Anfrage ist kein gültiges JSON.") from None
    if not isinstance(data, dict):
        raise BadEntry("Die Anfrage muss ein JSON-Objekt sein: {kind, body, version, submission}.")
    kind, body, version = data.get("kind"), data.get("body"), data.get("version")
    if kind not in KINDS:
        raise BadEntry(f"Unbekannte Art des Eintrags: {kind!r} (erlaubt: {', '.join(KINDS)}).")
    if not isinstance(body, dict):
        raise BadEntry("Der Eintrag (body) fehlt oder ist kein Objekt.")
    if kind == "correction":
        body = read_correction(data, body)
    if not isinstance(version, int) or isinstance(version, bool) or version < 0:
        raise BadEntry("Die Version (version), auf der der Eintrag beruht, fehlt oder ist keine Zahl.")
    try:
        submission = uuid.UUID(str(data.get("submission")))
    except ValueError:
        raise BadEntry("Die Kennung des Eintrags (submission) fehlt oder ist keine UUID.") from None
    return kind, body, version, submission, read_time(data.get("recorded_at"))


def read_correction(data: dict, body: dict) -> dict:
    """{position, body, reason} of a correction, or BadEntry: ``body`` is the entry's new body
    under its own kind ({"game": {…}})."""
    position = data.get("position")
    if not isinstance(position, int) or isinstance(position, bool) or position < 0:
        raise BadEntry("Die Stelle des korrigierten Eintrags (position) fehlt oder ist keine Zahl.")
    if len(body) != 1 or not isinstance(next(iter(body.values())), dict):
        raise BadEntry("Die Korrektur (body) muss genau einen Eintrag mit seiner Art enthalten, z. B. {\"game\": {…}}.")
    reason = data.get("reason")
    return {"position": position, "body": body, "reason": reason if isinstance(reason, str) else ""}


def read_time(value):
    """When the phone captured the entry (ISO 8601); never later than now (a phone's clock may run ahead)."""
    if value in (None, ""):
        return None
    moment = parse_datetime(value) if isinstance(value, str) else None
    if moment is None:
        raise BadEntry("Der Zeitpunkt der Erfassung (recorded_at) ist keine Zeitangabe nach ISO 8601.")
    if timezone.is_naive(moment):
        moment = timezone.make_aware(moment)
    now = timezone.now()
    if moment < now - timedelta(days=30):
        raise BadEntry("Der Zeitpunkt der Erfassung (recorded_at) liegt mehr als 30 Tage zurück.")
    return min(moment, now)


def offline_page(request, match, kind: str, event=None, events=None) -> dict:
    """What the entry page carries for the offline evening (static/js/offline/entry.js): the
    stored document and its version (the engine checks queued entries on top of them), the
    endpoint, the entry pages (an entry that no longer fits is edited there) and the login to come
    back to. ``kind``: the page's form (game | sanction | end | correction), "match" on the match
    page; ``event``: the entry a correction page corrects (its position and kind); ``events``:
    the stored events at ``match.version`` where the view read them already (its kept reading)."""
    where = {"slug": match.club.slug, "pk": match.pk}
    return {"offline": {
        "match": match.pk, "kind": kind, "version": match.version, "ruleset": match.ruleset,
        # The match page only sends what waits (a 409 brings the stored document): the page
        # stays small (issue 18: under 80 kB for 7 players and 60 Spiele).
        **({"document": services.document(match, events)} if kind != "match" else {}),
        "sync": reverse("protocol:entries_sync", kwargs=where),
        "pages": {"game": reverse("protocol:game_new", kwargs=where),
                  "sanction": reverse("protocol:sanction_new", kwargs=where),
                  "end": reverse("protocol:end", kwargs=where)},
        "login": f"{resolve_url(settings.LOGIN_URL)}?{urlencode({'next': request.get_full_path()})}",
        **({"position": event.position, "entry": event.kind, "page": request.path} if event is not None else {}),
    }}
