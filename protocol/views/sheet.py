"""The printed sheets: a Partie's sheet, and the blank sheet of any game for paper evenings.

Thin: the access check, then :mod:`protocol.sheet` makes the PDF bytes.
"""

from __future__ import annotations

from django import forms
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.functional import cached_property
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_safe

from league.models import Season
from league.registry import access
from league.registry.access import require_club
from protocol import games, sheet
from protocol.sheet import background, check
from protocol.views.common import require_match

DEFAULT_SEATS = 4  # the blank sheet's seats unless the form says otherwise (within the game's)


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


def blank_game(club) -> str:
    """The game whose blank sheet the club is offered first: its current season's game, where
    the registry has it, else the registry's default."""
    season = Season.current_for(club, timezone.localdate())
    return season.ruleset if season is not None and season.ruleset in games.INSTALLED else games.DEFAULT


class BlankSheetForm(forms.Form):
    """GET parameters of the blank sheet: the game (``spiel``), how many seats, optionally the names and the
    Protokollant.

    Rendered by templates/sheet/includes/blank_form.html as plain inputs (it sits on the
    new-match page, whose context has its own form); this class only checks them. The games
    and their seats are the registry's at the request (a game installed later is offered).
    """

    spiel = forms.CharField(label=gettext_lazy("Game"), required=False, max_length=40)  # as the tables' ?spiel=
    count = forms.IntegerField(label=gettext_lazy("Number of players"), required=False, min_value=1, max_value=99)
    players = forms.CharField(label=gettext_lazy("Names, clockwise"), required=False, max_length=800)
    scorekeeper = forms.CharField(label=gettext_lazy("Scorekeeper"), required=False, max_length=80)

    def __init__(self, data=None, *, default_game: str):
        super().__init__(data, initial={"spiel": default_game, "count": DEFAULT_SEATS})
        self.default_game = default_game

    @cached_property
    def games(self) -> list[dict]:
        """Every game of the registry: its key, name, the fewest and most seats of its blank sheet."""
        return [{"key": key, "name": plugin.name, "seats": sheet.blank_seats(key), "plugin": plugin}
                for key, plugin in games.PLUGINS.items()]

    @property
    def seat_choices(self) -> range:
        """The numbers of players the form offers: from the fewest of any game to the most."""
        return range(min(g["seats"][0] for g in self.games), max(g["seats"][1] for g in self.games) + 1)

    def clean_spiel(self) -> str:
        key = (self.cleaned_data.get("spiel") or "").strip() or self.default_game
        if key not in games.INSTALLED:
            raise forms.ValidationError(_("There is no blank sheet for the game %(game)s; there is one for %(games)s.")
                                        % {"game": key, "games": ", ".join(g["name"] for g in self.games)})
        return key

    def clean(self):
        data = super().clean()
        key = data.get("spiel")
        if key is None or "count" in self.errors:
            return data
        least, most = sheet.blank_seats(key)
        seats = _("A blank sheet of %(game)s is for %(least)s to %(most)s players.") % {
            "game": games.plugin(key).name, "least": least, "most": most}
        names = [n.strip() for n in (data.get("players") or "").split(",") if n.strip()]
        count = data.get("count") or min(max(DEFAULT_SEATS, least), most)
        if names:
            if not least <= len(names) <= most:
                self.add_error("players", seats)
            elif len(set(names)) != len(names):
                self.add_error("players", _("Every name may appear only once."))
        elif not least <= count <= most:
            self.add_error("count", seats)
        scorekeeper = (data.get("scorekeeper") or "").strip()
        if scorekeeper and scorekeeper not in names:
            self.add_error("scorekeeper", _("The scorekeeper must be one of the players."))
        data["names"] = names or [""] * count
        data["scorekeeper"] = scorekeeper or None
        return data


@require_safe
def blank_pdf(request, slug):
    """An empty sheet of any game of the registry (``spiel``: its key), for any member of the club."""
    club = require_club(request, slug, access.can_view_club_data)
    form = BlankSheetForm(request.GET or None, default_game=blank_game(club))  # no parameters: the form
    if form.is_valid():
        data = form.cleaned_data
        try:
            pdf = sheet.render_blank_sheet(data["names"], data["scorekeeper"], ruleset=data["spiel"],
                                           club=club.name, place=club.place)
        except ValueError as refused:  # what the game's sheet itself refuses, in its words
            form.add_error(None, str(refused))
        else:
            name = games.plugin(data["spiel"]).pdf_name
            return _pdf_response(pdf, f"{name}-leer-{club.slug}-{len(data['names'])}-spieler.pdf")
    status = 400 if request.GET else 200
    return render(request, "sheet/blank_form.html", {"club": club, "blank_form": form}, status=status)


def _pdf_response(pdf: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(pdf, content_type="application/pdf")
    # inline: the browser shows it and prints it; the name is used when it is saved
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    response["Cache-Control"] = "private, no-store"
    return response
