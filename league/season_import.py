"""The secretary brings a season workbook in: upload -> dry run -> confirm -> import.

The upload is checked by a dry run of ``league.imports`` (nothing saved). A workbook without
problems waits in the session under a one-time token; the session lives in the database, so
any app server can take the confirmation, and the confirmation imports exactly the bytes
that were checked (checked again, in one transaction: all or nothing).
"""

from __future__ import annotations

import base64
import secrets

from django import forms
from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from . import imports
from .models import Season
from .views import club_manager_view

MAX_UPLOAD = 10 * 1024 * 1024  # a season of 150 Partien is about 1 MB
SESSION_KEY = "season_import"


class UploadForm(forms.Form):
    file = forms.FileField(label=gettext_lazy("Season workbook (.xlsx)"),
                           help_text=gettext_lazy("As the season export writes it: the sheets Tabelle, Partien, "
                                                  "Spiele and Strafen."))
    season = forms.ModelChoiceField(
        label=gettext_lazy("Season"), queryset=None, required=False,
        help_text=gettext_lazy("Empty: the season each match names (created if the club has none of that name), "
                               "else the club's season of its date."))

    def __init__(self, *args, club, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["season"].queryset = club.seasons.all()

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_UPLOAD:
            raise forms.ValidationError(_("The file is larger than 10 MB; a season workbook is much smaller."))
        return upload


@club_manager_view
@require_http_methods(["GET", "POST"])
def season_import(request, club):
    if request.method == "POST" and "confirm" in request.POST:
        return _confirm(request, club)
    request.session.pop(SESSION_KEY, None)  # a new check: a workbook kept from before is not confirmed any more
    form = UploadForm(request.POST or None, request.FILES or None, club=club)
    context = {"club": club, "form": form}
    if request.method == "POST" and form.is_valid():
        data, season = form.cleaned_data["file"].read(), form.cleaned_data["season"]
        try:
            report = imports.import_season(data, club=club, season=season, user=request.user, dry_run=True,
                                          limits=imports.PAGE_LIMITS)
        except imports.WorkbookUnreadable as unreadable:
            form.add_error("file", str(unreadable))
        else:
            context["report"] = report
            if report.ok:
                context["token"] = _keep(request, club, data, season)
    return render(request, "league/season_import.html", context)


def _keep(request, club, data: bytes, season: Season | None) -> str:
    """The checked workbook, kept for its confirmation; answers the token that names it."""
    token = secrets.token_urlsafe(16)
    request.session[SESSION_KEY] = {"token": token, "club": club.pk, "season": season.pk if season else None,
                                    "data": base64.b64encode(data).decode("ascii")}
    return token


def _confirm(request, club):
    kept = request.session.pop(SESSION_KEY, None)
    season = None
    if kept and kept["season"] is not None:
        season = club.seasons.filter(pk=kept["season"]).first()
    if not kept or kept["token"] != request.POST["confirm"] or kept["club"] != club.pk or (
            kept["season"] is not None and season is None):
        context = {"club": club, "form": UploadForm(club=club),
                   "error": _("The checked workbook is no longer at hand; please upload it and check it again.")}
        return render(request, "league/season_import.html", context)
    report = imports.import_season(base64.b64decode(kept["data"]), club=club, season=season, user=request.user,
                                   limits=imports.PAGE_LIMITS)
    if not report.saved:  # something changed since the check (say, the same season came in meanwhile)
        return render(request, "league/season_import.html", {"club": club, "form": UploadForm(club=club),
                                                              "report": report})
    messages.success(request, _("The season workbook was imported: %(matches)s matches, %(games)s games.")
                     % {"matches": report.matches, "games": report.games})
    names = [name for name in report.seasons if name]
    if len(report.seasons) == 1 and names:
        target = club.seasons.get(name=names[0])
        return redirect("standings_season", slug=club.slug, season_pk=target.pk)
    return redirect("club_seasons", slug=club.slug)
