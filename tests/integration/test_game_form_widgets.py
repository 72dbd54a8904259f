"""The Spiel form of each game writes its inputs with Django's Jinja2 form renderer
(protocol/forms/game.py: a third of the form page's time less): the page reads exactly as it
did with Django's template language, blank, as the Protokollant opens it, and refused, with
each error at its field."""

import re

import pytest
from django.forms.renderers import DjangoTemplates

from protocol import games, reading
from protocol.forms.game import WIDGETS
from tests.integration.each_game import GAMES, new_match

pytestmark = pytest.mark.django_db

# What a Protokollant may type wrong in each game: a reason with a control character and
# markup, cards that are markup, a version that is no number; shown again, escaped.
WRONG = {"version": "zwei", "annul_reason": 'a\x00b <b>"&', "annulled": "on",
         "selection_cards": '"><script>alert(1)</script>'}


def written(form) -> str:
    """Every field as the page writes it (input, label, errors) and the form's own errors,
    with runs of whitespace (which a browser shows as one space) made one and the one-time
    id of the save (each form its own) left out."""
    html = "".join(f"{form[name].label_tag()}{form[name]}{form[name].errors}" for name in form.fields)
    html += str(form.non_field_errors())
    html = re.sub(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "<submission>", html)
    # a quotation mark in a value: Jinja2 escapes it as &#34;, Django as &quot; (the same character)
    html = html.replace("&#34;", "&quot;").replace("&#39;", "&#x27;")
    return re.sub(r">\s+<", "><", re.sub(r"\s+", " ", html))


@pytest.mark.parametrize("ruleset", sorted(GAMES))
@pytest.mark.parametrize("typed", [None, WRONG], ids=["blank", "refused"])
def test_the_spiel_form_reads_as_djangos_template_language_writes_it(club, secretary, ruleset, typed):
    match = new_match(club, secretary, ruleset, GAMES[ruleset]["settings"])
    computed = reading.page(match).computed
    plugin = games.plugin_of(match)
    fast = plugin.form(computed, typed, initial={"version": match.version} | plugin.new_initial(computed))
    assert fast.renderer is WIDGETS
    plain = plugin.form(computed, typed, initial={"version": match.version} | plugin.new_initial(computed))
    plain.renderer = DjangoTemplates()
    if typed:
        assert not fast.is_valid() and not plain.is_valid()
        assert fast.errors == plain.errors and "version" in fast.errors
    assert written(fast) == written(plain)
    assert len(fast.fields) > 5 and 'name="version"' in written(fast)
    assert "<script>" not in written(fast) and "<b>" not in written(fast)
