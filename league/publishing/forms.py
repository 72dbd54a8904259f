"""The secretary's publishing settings: publish or not, and the websites that may embed."""

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from league.models import Club

from .origins import MAX_ORIGINS, BadOrigin, TooManyOrigins, parse_origins


class PublishingForm(forms.ModelForm):
    class Meta:
        model = Club
        fields = ["published", "published_ratings", "embed_origins"]
        labels = {"published": gettext_lazy("Publish the standings and tournament results"),
                  "published_ratings": gettext_lazy("Publish the rating list too"),
                  "embed_origins": gettext_lazy("Websites that may embed the results")}
        help_texts = {
            "published": gettext_lazy(
                "Anyone may then see each season's table and tournament results at a fixed address, "
                "also as CSV and JSON. Match pages, penalties and members' details stay private."),
            "published_ratings": gettext_lazy(
                "Each season's public page then shows the club's rating list of its game (names and "
                "figures; guests only if the club shows their ratings)."),
            "embed_origins": gettext_lazy(
                "One address a line, e.g. https://www.my-club.example (https only, no path). Only "
                "these websites may show the results in an iframe."),
        }
        widgets = {"embed_origins": forms.Textarea(attrs={"rows": 3, "autocapitalize": "off",
                                                          "spellcheck": "false", "inputmode": "url"})}

    def clean_embed_origins(self):
        try:
            return "\n".join(parse_origins(self.cleaned_data["embed_origins"]))
        except BadOrigin as bad:
            raise forms.ValidationError(
                _("Line %(line)s: “%(value)s” is not an address of the form https://host[:port] "
                  "(https only, without a path).") % {"line": bad.line, "value": bad.value[:80]}) from None
        except TooManyOrigins:
            raise forms.ValidationError(_("At most %(count)s websites may embed the results.")
                                        % {"count": MAX_ORIGINS}) from None
