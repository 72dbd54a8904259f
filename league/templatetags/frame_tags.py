"""The frame of every page of the site (templates/base.html; the match page's Jinja2 frame,
league/jinja2/frame.html, calls the same functions): the head's links and scripts, the header
with its navigation, the messages and the footer with the language switch.

Every page a user waits for carries it, and written by the template language it cost about a
quarter of a Spiel form's time (some twenty tags: static files, reversed addresses,
translations, the white space the nav drops). What is the same for every page in one language
(the addresses, the static files, the words) is written once per process and language here; what
belongs to the request (the user, the table card, the CSRF token, the page's address) is filled
in per request, every value escaped.
"""

from __future__ import annotations

from html import escape

from django import template
from django.conf import settings
from django.template.defaultfilters import urlencode
from django.template.defaulttags import CsrfTokenNode
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.autoreload import file_changed
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe
from django.utils.text import capfirst
from django.utils.translation import gettext as _

register = template.Library()

_KEPT: dict[tuple[str, str], object] = {}
file_changed.connect(lambda **kwargs: _KEPT.clear(), weak=False)  # a file edited under runserver


def _kept(name: str, write):
    """What ``write()`` returns, once per process and active language."""
    key = (name, translation.get_language() or "")
    if key not in _KEPT:
        _KEPT[key] = write()
    return _KEPT[key]


def _head() -> str:
    return ("<meta name=\"htmx-config\" content='{\"includeIndicatorStyles\": false}'>"
            f'<link rel="stylesheet" href="{escape(static("css/site.css"))}">'
            f'<link rel="icon" href="{escape(static("img/favicon.svg"))}" type="image/svg+xml">'
            f'<link rel="manifest" href="{escape(reverse("manifest"))}">'
            '<meta name="theme-color" content="#0f3d2a">'
            f'<link rel="apple-touch-icon" href="{escape(static("img/icon-192.png"))}">'
            f'<script src="{escape(static("vendor/htmx/htmx.min.js"))}" defer></script>')


def _words() -> dict[str, str]:
    """The frame's addresses and words in the active language, escaped."""
    words = {"skip": _("Skip to content"), "site": _("Trumpfbuch"), "navigation": _("Main navigation"),
             "overview": _("Overview"), "admin": _("Administration"), "backups": _("Backups"),
             "profile": _("Profile"), "logout": _("Log out"), "login": _("Log in"), "language": _("Language:"),
             "about": _("Trumpfbuch – the score protocol and league table of card-game clubs.")}
    addresses = {name: reverse(name) for name in ("home", "admin:index", "backups", "profile", "logout", "login",
                                                  "set_language")}
    return {name: escape(str(value)) for name, value in words.items()} | {
        f"url:{name}": escape(value) for name, value in addresses.items()}


def _languages() -> list[tuple[str, str]]:
    """(code, its name in its own language) of each language the site speaks."""
    return [(code, escape(capfirst(translation.get_language_info(code)["name_local"]))) for code, _name in settings.LANGUAGES]


@register.simple_tag(takes_context=True)
def frame_head(context) -> str:
    """htmx's configuration (it must not inject its own <style>: the site will run under a
    strict CSP), the stylesheet, the icons, the manifest and htmx; the service worker's script
    for a signed-in user or a table card's holder (pages for the table offline)."""
    head = _kept("head", _head)
    request, user = context.get("request"), context.get("user")
    card = getattr(request, "table_card", None)
    signed_in = bool(user is not None and user.is_authenticated)
    if signed_in or card:
        who = str(user.pk) if signed_in else f"karte-{card.card.pk}"
        worker = _kept("worker", lambda: (escape(static("js/sw-register.js")), escape(reverse("service_worker"))))
        head += f'<script src="{worker[0]}" data-worker="{worker[1]}" data-user="{escape(who)}" defer></script>'
    return mark_safe(head)  # noqa: S308 - every value above is escaped


