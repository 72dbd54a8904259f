"""Strafe, Verwarnung, Disqualifikation, the end by time, annulments and corrections."""

from __future__ import annotations

import uuid

from django import forms
from django.utils.translation import gettext_lazy as _

KIND_CHOICES = [("penalty", _("Penalty (100–1000 points, SV 3)")), ("warning", _("Warning (SV 2)")),
                ("disqualification", _("Disqualification (SV 3)"))]


class ReasonForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), max_length=500, widget=forms.Textarea(attrs={"rows": 2}))
    version = forms.IntegerField(widget=forms.HiddenInput)


class SanctionForm(forms.Form):
    kind = forms.ChoiceField(label=_("Kind"), choices=KIND_CHOICES, widget=forms.RadioSelect, initial="penalty")
    player = forms.ChoiceField(label=_("Player"))
    points = forms.IntegerField(label=_("Points deducted"), required=False, initial=100,
                                help_text=_("Only for a penalty: 100 to 1000 (SV 3)."))
    reason = forms.CharField(label=_("Reason"), max_length=500)
    decided_by = forms.MultipleChoiceField(label=_("Decided by"), required=False,
                                           widget=forms.CheckboxSelectMultiple,
                                           help_text=_("The other players; the accused does not vote (SV 3)."))
    version = forms.IntegerField(widget=forms.HiddenInput)
    submission = forms.UUIDField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args, players: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        choices = [(p, p) for p in players]
        self.fields["player"].choices = [("", "–")] + choices
        self.fields["decided_by"].choices = choices
        if not self.is_bound and not self.initial.get("submission"):
            self.initial["submission"] = uuid.uuid4()

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
