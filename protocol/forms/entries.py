"""Strafe, Verwarnung, Disqualifikation, the end by time, annulments and corrections."""

from __future__ import annotations

import uuid

from django import forms
from django.utils.translation import gettext_lazy as _

from league.registry.texts import MultilineTextField
from protocol.entry_form import sanction


class ReasonForm(forms.Form):
    reason = MultilineTextField(label=_("Reason"), max_length=500, widget=forms.Textarea(attrs={"rows": 2}))
    version = forms.IntegerField(widget=forms.HiddenInput)


class SanctionForm(forms.Form):
    kind = forms.ChoiceField(label=_("Kind"), widget=forms.RadioSelect, initial="penalty")
    player = forms.ChoiceField(label=_("Player"))
    points = forms.IntegerField(label=_("Points deducted"), required=False)
    reason = MultilineTextField(label=_("Reason"), max_length=500)
    decided_by = forms.MultipleChoiceField(label=_("Decided by"), required=False,
                                           widget=forms.CheckboxSelectMultiple)
    version = forms.IntegerField(widget=forms.HiddenInput)
    submission = forms.UUIDField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args, players: list[str], ruleset, **kwargs):
        """``ruleset``: the match's ruleset, whose penalty bounds and articles the page names
        (the engine checks them)."""
        super().__init__(*args, **kwargs)
        choices = [(p, p) for p in players]
        self.fields["player"].choices = [("", "–")] + choices
        self.fields["decided_by"].choices = choices
        self._name_bounds(ruleset)
        if not self.is_bound and not self.initial.get("submission"):
            self.initial["submission"] = uuid.uuid4()

    def _name_bounds(self, ruleset) -> None:
        penalties = ruleset.penalties
        articles = ruleset.sanction_articles
        bounds = {"low": penalties.low, "high": penalties.high, "step": penalties.step,
                  "article": articles.get("penalty", "")}

        def label(kind: str, plain, cited):
            return cited % {"article": articles[kind]} if kind in articles else plain

        penalty = (_("Penalty (%(low)s–%(high)s points, %(article)s)") if bounds["article"]
                   else _("Penalty (%(low)s–%(high)s points)")) % bounds
        self.fields["kind"].choices = [
            ("penalty", penalty),
            ("warning", label("warning", _("Warning"), _("Warning (%(article)s)"))),
            ("disqualification", label("disqualification", _("Disqualification"), _("Disqualification (%(article)s)")))]
        points = self.fields["points"]
        points.initial = penalties.low
        if penalties.step:
            points.help_text = _("Only for a penalty: %(low)s to %(high)s points, in steps of %(step)s.") % bounds
        elif bounds["article"]:
            points.help_text = _("Only for a penalty: %(low)s to %(high)s points (%(article)s).") % bounds
        else:
            points.help_text = _("Only for a penalty: %(low)s to %(high)s points.") % bounds
        points.widget.attrs.update({"min": penalties.low, "max": penalties.high, "step": penalties.step or 1,
                                    "inputmode": "numeric"})
        self.fields["decided_by"].help_text = label(
            "disqualification", _("The other players; the accused does not vote."),
            _("The other players; the accused does not vote (%(article)s)."))

    def event(self) -> tuple[str, dict]:
        """(kind, body): protocol/entry_form/sanction.py, the same in the browser. Call after is_valid()."""
        return sanction.event(self.cleaned_data)

    initial_from = staticmethod(sanction.initial)

    def add_rule_errors(self, errors) -> None:
        for error in errors:
            self.add_error(sanction.field_for(error), error.message)


class EndForm(forms.Form):
    reason = forms.ChoiceField(label=_("Why does the match end?"), widget=forms.RadioSelect)
    version = forms.IntegerField(widget=forms.HiddenInput)

    def __init__(self, *args, reasons, **kwargs):
        """``reasons``: the game's end reasons with their labels (its plug-in's ``end_choices``)."""
        super().__init__(*args, **kwargs)
        self.fields["reason"].choices = reasons
