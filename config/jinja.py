"""The environment of the site's Jinja2 templates (``<app>/jinja2/``; settings.TEMPLATES).

The match page answers every save of a Spiel, and its parts (protocol.sheet.page_parts) are
written for every new state of a Partie: in the template language, page and parts took about a
quarter of a save. Here they are Jinja2 templates, as the Spiel form's inputs are
(protocol.forms.game), with what the site's templates give them: Django's translations (the
same messages, marked ``_("...")`` so that makemessages finds them: a placeholder is filled by
``|format(name=...)``), Django's dates in the active language and time zone (``|date``), the
static files' addresses (``static``), the site's frame (league/jinja2/frame.html: the functions
of league/templatetags/frame_tags.py, given the template's context), the offline evening's
block and a template of the template language for what only some pages show
(``django_template``). As in the template language, a name the context lacks writes nothing.
"""

from __future__ import annotations

from django.template.loader import render_to_string
from django.templatetags.static import static
from django.utils import formats, timezone, translation
from jinja2 import ChainableUndefined, Environment, pass_context


def date(value, format_name: str = "DATE_FORMAT") -> str:
    """Django's ``date`` filter: a moment in the current time zone, in the active language's
    format ``format_name`` ("DATE_FORMAT", "SHORT_DATETIME_FORMAT"); nothing for nothing."""
    if value in (None, ""):
        return ""
    return formats.date_format(timezone.template_localtime(value), format_name)


@pass_context
def django_template(context, name: str, **values) -> str:
    """The template ``name`` of the template language with this template's context (and
    ``values``), as its ``{% include %}`` would write it."""
    return render_to_string(name, context.get_all() | values, request=context.get("request"))


def _with_context(tag):
    """A frame tag (it reads ``request``, ``user``, ``csrf_token``, ``messages``, ``address``
    from a context) as a function of the template's context."""
    return pass_context(lambda context: tag(context))


def environment(**options) -> Environment:
    from league.templatetags import frame_tags  # noqa: PLC0415 - the apps are loaded by now
    from protocol.templatetags import offline_tags  # noqa: PLC0415

    options["undefined"] = ChainableUndefined
    env = Environment(extensions=["jinja2.ext.i18n"], **options)
    env.install_gettext_callables(translation.gettext, translation.ngettext, newstyle=False)
    env.filters["date"] = date
    env.globals.update(
        static=static, current_language=translation.get_language, django_template=django_template,
        rules_pack_url=offline_tags.rules_pack_url, offline_block=offline_tags.offline_block,
        **{name: _with_context(getattr(frame_tags, name))
           for name in ("frame_head", "frame_header", "frame_messages", "frame_footer")})
    return env
