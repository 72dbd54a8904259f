"""Strafe, Verwarnung, Disqualifikation, the end by time, annulments and corrections."""

from __future__ import annotations

import uuid

from django import forms
from django.utils.translation import gettext_lazy as _

from league.texts import MultilineTextField
from protocol.rules.tally import END_REASONS as TALLY_END_REASONS

KIND_CHOICES = [("penalty", _("Penalty (100–1000 points, SV 3)")), ("warning", _("Warning (SV 2)")),
                ("disqualification", _("Disqualification (SV 3)"))]
# The end of a match of a tally ruleset (Doppelkopf, Tarot): protocol.rules.tally.END_REASONS.
TALLY_END_LABELS = {"time": _("The agreed time is up"), "agreed": _("The players agreed to stop"),
                    "games": _("The round's number of games is reached")}
TALLY_END_CHOICES = [(key, TALLY_END_LABELS[key]) for key in TALLY_END_REASONS]


class ReasonForm(forms.Form):
    reason = MultilineTextField(label=_("Reason"), max_length=500, widget=forms.Textarea(attrs={"rows": 2}))
    version = forms.IntegerField(widget=forms.HiddenInput)


class SanctionForm(forms.Form):
    kind = forms.ChoiceField(label=_("Kind"), choices=KIND_CHOICES, widget=forms.RadioSelect, initial="penalty")
    player = forms.ChoiceField(label=_("Player"))
    points = forms.IntegerField(label=_("Points deducted"), required=False, initial=100,
                                help_text=_("Only for a penalty: 100 to 1000 (SV 3)."))
    reason = MultilineTextField(label=_("Reason"), max_length=500)
    decided_by = forms.MultipleChoiceField(label=_("Decided by"), required=False,
                                           widget=forms.CheckboxSelectMultiple,
                                           help_text=_("The other players; the accused does not vote (SV 3)."))
    version = forms.IntegerField(widget=forms.HiddenInput)
    submission = forms.UUIDField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args, players: list[str], penalty=None, **kwargs):
        """``penalty``: a tally ruleset (Doppelkopf, Tarot) whose bounds the page names;
        None for Chaotentrumpf (SV 3). The engine checks the bounds either way."""
        super().__init__(*args, **kwargs)
        choices = [(p, p) for p in players]
        self.fields["player"].choices = [("", "–")] + choices
        self.fields["decided_by"].choices = choices
        if penalty is not None:
            self._name_bounds(penalty)
        if not self.is_bound and not self.initial.get("submission"):
            self.initial["submission"] = uuid.uuid4()

    def _name_bounds(self, ruleset) -> None:
        low, high = ruleset.penalty_bounds
        step = ruleset.penalty_step
        bounds = {"low": low, "high": high, "step": step}
        self.fields["kind"].choices = [("penalty", _("Penalty (%(low)s–%(high)s points)") % bounds),
                                       ("warning", _("Warning")), ("disqualification", _("Disqualification"))]
        points = self.fields["points"]
        points.initial = low
        points.help_text = (_("Only for a penalty: %(low)s to %(high)s points, in steps of %(step)s.") % bounds
                            if step else _("Only for a penalty: %(low)s to %(high)s points.") % bounds)
        points.widget.attrs.update({"min": low, "max": high, "step": step or 1, "inputmode": "numeric"})
        self.fields["decided_by"].help_text = _("The other players; the accused does not vote.")

    def event(self) -> tuple[str, dict]:
        data = self.cleaned_data
        body = {"player": data["player"], "reason": data["reason"].strip()}
        if data["kind"] == "penalty":
            body["points"] = data.get("points")
        if data["kind"] in ("penalty", "disqualification"):
            body["decided_by"] = list(data.get("decided_by", []))
        return data["kind"], body

    @staticmethod
    def initial_from(kind: str, body: dict) -> dict:
        return {"kind": kind, "player": body.get("player"), "points": body.get("points"),
                "reason": body.get("reason"), "decided_by": body.get("decided_by", [])}

    def add_rule_errors(self, errors) -> None:
        for error in errors:
            self.add_error(error.field if error.field in self.fields else None, error.message)


class EndForm(forms.Form):
    reason = forms.ChoiceField(label=_("Why does the match end?"), widget=forms.RadioSelect,
                               choices=[("time", _("The agreed time is up")), ("agreed", _("The players agreed to stop"))])
    version = forms.IntegerField(widget=forms.HiddenInput)

    def __init__(self, *args, reasons=None, **kwargs):
        """``reasons``: the choices of the ruleset (default: Chaotentrumpf's, Art. 17c)."""
        super().__init__(*args, **kwargs)
        if reasons is not None:
            self.fields["reason"].choices = reasons
