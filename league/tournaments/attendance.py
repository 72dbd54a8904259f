"""Players at the door: who is present for a tournament's next round.

A walk-in guest is one field and one tap (:func:`walk_in`): a name becomes a guest member of
the club, checked like every name (``league.registry.texts``), and is marked present. The
list (:func:`attendance_page`) ticks arrivals and unticks who left between rounds; the next
draw (``league.tournaments.next_round``) seats those present at the game's table sizes and
names who sits out when the count fits no tables.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from league.models import Attendance, Member, Season
from league.registry import access
from league.registry.access import require_club
from league.registry.texts import NameField, lookalike_member
from league.tournaments import draws, seating
from league.tournaments.rounds import _not_a_tournament


class WalkInForm(forms.Form):
    name = NameField(label=gettext_lazy("Name of the guest"), max_length=80)


class AttendanceForm(forms.Form):
    present = forms.ModelMultipleChoiceField(label=gettext_lazy("Present for the next round"), required=False,
                                             queryset=Member.objects.none(), widget=forms.CheckboxSelectMultiple)

    def __init__(self, *args, season: Season, **kwargs):
        super().__init__(*args, **kwargs)
        present = season.attendances.values("member")
        self.fields["present"].queryset = season.club.members.filter(Q(pk__in=present) | Q(active=True))


def present_ids(season: Season) -> list[int]:
    return list(season.attendances.values_list("member", flat=True))


def _season(request, slug, season_pk, methods=None):
    club = require_club(request, slug, access.can_manage_club, methods=methods)
    return club, get_object_or_404(club.seasons, pk=season_pk)


def context(season: Season, **extra) -> dict:
    """What the attendance page shows: the list, the count, who would sit out."""
    present = present_ids(season)
    sizes = seating.TABLE_SIZES.get(season.ruleset, seating.FOURS_AND_FIVES)
    names = dict(season.club.members.filter(pk__in=present).values_list("pk", "name"))
    ordered = sorted(present, key=lambda pk: names[pk])
    out = draws.sitting_out(ordered, sizes) if ordered else []
    return {"club": season.club, "season": season, "present_count": len(present), "sizes": sizes,
            "would_sit_out": [names[pk] for pk in out], "kinds": draws.KINDS, **extra}


@require_http_methods(["GET", "POST"])
def attendance_page(request, slug, season_pk):
    """The list of who is present, and the walk-in field."""
    club, season = _season(request, slug, season_pk)
    if not season.is_tournament:
        return _not_a_tournament(request, club, season)
    form = AttendanceForm(request.POST if request.method == "POST" else None, season=season,
                          initial={"present": present_ids(season)})
    if form.is_valid():
        chosen = {m.pk for m in form.cleaned_data["present"]}
        if "everyone" in request.POST:  # the whole list in one tap: 30 members are not 30 taps
            chosen = set(form.fields["present"].queryset.values_list("pk", flat=True))
        with transaction.atomic():
            season.attendances.exclude(member__in=chosen).delete()
            known = set(present_ids(season))
            Attendance.objects.bulk_create([Attendance(season=season, member_id=pk) for pk in chosen - known])
        messages.success(request, _("%(n)s players are present for the next round.") % {"n": len(chosen)})
        return redirect("attendance", slug=club.slug, season_pk=season.pk)
    return render(request, "league/attendance.html", context(season, form=form, walk_in=WalkInForm()))


def walk_in(request, slug, season_pk):
    """A guest at the door: one name, one tap; a member of that name is only marked present."""
    club, season = _season(request, slug, season_pk, methods=("POST",))
    if not season.is_tournament:
        return _not_a_tournament(request, club, season)
    form = WalkInForm(request.POST)
    if form.is_valid():
        name = form.cleaned_data["name"]
        if (similar := lookalike_member(club, name)) is not None:
            form.add_error("name", _("“%(name)s” looks like the member “%(other)s”: please choose the member "
                                     "in the list or a name one can tell apart.") % {"name": name, "other": similar.name})
    if not form.is_valid():
        return render(request, "league/attendance.html",
                      context(season, form=AttendanceForm(season=season, initial={"present": present_ids(season)}),
                              walk_in=form), status=400)
    try:
        with transaction.atomic():
            member, created = club.members.get_or_create(name=name, defaults={"is_guest": True})
            Attendance.objects.get_or_create(season=season, member=member)
    except IntegrityError:
        messages.error(request, _("Someone changed the same data at the same time. Please check the list."))
        return redirect("attendance", slug=club.slug, season_pk=season.pk)
    if created:
        messages.success(request, _("Guest “%(name)s” is registered and present.") % {"name": name})
    else:
        messages.info(request, _("“%(name)s” is a member already and now present.") % {"name": name})
    return redirect("attendance", slug=club.slug, season_pk=season.pk)
