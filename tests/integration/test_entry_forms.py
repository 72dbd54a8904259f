"""The entry forms of every game: each slot the live preview fills is on the page, and a
rule error marks the very inputs the engine named."""

import re

import pytest
from django.urls import reverse

from tests.integration.test_history_sentences import new_match
from tests.integration.test_tarot_pages import tarot_match, tarot_post


def _slots_of(html):
    return set(re.findall(r'id="(err-[^"]+)" class="field-errors" hx-swap-oob="true"', html))


def _ids_of(html):
    return set(re.findall(r'\bid="([^"]+)"', html))


@pytest.mark.parametrize("players", [4, 5])
def test_every_slot_of_the_tarot_preview_is_on_the_page(players, club, secretary, scorekeeper_client):
    match = tarot_match(club, secretary, ["Anna", "Bernd", "Carla", "Dieter", "Emil"][:players])
    kwargs = {"slug": club.slug, "pk": match.pk}
    page = scorekeeper_client.get(reverse("protocol:game_new", kwargs=kwargs)).content.decode()
    preview = scorekeeper_client.post(reverse("protocol:game_preview", kwargs=kwargs), tarot_post(match)).content.decode()
    assert _slots_of(preview) and _slots_of(preview) <= _ids_of(page)  # else htmx:oobErrorNoTarget
    assert ("err-partner" in _slots_of(preview)) == (players == 5)


@pytest.mark.parametrize("ruleset, game_settings", [("chaotentrumpf", {}), ("doppelkopf", {"rules": "tcg"})])
def test_every_slot_of_the_preview_is_on_the_page(ruleset, game_settings, club, secretary, scorekeeper_client):
    match = new_match(club, secretary, ruleset, game_settings)
    kwargs = {"slug": club.slug, "pk": match.pk}
    page = scorekeeper_client.get(reverse("protocol:game_new", kwargs=kwargs)).content.decode()
    preview = scorekeeper_client.post(reverse("protocol:game_preview", kwargs=kwargs),
                                      {"version": match.version}).content.decode()
    assert _slots_of(preview) and _slots_of(preview) <= _ids_of(page)
