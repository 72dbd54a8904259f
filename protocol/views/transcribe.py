"""Protokoll nachtragen: the secretary types a finished paper protocol into one grid.

The page is a header form and an empty grid; ``static/js/transcribe.js`` (its modules in
``static/js/transcribe/``) fills the grid and sends the whole sheet as JSON to
:func:`transcribe_check` while typing and to :func:`transcribe_save` at the end. Reading the shorthand, every check and the save are
the transcription module's of the default game (``protocol.games``); the views only fetch, check access and wrap it in HTTP.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import JsonResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_POST, require_safe

from league.registry import access
from league.registry.access import require_club
from protocol import games

transcription = games.plugin(games.DEFAULT).transcription  # the paper protocol of the club's default game
AGREEMENTS = ("cards_per_deal", "decks", "no_trump_points", "no_trick_points", "scorekeeper_skips_shuffling",
              "max_games")  # the settings a table rarely changes, folded away on the page


@require_safe
def transcribe(request, slug):
    club = require_club(request, slug, access.can_manage_club)
    form = transcription.HeaderForm(club=club, initial={"date": timezone.localdate(), "place": club.place})
    members = list(club.members.filter(active=True).values_list("name", flat=True))
    return render(request, "protocol/transcribe.html", {
        "club": club, "form": form, "members": members, "texts": _texts(),
        "agreements": [form[name] for name in AGREEMENTS],
        "storage_key": f"trumpfbuch.nachtragen.{club.slug}.{request.user.pk}",
        "max_rows": transcription.MAX_ROWS,
    })


@require_POST
def transcribe_check(request, slug):
    """The engine's answer for the sheet as typed so far (JSON). Writes nothing."""
    club = require_club(request, slug, access.can_manage_club)
    try:
        sheet = transcription.read_sheet(request.body)
    except transcription.SheetUnreadable as exc:
        return JsonResponse({"error": str(exc)}, status=400)
    return JsonResponse(transcription.check(sheet, club=club))


@require_POST
def transcribe_save(request, slug):
    """Save the whole Partie if it is valid; the answer names the match page (JSON)."""
    club = require_club(request, slug, access.can_manage_club)
    try:
        sheet = transcription.read_sheet(request.body)
        saved = transcription.save(sheet, club=club, user=request.user)
    except transcription.SheetUnreadable as exc:
        return JsonResponse({"error": str(exc)}, status=400)
    except transcription.Refused as refused:
        return JsonResponse(refused.answer | {"error": refused.answer.get("problem", "")}, status=400)
    if saved.again:
        messages.info(request, _("This transcription had already been saved."))
    else:
        created = ", ".join(m.name for m in saved.created_members)
        messages.success(request, _("The paper protocol was transcribed and saved.") + (
            " " + _("New members: %(names)s.") % {"names": created} if created else ""))
    return JsonResponse({"url": saved.match.get_absolute_url()})


def _texts() -> dict[str, str]:
    """What the page's script says, in the user's language (the script holds no text)."""
    return {
        "game": _("Game %(n)s"),
        "row": _("Row %(n)s"),
        "tricks": _("Tricks"),
        "points": _("Card points"),
        "trumps": _("Trumps"),
        "tricks_short": _("Tk"),
        "points_short": _("Pt"),
        "trumps_short": _("Tp"),
        "score": pgettext("score", "Points"),
        "points_only": _("points only"),
        "entry": _("Trump or entry"),
        "inversions": _("Inversions"),
        "shuffler": _("Shuffler"),
        "number": _("No."),
        "seat": _("Seat %(n)s"),
        "kinds": {
            "penalty": _("Penalty"), "warning": _("Warning"), "disqualification": _("Disqualification"),
            "end": _("End"), "annulled": _("annulled"),
        },
        "not_playing": _("does not play in this game"),
        "checking": _("Checking …"),
        "offline": _("No connection: your entries stay saved in this browser and are checked as soon as "
                     "the connection is back."),
        "session": _("Your session has ended. Please log in again (in another tab); your entries stay "
                     "saved in this browser."),
        "failed": _("The check did not answer. Your entries stay saved in this browser."),
        "ready": _("The whole match is valid. Nothing is saved until you save it."),
        "ready_running": _("The match is valid but not decided yet: it is saved as a running match that can "
                           "be continued on its page."),
        "not_ready": _("Not ready to save yet:"),
        "no_players": _("Enter the players in the header first: the grid then gets a column for each of them."),
        "winner": _("%(name)s wins the match."),
        "tiebreak": _("Tie-break under way"),
        "running": _("The match is not decided yet."),
        "new_members": _("New in the club (become members when saved): %(names)s"),
        "scorekeeper_is": _("Scorekeeper: %(name)s"),
        "first_shuffler": _("First shuffler: %(name)s"),
        "season_is": _("Season: %(name)s"),
        "no_season": _("No season"),
        "draft": _("An unfinished transcription from %(when)s (%(rows)s rows) is kept in this browser."),
        "saving": _("Saving …"),
        "standing": _("Standing"),
        "stechen": _("Tie-break"),
        "to_win": _("upper limit %(limit)s"),
    }
