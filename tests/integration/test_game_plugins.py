"""Each game's site plug-in (protocol.games): every ruleset has one, and the pages of a match
show what its own game has (its end reasons, its Losentscheid, its settings), never another's."""

import pytest
from django.template.loader import get_template
from django.urls import reverse

from protocol import games
from protocol.rules import RULESETS
from tests.integration.pages import url
from tests.integration.tarot import tarot_match


@pytest.mark.parametrize("key", sorted(RULESETS))
def test_every_ruleset_has_a_site_plugin_whose_templates_exist(key):
    game = games.plugin(key)
    assert game.ruleset is RULESETS[key]
    for name in (game.fields_template, game.preview_template,
                 game.settings_template, game.blank_sheet_template):
        if name:
            get_template(name)  # raises TemplateDoesNotExist
    assert callable(game.sheet.render) and callable(game.sheet.render_blank)
    assert [value for value, _label in game.end_choices] == list(game.ruleset.end_reasons)


def test_the_end_of_a_tarot_match_offers_tarots_own_reasons(scorekeeper_client, club, secretary):
    match = tarot_match(club, secretary)
    page = scorekeeper_client.get(url(match, "end")).content.decode()
    assert 'value="games"' in page and "Art. 17c" not in page


def test_the_end_of_a_partie_offers_art_17c(scorekeeper_client, running_match):
    page = scorekeeper_client.get(url(running_match, "end")).content.decode()
    assert "Art. 17c" in page and 'value="games"' not in page


def test_a_tarot_match_has_no_losentscheid(scorekeeper_client, club, secretary):
    match = tarot_match(club, secretary)
    assert reverse("protocol:lot_new", kwargs={"slug": club.slug, "pk": match.pk}) not in \
        scorekeeper_client.get(url(match)).content.decode()
    assert scorekeeper_client.get(url(match, "lot_new")).status_code == 404


def test_a_partie_offers_the_losentscheid(scorekeeper_client, running_match):
    assert url(running_match, "lot_new") in scorekeeper_client.get(url(running_match)).content.decode()
    assert scorekeeper_client.get(url(running_match, "lot_new")).status_code == 200


def test_the_new_match_page_has_the_settings_and_seating_hint_of_every_game(secretary_client, club):
    page = secretary_client.get(reverse("protocol:new", kwargs={"slug": club.slug})).content.decode()
    for key, game in games.PLUGINS.items():
        assert f'data-ruleset="{key}"' in page
        for name in game.settings_form.base_fields if game.has_settings else ():
            assert f'name="{name}"' in page
