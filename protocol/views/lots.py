"""Losentscheid (LE) on the site: features named, cards turned from a fair shuffled Blatt."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.db import transaction
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_safe

from league.registry import access
from league.registry.texts import NameField
from protocol import games
from protocol.models import Change, Lot
from protocol.views.common import match_context, require_match


def _lots(match):
    """The Losentscheid of the match's game (protocol/games/<game>/lots.py); a 404 where it has none."""
    lots = games.plugin(match.ruleset).lots
    if lots is None:
        raise Http404
    return lots


class LotForm(forms.Form):
    purpose = NameField(label=gettext_lazy("What is decided?"), max_length=120,
                              initial=gettext_lazy("Who keeps the protocol (Art. 4b)"))

    def __init__(self, *args, players, lots, **kwargs):
        super().__init__(*args, **kwargs)
        self.players, self.lots = players, lots
        for i, player in enumerate(players):
            self.fields[f"f{i}"] = forms.ChoiceField(label=player, choices=lots.FEATURE_CHOICES, required=False)

    def features(self) -> dict[str, str]:
        return {p: self.cleaned_data[f"f{i}"] for i, p in enumerate(self.players) if self.cleaned_data.get(f"f{i}")}

    def clean(self):
        data = super().clean()
        problem = self.lots.features_problem(self.features()) if not self.errors else None
        if problem:
            raise forms.ValidationError(problem)
        return data


@require_http_methods(["GET", "POST"])
def lot_new(request, slug, pk):
    match = require_match(request, slug, pk, access.can_record)
    lots = _lots(match)
    context = match_context(request, match)
    form = LotForm(request.POST or None, players=context["computed"].players, lots=lots)
    if request.method == "POST" and form.is_valid():
        lot = lots.draw(form.features())
        with transaction.atomic():
            stored = Lot.objects.create(match=match, purpose=form.cleaned_data["purpose"], data=lot.as_json(),
                                        drawn_by=request.user)
            Change.objects.create(match=match, action=Change.Action.LOT, after=lot.as_json(),
                                  reason=form.cleaned_data["purpose"], user=request.user)
        messages.success(request, _("%(name)s wins the lot.") % {"name": lot.winner})
        return redirect("protocol:lot", slug=match.club.slug, pk=match.pk, lot=stored.pk)
    return render(request, "protocol/lot_form.html", context | {"form": form, "lots": match.lots.all()})


@require_safe
def lot_detail(request, slug, pk, lot):
    match = require_match(request, slug, pk)
    lots = _lots(match)
    stored = match.lots.filter(pk=lot).first()
    if stored is None:
        raise Http404
    return render(request, "protocol/lot.html", {"club": match.club, "match": match, "lot": stored,
                                                 "cards": [lots.card_name(code) for code in stored.data["cards"]]})
