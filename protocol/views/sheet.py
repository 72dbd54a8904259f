"""The printed Spielprotokollblatt: a Partie's sheet, and the blank sheet for paper evenings.

Thin: the access check, then :mod:`protocol.sheet` makes the PDF bytes.
"""

from __future__ import annotations

from django import forms
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_safe

from league.registry import access
from league.registry.access import require_club
from protocol import games, sheet
from protocol.sheet import background, check
from protocol.views.common import require_match


@require_safe
def match_pdf(request, slug, pk):
    """The sheet of a running or finished match (``protocol.sheet.background``); a long one is
    printed in the background: the answer is then its job's page, which ends in the download."""
    match = require_match(request, slug, pk)
    site = check.site_of(request)  # where the sheet's QR code leads
    if background.is_long(match) and request.user.is_authenticated:
        job = background.sheet_job(match, request.user, site)
        return redirect("job", slug=match.club.slug, pk=job.pk)
    return _pdf_response(background.render_match_sheet(match, site), background.sheet_filename(match))


BLANK = games.plugin(games.DEFAULT).sheet  # the club's blank Spielprotokollblatt


class BlankSheetForm(forms.Form):
    """GET parameters of the blank sheet: how many seats, optionally the names and the Protokollant.

    Rendered by templates/sheet/includes/blank_form.html as plain inputs (it sits on the
    new-match page, whose context has its own form); this class only checks them.
    """

    count = forms.TypedChoiceField(
        label=gettext_lazy("Number of players"), coerce=int, initial=4, required=False, empty_value=4,
        choices=[(n, n) for n in range(BLANK.BLANK_MIN_PLAYERS, BLANK.BLANK_MAX_PLAYERS + 1)])
    players = forms.CharField(label=gettext_lazy("Names, clockwise"), required=False, max_length=800)
    scorekeeper = forms.CharField(label=gettext_lazy("Scorekeeper"), required=False, max_length=80)

    def clean(self):
        data = super().clean()
        names = [n.strip() for n in (data.get("players") or "").split(",") if n.strip()]
        if names:
            if not BLANK.BLANK_MIN_PLAYERS <= len(names) <= BLANK.BLANK_MAX_PLAYERS:
                self.add_error("players", _("A blank sheet is for %(least)s to %(most)s players.") % {
                    "least": BLANK.BLANK_MIN_PLAYERS, "most": BLANK.BLANK_MAX_PLAYERS})
            elif len(set(names)) != len(names):
                self.add_error("players", _("Every name may appear only once."))
        scorekeeper = (data.get("scorekeeper") or "").strip()
        if scorekeeper and scorekeeper not in names:
            self.add_error("scorekeeper", _("The scorekeeper must be one of the players (Art. 4)."))
        data["names"] = names or [""] * (data.get("count") or 4)
        data["scorekeeper"] = scorekeeper or None
        return data


@require_safe
def blank_pdf(request, slug):
    """An empty sheet for 2 to 8 players, for any member of the club."""
    club = require_club(request, slug, access.can_view_club_data)
    form = BlankSheetForm(request.GET or None)  # no parameters: the form, to fill in
    if not form.is_valid():
        status = 400 if request.GET else 200
        return render(request, "sheet/blank_form.html", {"club": club, "form": form}, status=status)
    data = form.cleaned_data
    pdf = sheet.render_blank_sheet(data["names"], data["scorekeeper"], club=club.name, place=club.place)
    return _pdf_response(pdf, f"spielprotokoll-leer-{club.slug}-{len(data['names'])}-spieler.pdf")


def _pdf_response(pdf: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(pdf, content_type="application/pdf")
    # inline: the browser shows it and prints it; the name is used when it is saved
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    response["Cache-Control"] = "private, no-store"
    return response
