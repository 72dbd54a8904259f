from html import escape

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe

from protocol.rules.vocabulary import number, signed

register = template.Library()


# The numbers of the rules vocabulary, as the pages write them: signed 71 -> "+71", -44 ->
# "−44" (a real minus sign); minus (a total) 71 -> "71", -44 -> "−44".
register.filter("signed", signed)
register.filter("minus", number)


@register.filter
def get_item(mapping, key):
    return mapping.get(key) if hasattr(mapping, "get") else None


@register.filter
def get_index(sequence, index):
    try:
        return sequence[index]
    except (IndexError, TypeError):
        return ""


@register.simple_tag
def slot(name, errors, oob=False):
    """A field's slot for the engine's messages: its errors as a list, or empty (the live
    preview sends every slot again, out of band where ``oob``: htmx swaps each at its field).
    Written here rather than as an included template, and without format_html: a preview sends
    one per field (76 for seven players), most of them empty."""
    listed = ""
    if errors:
        listed = '<ul class="errorlist">' + "".join(f"<li>{conditional_escape(e)}</li>" for e in errors) + "</ul>"
    swap = ' hx-swap-oob="true"' if oob else ""
    return mark_safe(f'<div id="err-{escape(str(name))}" class="field-errors"{swap}>{listed}</div>')  # noqa: S308 - escaped


@register.simple_tag
def slots(pairs, oob=False):
    """Every (name, errors) slot of ``pairs`` (:func:`slot`) in one pass: the live preview
    sends them all at each check, and a template loop cost more than writing them."""
    return mark_safe("".join(slot(name, errors, oob) for name, errors in pairs))  # noqa: S308 - each escaped
