"""The secretary brings a season workbook in: upload -> dry run -> confirm -> import.

A season of 1,000 Partien takes longer to check than a request may, so both steps are
background jobs (``league.spreadsheets.background``): the upload is kept in the jobs' directory (not in
the session) and its dry run (``season_check``) ends on the job's page in the report; a
workbook without problems is confirmed there, which starts the import (``season_import``)
of exactly the file that was checked (checked again, in one transaction: all or nothing).
"""

from __future__ import annotations

from django import forms
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from jobs.models import Job, store_upload
from jobs.tasks import start
from league.registry import access
from league.registry.access import require_club

MAX_UPLOAD = 10 * 1024 * 1024  # a season of 150 Partien is about 1 MB


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


@require_http_methods(["GET", "POST"])
def season_import(request, slug):
    club = require_club(request, slug, access.can_manage_club)
    form = UploadForm(request.POST or None, request.FILES or None, club=club)
    if request.method == "POST" and form.is_valid():
        season = form.cleaned_data["season"]
        job = start("season_check", club=club, user=request.user,
                    params={"upload": store_upload(form.cleaned_data["file"], ".xlsx"),
                            "season": season.pk if season else None})
        return redirect("job", slug=club.slug, pk=job.pk)
    return render(request, "league/season_import.html", {"club": club, "form": form})


def season_import_confirm(request, slug, pk):
    """Import the workbook the dry run ``pk`` found without problems (once, however often confirmed)."""
    return confirm_checked(request, slug, pk, check="season_check", confirmed="season_import",
                           page="league/season_import.html", form=UploadForm)


def confirm_checked(request, slug, pk, *, check: str, confirmed: str, page: str, form) -> HttpResponse:
    """Start the import ``confirmed`` of the file the dry run ``pk`` (of the kind ``check``)
    found without problems, once however often it is confirmed; else the upload ``page``
    again, with a fresh ``form``, saying why."""
    club = require_club(request, slug, access.can_manage_club, methods=("POST",))
    checked = get_object_or_404(club.jobs, pk=pk, kind=check)
    if checked.state != Job.State.DONE or not (checked.report or {}).get("ok"):
        context = {"club": club, "form": form(club=club),
                   "error": _("The checked workbook is no longer at hand; please upload it and check it again.")}
        return render(request, page, context)
    job = club.jobs.filter(kind=confirmed, params__check=str(checked.pk)).first()
    if job is None:
        job = start(confirmed, club=club, user=request.user, params=checked.params | {"check": str(checked.pk)})
    return redirect("job", slug=club.slug, pk=job.pk)
