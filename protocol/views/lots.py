"""Losentscheid (LE) on the site: features named, cards turned from a fair shuffled Blatt."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.db import transaction
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_safe

from league.registry import access
from league.registry.texts import NameField
from protocol.models import Change, Lot
from protocol.rules.chaotentrumpf.cards import RANK_NAMES, parse_card
from protocol.rules.chaotentrumpf.lottery import draw_lot, feature_kind
from protocol.rules.chaotentrumpf.trump import LEVEL_NAMES, LEVEL_VALUES
from protocol.views.common import match_context, require_match

FEATURE_CHOICES = [("", "–")] + [
    (LEVEL_NAMES[level], [(v, RANK_NAMES[v] if level == "rank" else v) for v in values])
    for level, values in LEVEL_VALUES.items()
]


class LotForm(forms.Form):
    purpose = NameField(label=gettext_lazy("What is decided?"), max_length=120,
                              initial=gettext_lazy("Who keeps the protocol (Art. 4b)"))

    def __init__(self, *args, players, **kwargs):
        super().__init__(*args, **kwargs)
        self.players = players
        for i, player in enumerate(players):
            self.fields[f"f{i}"] = forms.ChoiceField(label=player, choices=FEATURE_CHOICES, required=False)

    def features(self) -> dict[str, str]:
        return {p: self.cleaned_data[f"f{i}"] for i, p in enumerate(self.players) if self.cleaned_data.get(f"f{i}")}

    def clean(self):
        data = super().clean()
        _kind, problem = feature_kind(self.features()) if not self.errors else (None, None)
        if problem:
            raise forms.ValidationError(problem)
        return data


@require_http_methods(["GET", "POST"])
def lot_new(request, slug, pk):
    match = require_match(request, slug, pk, access.can_record)
    context = match_context(request, match)
    form = LotForm(request.POST or None, players=context["computed"].players)
    if request.method == "POST" and form.is_valid():
        lot = draw_lot(form.features())  # SystemRandom: a fair shuffle nobody can predict
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
    stored = match.lots.filter(pk=lot).first()
    if stored is None:
        from django.http import Http404
        raise Http404
    return render(request, "protocol/lot.html", {"club": match.club, "match": match, "lot": stored,
                                                 "cards": [_card_name(code) for code in stored.data["cards"]]})


def _card_name(code):
    """"XK" -> "Kreuz König", as people at the table say it (a code that is no card stays as it is)."""
    card = parse_card(code)
    return card.name if card is not None else code
