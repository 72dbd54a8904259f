from django import template

register = template.Library()


@register.filter
def signed(value):
    """71 -> "+71", -44 -> "−44" (a real minus sign), 0 -> "0"."""
    if value is None:
        return ""
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"−{-value}"
    return "0"


@register.filter
def minus(value):
    """A total as the sheet writes it: -44 -> "−44" (a real minus sign, like :func:`signed`), 71 -> "71"."""
    if value is None:
        return ""
    return f"−{-value}" if value < 0 else str(value)


@register.filter
def get_item(mapping, key):
    return mapping.get(key) if hasattr(mapping, "get") else None


@register.filter
def get_index(sequence, index):
    try:
        return sequence[index]
    except (IndexError, TypeError):
        return ""