@register.simple_tag(takes_context=True)
def frame_header(context) -> str:
    """The skip link and the header: the site's name and the navigation (the overview, the table
    card's table, the administration for staff, the profile and logout, or the login)."""
    w = _kept("words", _words)
    request, user = context.get("request"), context.get("user")
    here = getattr(getattr(request, "resolver_match", None), "url_name", None)

    def current(name: str) -> str:
        return ' aria-current="page"' if here == name else ""

    items = [f'<li><a href="{w["url:home"]}"{current("home")}>{w["overview"]}</a></li>']
    card = getattr(request, "table_card", None)
    if card and not card.refusal:
        table = escape(_("Table %(n)s") % {"n": card.card.table})
        items.append(f'<li><a href="{escape(str(card.url))}">{table}</a></li>')
    if user is not None and user.is_authenticated:
        if user.is_staff:
            items.append(f'<li><a href="{w["url:admin:index"]}">{w["admin"]}</a></li>'
                         f'<li><a href="{w["url:backups"]}">{w["backups"]}</a></li>')
        items.append(f'<li><a href="{w["url:profile"]}"{current("profile")}>{w["profile"]}</a></li>'
                     f'<li><form method="post" action="{w["url:logout"]}" class="inline-form" data-logout>'
                     f'{_csrf_input(context)}<button type="submit" class="site-nav__button">{w["logout"]}</button>'
                     "</form></li>")
    else:
        path = _address(context, request, full=False)
        after = f"?next={escape(urlencode(path))}" if path != "/" else ""
        items.append(f'<li><a href="{w["url:login"]}{after}">{w["login"]}</a></li>')
    return mark_safe(  # noqa: S308 - every value is escaped
        f'<a class="skip-link" href="#main">{w["skip"]}</a>'
        '<header class="site-header"><div class="container site-header__inner">'
        f'<a class="brand" href="{w["url:home"]}"><span class="brand__mark" aria-hidden="true">♣</span>'
        f'<span class="brand__name">{w["site"]}</span></a>'
        f'<nav class="site-nav" aria-label="{w["navigation"]}"><ul>{"".join(items)}</ul></nav>'
        "</div></header>")


@register.simple_tag(takes_context=True)
def frame_messages(context) -> str:
    """What the request has to say (django.contrib.messages: "Das Spiel ist gespeichert."), in a
    live region around the list (role="status" on the <ul> itself would hide its items)."""
    messages = context.get("messages")
    if not messages:
        return ""
    items = "".join(f'<li class="message{f" message--{escape(m.tags)}" if m.tags else ""}">'
                    f"{conditional_escape(str(m))}</li>" for m in messages)
    return mark_safe(f'<div role="status"><ul class="messages">{items}</ul></div>')  # noqa: S308 - escaped


@register.simple_tag(takes_context=True)
def frame_footer(context) -> str:
    """What the site is, who is logged in, and the language switch (back to this page)."""
    w = _kept("words", _words)
    request, user = context.get("request"), context.get("user")
    who = ""
    if user is not None and user.is_authenticated:
        name = escape(user.get_full_name() or user.get_username())
        who = f'<p class="muted">{_("Logged in as %(name)s.") % {"name": name}}</p>'
    active, pressed = translation.get_language(), ' aria-pressed="true"'
    buttons = "".join(
        f'<button type="submit" name="language" value="{code}" class="btn btn-small" aria-describedby="language-label"'
        f'{pressed if code == active else ""} lang="{code}">{name}</button>'
        for code, name in _kept("languages", _languages))
    back = escape(_address(context, request, full=True))
    return mark_safe(  # noqa: S308 - every value is escaped
        f'<footer class="site-footer"><div class="container site-footer__inner"><p>{w["about"]}</p>{who}'
        f'<form action="{w["url:set_language"]}" method="post" class="language-switch">{_csrf_input(context)}'
        f'<input name="next" type="hidden" value="{back}"><span id="language-label">{w["language"]}</span>{buttons}'
        "</form></div></footer>")


def _address(context, request, *, full: bool) -> str:
    """The address of the page shown, to come back to (a login, the language switch): the
    page's own where it answers a form's POST (``address``: the match page a Spiel's save
    answers with is shown at its own address, not at the form's), else the request's."""
    if context.get("address"):
        return context["address"]
    if request is None:
        return "/" if not full else ""
    return request.get_full_path() if full else request.path


def _csrf_input(context) -> str:
    return CsrfTokenNode().render(context)  # Django's {% csrf_token %}
