"""The entry forms of every game: each slot the live preview fills is on the page, a rule
error marks the very inputs the engine named, the dealer of game 1 is pre-filled and the
entries are named as the sheet numbers them (a Strafe is no Spiel)."""

import html
import re

import pytest
from django.urls import reverse

from protocol import recording
from tests.integration.each_game import GAMES, new_match
from tests.integration.tarot import tarot_match, tarot_post
from tests.unit.builders import quiet


def _slots_of(html):
    return set(re.findall(r'id="(err-[^"]+)" class="field-errors" hx-swap-oob="true"', html))


def _ids_of(html):
    return set(re.findall(r'\bid="([^"]+)"', html))


@pytest.mark.parametrize("players", [4, 5])
def test_every_slot_of_the_tarot_preview_is_on_the_page(players, club, secretary, scorekeeper_client):
    match = tarot_match(club, secretary, ["Anna", "Bernd", "Carla", "Dieter", "Emil"][:players])
    kwargs = {"slug": club.slug, "pk": match.pk}
    page = scorekeeper_client.get(reverse("protocol:game_new", kwargs=kwargs)).content.decode()
    preview = scorekeeper_client.post(reverse("protocol:game_preview", kwargs=kwargs),
                                      tarot_post(match)).content.decode()
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


def _marked(html):
    """The names of the inputs the page marks as wrong."""
    return set(re.findall(r'<(?:input|select)[^>]*?name="([^"]+)"[^>]*?aria-invalid="true"', html)
               + re.findall(r'<(?:input|select)[^>]*?aria-invalid="true"[^>]*?name="([^"]+)"', html))


def test_a_refused_spiel_marks_the_inputs_the_engine_named(scorekeeper_client, running_match):
    from tests.integration.pages import game_post
    from tests.unit.builders import quiet
    body = quiet()["game"]
    body["results"]["Dieter"]["tricks"] = 0  # Dieter has no trick but 20 Augen and a trump (Art. 13a, 16a)
    page = scorekeeper_client.post(reverse("protocol:game_new", kwargs={"slug": running_match.club.slug,
                                                                        "pk": running_match.pk}),
                                   game_post(running_match, body)).content.decode()
    assert {"p3_points", "p3_trumps"} <= _marked(page)
    assert "p0_points" not in _marked(page)
    assert "Dieter hat keinen Stich und kann keine Augen haben (Art. 13a)" in page


def _slot(page, name):
    found = re.search(rf'<div id="err-{name}" class="field-errors">(.*?)</div>', page, flags=re.S)
    return html.unescape(found.group(1)) if found else ""


def test_a_wrong_sum_of_stiche_marks_every_players_stiche(scorekeeper_client, running_match):
    """"Die Stiche ergeben zusammen 11" (Art. 7, 10) names no player: the page that says "see
    the marked fields" marks the whole column, and the message sits at it."""
    from tests.integration.pages import game_post
    body = quiet()["game"]
    body["results"]["Carla"]["tricks"] = 3  # 3 + 3 + 3 + 2 = 11 of a hand of 10
    body["results"]["Carla"]["points"] = 30
    page = scorekeeper_client.post(reverse("protocol:game_new", kwargs={"slug": running_match.club.slug,
                                                                        "pk": running_match.pk}),
                                   game_post(running_match, body)).content.decode()
    assert "Die Stiche ergeben zusammen 11" in _slot(page, "tricks")
    assert {"p0_tricks", "p1_tricks", "p2_tricks", "p3_tricks"} <= _marked(page)
    assert not {"p0_points", "p0_trumps"} & _marked(page)  # only the column the sum names
    described = re.search(r'<input[^>]*name="p3_tricks"[^>]*>', page).group(0)
    assert "err-tricks" in described  # each input points to the message (aria-describedby)


def test_the_live_check_sends_a_wrong_sum_to_its_column(scorekeeper_client, running_match):
    from tests.integration.pages import game_post
    body = quiet()["game"]
    body["results"]["Carla"]["tricks"] = 3
    preview = scorekeeper_client.post(reverse("protocol:game_preview", kwargs={"slug": running_match.club.slug,
                                                                               "pk": running_match.pk}),
                                      game_post(running_match, body)).content.decode()
    slot = re.search(r'<div id="err-tricks" class="field-errors" hx-swap-oob="true">(.*?)</div>', preview, re.S)
    assert slot and "Die Stiche ergeben zusammen 11" in html.unescape(slot.group(1))


def test_too_many_foxes_mark_the_special_points_of_doppelkopf(club, secretary, scorekeeper_client):
    match = new_match(club, secretary, "doppelkopf", {"rules": "tcg"})
    post = {"type": "normal", "dealer": "Anna", "re": ["Anna", "Bernd"], "re_points": "151",
            "re_fuchs": "2", "kontra_fuchs": "1", "version": match.version}
    page = scorekeeper_client.post(reverse("protocol:game_new", kwargs={"slug": club.slug, "pk": match.pk}),
                                   post).content.decode()
    assert "Es gibt nur zwei Füchse" in _slot(page, "extras")
    assert {"re_fuchs", "kontra_fuchs", "re_karl", "kontra_doppelkopf"} <= _marked(page)


def test_poignees_beyond_the_trumps_mark_every_poignee(club, secretary, scorekeeper_client):
    match = tarot_match(club, secretary)
    page = scorekeeper_client.post(reverse("protocol:game_new", kwargs={"slug": club.slug, "pk": match.pk}),
                                   tarot_post(match, poignees={"Anna": "triple", "Bernd": "triple",
                                                               "Carla": "triple"})).content.decode()
    assert "Diese Poignées zeigen zusammen" in _slot(page, "poignees")
    assert {"p0_poignee", "p1_poignee", "p2_poignee", "p3_poignee"} <= _marked(page)


