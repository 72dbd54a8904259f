"""``{% rules_pack_url %}``: the URL of the current rules pack (protocol/offline), for the
``<meta name="trumpfbuch-rules">`` the engine in the browser reads. ``{% offline_bar kind %}``:
the offline evening's bar, panels and scripts of a page of ``kind``
(protocol/includes/offline_bar.html). ``{% offline_block offline %}``: a page's offline evening,
its data and its bar (protocol/includes/offline.html; the match page's Jinja2 template calls it too)."""

from django import template
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.autoreload import file_changed
from django.utils.html import json_script
from django.utils.safestring import mark_safe

from protocol.offline import pack

register = template.Library()

BAR_TEMPLATE = "protocol/includes/offline_bar.html"
# The bar's words and scripts depend on nothing but the language and the page's kind: the match
# page and every entry page carry them, about forty translations, written once per process.
_BARS: dict[tuple[str, str], str] = {}
file_changed.connect(lambda **kwargs: _BARS.clear(), weak=False)  # a template edited under runserver
_PACK_ADDRESSES: dict[str, str] = {}  # every page's head names the rules pack


@register.simple_tag
def rules_pack_url() -> str:
    name = pack.current().filename
    if name not in _PACK_ADDRESSES:
        _PACK_ADDRESSES[name] = reverse("rules_pack", kwargs={"name": name})
    return _PACK_ADDRESSES[name]


@register.simple_tag
def offline_bar(kind: str) -> str:
    key = (translation.get_language(), kind)
    if key not in _BARS:
        _BARS[key] = render_to_string(BAR_TEMPLATE, {"kind": kind})
    return mark_safe(_BARS[key])


@register.simple_tag
def offline_block(offline: dict | None) -> str:
    """The data the page's offline evening starts from (static/js/offline/entry.js reads
    ``#offline-data``) and its bar, for a page with an offline evening (``offline``:
    protocol.views.sync.offline_page); nothing for another."""
    if not offline:
        return ""
    return mark_safe(f"{json_script(offline, 'offline-data')}\n{offline_bar(offline['kind'])}")  # noqa: S308 - both escaped
