"""Signing the sheet: a player (or the Protokollant for a guest) confirms the final result."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _

from league.registry import access
from protocol import confirmations
from protocol.views.common import require_match


def confirm_result(request, slug, pk, position):
    """POST: the player of seat ``position`` confirms the result he saw on the final sheet."""
    match = require_match(request, slug, pk, methods=("POST",))
    seat = get_object_or_404(match.seats.select_related("member"), position=position)
    if not confirmations.is_signable(match):
        messages.info(request, _("The result can be confirmed once the match is over."))
        return redirect(match)
    access.require(request.user, confirmations.may_confirm(request.user, match, seat))
    confirmations.confirm(match, seat, user=request.user)
    messages.success(request, _("%(name)s has confirmed the result.") % {"name": seat.name})
    return redirect(match.get_absolute_url() + "#signatures")
