"""``{% rules_pack_url %}``: the URL of the current rules pack (protocol/offline), for the
``<meta name="trumpfbuch-rules">`` the engine in the browser reads."""

from django import template
from django.urls import reverse

from protocol.offline import pack

register = template.Library()


@register.simple_tag
def rules_pack_url() -> str:
    return reverse("rules_pack", kwargs={"name": pack.current().filename})