def test_a_refused_tarot_deal_marks_the_field_the_engine_named(scorekeeper_client, club, secretary):
    match = tarot_match(club, secretary)
    page = scorekeeper_client.post(reverse("protocol:game_new", kwargs={"slug": club.slug, "pk": match.pk}),
                                   tarot_post(match, oudlers="0", petit_au_bout="attack")).content.decode()
    assert "petit_au_bout" in _marked(page)


@pytest.mark.parametrize("ruleset, game_settings, first", [
    ("chaotentrumpf", {}, "trump"), ("doppelkopf", {"rules": "tcg"}, "re"), ("tarot", {}, "taker")])
def test_a_new_entry_form_focuses_the_first_field_not_pre_filled(ruleset, game_settings, first, club, secretary,
                                                                 scorekeeper_client):
    match = new_match(club, secretary, ruleset, game_settings)
    new_game = reverse("protocol:game_new", kwargs={"slug": club.slug, "pk": match.pk})
    page = scorekeeper_client.get(new_game).content.decode()
    focused = re.findall(r'<(?:input|select)[^>]*\bautofocus\b[^>]*>', page)
    assert focused and all(f'name="{first}"' in tag for tag in focused)


def test_a_strafe_is_no_spiel_on_the_correction_and_removal_pages(scorekeeper_client, running_match, secretary):
    for kind, body in [("game", quiet()["game"]),
                       ("penalty", {"player": "Carla", "points": 200, "reason": "Karten gezeigt",
                                    "decided_by": ["Anna"]}),
                       ("game", quiet()["game"])]:
        running_match.refresh_from_db()
        recording.add_event(running_match, kind, body, user=secretary)

    def page(name, position):
        return html.unescape(scorekeeper_client.get(reverse(f"protocol:{name}", kwargs={
            "slug": running_match.club.slug, "pk": running_match.pk, "position": position})).content.decode())

    assert "Spiel 2 korrigieren" in page("entry_correct", 2) and "Eintrag 3" not in page("entry_correct", 2)
    assert "Strafe nach Spiel 1 korrigieren" in page("entry_correct", 1)
    assert "Strafe nach Spiel 1 entfernen" in page("entry_remove", 1)


@pytest.mark.parametrize("ruleset", ["doppelkopf", "tarot"])
def test_the_dealer_of_game_1_is_pre_filled_and_then_moves_on_clockwise(ruleset, club, secretary, scorekeeper_client):
    g = GAMES[ruleset]
    match = new_match(club, secretary, ruleset, g["settings"])
    new_game = reverse("protocol:game_new", kwargs={"slug": club.slug, "pk": match.pk})
    assert '<option value="Anna" selected>Anna</option>' in scorekeeper_client.get(new_game).content.decode()
    recording.add_event(match, "game", g["game"](), user=secretary)
    assert '<option value="Bernd" selected>Bernd</option>' in scorekeeper_client.get(new_game).content.decode()


def _inversion_selects(page):
    return re.findall(r'<select name="inv\d_\w+".*?</select>', page, flags=re.S)


def test_the_kept_blank_inversion_panel_is_what_the_template_writes_in_either_language():
    """A new Spiel's blank inversion panel is written once per players and language and kept
    (GameForm.inversions_panel): it is what the template writes for that form, in German and
    in English, for four players and for five."""
    from django.template.loader import render_to_string
    from django.utils import translation

    from protocol.games.chaotentrumpf import forms

    forms._BLANK_PANELS.clear()
    for language, word in (("de", "Wer invertiert"), ("en", "Who inverts")):
        for players in (["Anna", "Bernd", "Carla", "Dieter"], ["Anna", "Bernd", "Carla", "Dieter", "Emil"]):
            with translation.override(language):
                written = forms.GameForm(None, players=players).inversions_panel()
                kept = forms.GameForm(None, players=players).inversions_panel()
                fresh = render_to_string(forms.INVERSIONS_TEMPLATE, {"form": forms.GameForm(None, players=players)})
            assert kept == written == fresh
            assert word in kept and f'<option value="{players[-1]}">' in kept and " selected>" not in kept.replace('value="" selected>', "")
    assert len(forms._BLANK_PANELS) == 4


def test_a_refused_spiel_keeps_its_inversion_and_the_next_form_is_empty(scorekeeper_client, running_match):
    """The kept lists never carry one form's choice into another's."""
    from tests.integration.pages import game_post
    body = quiet()["game"]
    body["results"]["Dieter"]["tricks"] = 0  # refused (Art. 13a)
    url = reverse("protocol:game_new", kwargs={"slug": running_match.club.slug, "pk": running_match.pk})
    refused = scorekeeper_client.post(url, game_post(running_match, body, inv0_player="Bernd", inv0_declared="ultra",
                                                     inv0_target="rank:A")).content.decode()
    first = _inversion_selects(refused)[:3]
    assert '<option value="Bernd" selected>' in first[0]
    assert '<option value="ultra" selected>' in first[1] and '<option value="rank:A" selected>' in first[2]
    fresh = scorekeeper_client.get(url).content.decode()
    assert len(_inversion_selects(fresh)) == 30
    assert not any(" selected>" in select and 'value="" selected' not in select for select in _inversion_selects(fresh))
