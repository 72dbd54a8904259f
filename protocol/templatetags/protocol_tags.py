from django import template

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
