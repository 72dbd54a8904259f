"""Signing the sheet: a player (or the Protokollant for a guest) confirms the final result."""

from __future__ import annotations

from django.contrib import messages
from django.db import transaction
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _

from league.registry import access
from protocol import confirmations
from protocol.models import Match
from protocol.views.common import require_match


def confirm_result(request, slug, pk, position):
    """POST: the player of seat ``position`` confirms the result he saw on the final sheet
    (the page's ``version``): once, and only that result."""
    match = require_match(request, slug, pk, methods=("POST",))
    seat = get_object_or_404(match.seats.select_related("member"), position=position)
    if not confirmations.is_signable(match):
        messages.info(request, _("An annulled match has no result to confirm.") if match.status == Match.Status.ANNULLED
                      else _("The result can be confirmed once the match is over."))
        return redirect(match)
    access.require(request.user, confirmations.may_confirm(request.user, match, seat))
    with transaction.atomic():  # the version and the confirmations as they stand at the tap
        version = Match.objects.select_for_update().values_list("version", flat=True).get(pk=match.pk)
        if request.POST.get("version") != str(version):
            # a correction (or annulment: every change raises the version) came between the look
            # and the tap: he would sign a result he did not see
            messages.warning(request, _("The result has changed since the page was loaded; please look at the "
                                        "sheet again before confirming."))
        elif match.confirmations.filter(seat=seat, version=version).exists():
            messages.info(request, _("%(name)s had already confirmed this result.") % {"name": seat.name})
        else:
            confirmations.confirm(match, seat, user=request.user)
            messages.success(request, _("%(name)s has confirmed the result.") % {"name": seat.name})
    return redirect(match.get_absolute_url() + "#signatures")
