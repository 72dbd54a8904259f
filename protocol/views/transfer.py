"""The protocol/1 file of a Partie: download it, or bring one in (the secretary)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_safe

from league.registry import access
from league.registry.access import require_club
from protocol.documents import transfer
from protocol.forms.match import league_seasons
from protocol.views.common import require_match

MAX_UPLOAD = 2 * 1024 * 1024  # a protocol of hundreds of Spiele is a few hundred kB


@require_safe
def export_json(request, slug, pk):
    match = require_match(request, slug, pk)
    response = HttpResponse(transfer.export_bytes(match), content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="partie-{match.pk}-{match.date:%Y-%m-%d}.json"'
    return response


class UploadForm(forms.Form):
    file = forms.FileField(label=gettext_lazy("Protocol file (JSON, protocol/1)"))
    season = forms.ModelChoiceField(label=gettext_lazy("Season"), queryset=None, required=False,
                                    help_text=gettext_lazy("Empty: the season named in the file, or the one of its date."))

    def __init__(self, *args, club, **kwargs):
        super().__init__(*args, **kwargs)
        league_seasons(self.fields["season"], club)

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_UPLOAD:
            raise forms.ValidationError(_("The file is larger than 2 MB; a protocol file is much smaller."))
        return upload


@require_http_methods(["GET", "POST"])
def import_upload(request, slug):
    club = require_club(request, slug, access.can_manage_club)
    form = UploadForm(request.POST or None, request.FILES or None, club=club)
    errors = []
    if request.method == "POST" and form.is_valid():
        try:
            imported = transfer.import_bytes(form.cleaned_data["file"].read(), name=_("The file"), club=club,
                                             season=form.cleaned_data["season"], user=request.user)
        except transfer.ImportRefused as refused:
            errors = refused.errors
        else:
            created = ", ".join(m.name for m in imported.created_members)
            messages.success(request, _("The match was imported.") + (
                " " + _("New members: %(names)s.") % {"names": created} if created else ""))
            return redirect(imported.match)
    return render(request, "protocol/import.html", {"club": club, "form": form, "errors": errors})
