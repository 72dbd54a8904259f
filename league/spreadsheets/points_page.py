"""The secretary brings the club's old points lists in: upload and map -> dry run -> confirm.

Like the season import (``league.spreadsheets.season_import``) both steps are background
jobs (``league.spreadsheets.background``: ``points_check``, ``points_import``): the upload is
kept in the jobs' directory, the dry run's report (with the mapping as it was read, guesses
filled in) ends on the job's page, and a list without problems is confirmed there. From the
report the secretary may change the mapping (``?nach=<job>``): the same file is checked again,
without a second upload.
"""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from jobs.models import Job, store_upload, upload_path
from jobs.tasks import start
from league.registry import access
from league.registry.access import require_club
from league.spreadsheets.points_mapping import Mapping, MappingError, parse_columns, parse_spot
from league.spreadsheets.season_import import confirm_checked
from protocol.rules import RULESETS

MAX_UPLOAD = 2 * 1024 * 1024  # a club's lists of many seasons are a few hundred kB


class PointsListForm(forms.Form):
    file = forms.FileField(label=gettext_lazy("Points list (.xlsx)"), required=False,
                           help_text=gettext_lazy("A sheet per match, or matches one below the other; a row per game, "
                                                  "a column per player with the names in the header row."))
    season = forms.ModelChoiceField(label=gettext_lazy("Season"), queryset=None, required=False,
                                    empty_label=gettext_lazy("the club's season of each match's date"))
    game = forms.ChoiceField(label=gettext_lazy("Game type"), required=False)
    guests = forms.BooleanField(label=gettext_lazy("Create unknown names as guests"), required=False,
                                help_text=gettext_lazy("Otherwise a name that is no member's is a problem at its cell."))
    header_row = forms.IntegerField(label=gettext_lazy("Header row"), required=False, min_value=1, max_value=5000,
                                    help_text=gettext_lazy("Empty: the first row with the players' names."))
    players = forms.CharField(label=gettext_lazy("Player columns"), required=False, max_length=100,
                              help_text=gettext_lazy("E.g. “B-E”; empty: every column with a name in the header row."))
    date = forms.CharField(label=gettext_lazy("Date (column or cell)"), required=False, max_length=10,
                           help_text=gettext_lazy("E.g. “A” or “B1”; empty: the cell beside “Datum” or a date above "
                                                  "the header, or the column “Datum”."))
    place = forms.CharField(label=gettext_lazy("Place (column or cell)"), required=False, max_length=10,
                            help_text=gettext_lazy("Empty: the cell beside “Ort”, or the column “Ort”."))
    number = forms.CharField(label=gettext_lazy("Column of the game's number"), required=False, max_length=10,
                             help_text=gettext_lazy("Empty: the column “Nr” or “Spiel”; “-” for none."))
    ignore = forms.CharField(label=gettext_lazy("Columns to ignore"), required=False, max_length=100,
                             help_text=gettext_lazy("E.g. “F, H”: notes, the dealer."))
    running_totals = forms.BooleanField(label=gettext_lazy("Running totals (Zwischensummen)"), required=False,
                                        help_text=gettext_lazy("Each row holds every player's total after the game, "
                                                               "not the points of that game."))

    def __init__(self, *args, club, upload: str = "", **kwargs):
        super().__init__(*args, **kwargs)
        self.upload = upload
        self.fields["file"].required = not upload  # checked again: the dry run's file, unless another is chosen
        self.fields["season"].queryset = club.seasons.all()
        self.fields["game"].choices = [("", _("the season's game"))] + [(k, r.name) for k, r in RULESETS.items()]

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload is not None and upload.size > MAX_UPLOAD:
            raise forms.ValidationError(_("The file is larger than 2 MB; a club's points lists are much smaller."))
        return upload

    def clean(self):
        data = super().clean()
        if not data.get("game") and not data.get("season"):
            self.add_error("game", _("Please choose the game (or a season, whose game it then is)."))
        for name, read in (("players", parse_columns), ("ignore", parse_columns), ("date", parse_spot),
                           ("place", parse_spot)):
            try:
                data[name] = read(data.get(name) or "", str(self.fields[name].label))
            except MappingError as wrong:
                self.add_error(name, str(wrong))
        try:
            data["number"] = parse_spot(data.get("number") or "", str(self.fields["number"].label), none_allowed=True)
        except MappingError as wrong:
            self.add_error("number", str(wrong))
        return data

    def params(self) -> dict:
        data = self.cleaned_data
        season = data["season"]
        mapping = Mapping(header_row=data["header_row"], players=data["players"], date=data["date"],
                          place=data["place"], number=data["number"], ignore=data["ignore"],
                          running_totals=data["running_totals"])
        upload = store_upload(data["file"], ".xlsx") if data["file"] else self.upload
        return {"upload": upload, "season": season.pk if season else None,
                "game": data["game"] or season.ruleset, "guests": data["guests"], "mapping": mapping.as_json()}


def _again(club, pk) -> Job | None:
    """The dry run whose file is checked again with another mapping (its upload still there)."""
    job = club.jobs.filter(pk=pk, kind="points_check").first() if pk else None
    return job if job and upload_path(job.params.get("upload", "")).exists() else None


def _initial(job: Job) -> dict:
    params = job.params
    report = job.report or {}
    shown = (report.get("mappings") or [{}])[0]  # the mapping as the first sheet was read
    mapping = Mapping.from_json(params.get("mapping")).shown() | {k: v for k, v in shown.items() if k != "sheet"}
    mapping["running_totals"] = bool(params.get("mapping", {}).get("running_totals"))
    return {"season": params.get("season"), "game": params.get("game"), "guests": params.get("guests"), **mapping}


@require_http_methods(["GET", "POST"])
def points_list_import(request, slug):
    club = require_club(request, slug, access.can_manage_club)
    try:
        again = _again(club, request.GET.get("nach"))
    except ValidationError:  # not a job's id
        again = None
    form = PointsListForm(request.POST or None, request.FILES or None, club=club,
                          upload=again.params["upload"] if again else "", initial=_initial(again) if again else None)
    if request.method == "POST" and form.is_valid():
        job = start("points_check", club=club, user=request.user, params=form.params())
        return redirect("job", slug=club.slug, pk=job.pk)
    return render(request, "league/points_import.html", {"club": club, "form": form, "again": again})


def points_list_confirm(request, slug, pk):
    """Import the points list the dry run ``pk`` found without problems (once, however often confirmed)."""
    return confirm_checked(request, slug, pk, check="points_check", confirmed="points_import",
                           page="league/points_import.html", form=PointsListForm)
