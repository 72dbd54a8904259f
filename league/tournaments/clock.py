"""The round's clock where the rules limit time (Art. 17c Zeitbegrenzung; FFT-Regeln
"Spielrhythmus": 35 minutes for 3 deals, 45 for 4): the secretary starts it on the round board;
the board and each table's Partie page count down from the server's start and duration
(static/js/round_clock.js). When the time is up nothing ends by itself: the page asks the
Protokollant to end the Partie by time (the ``end`` entry with the reason "time"), which the
engine scores as the rules say.
"""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect
from django.utils import timezone
from django.utils.translation import gettext as _

from league.models import Round
from league.registry import access
from league.registry.access import require_club
from league.registry.round_clock import clock_of
from league.tournaments.rounds import _round


def round_clock_start(request, slug, round_pk):
    """POST: the secretary starts the round's clock (once; a closed round has none to start)."""
    club = require_club(request, slug, access.can_manage_club, methods=("POST",))
    round_ = _round(club, round_pk)
    if clock_of(round_) is None:
        messages.error(request, _("This tournament has no time per round: set the minutes per round in its settings."))
    elif round_.closed_at is not None:
        messages.error(request, _("Round %(n)s is closed.") % {"n": round_.number})
    elif Round.objects.filter(pk=round_.pk, started_at=None).update(started_at=timezone.now()):
        messages.success(request, _("The clock of round %(n)s runs.") % {"n": round_.number})
    else:
        messages.info(request, _("The clock of round %(n)s was started already.") % {"n": round_.number})
    return redirect("round_board", slug=club.slug, round_pk=round_.pk)
