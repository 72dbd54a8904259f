"""The sheet and "Games in detail" written from what this process kept of a Partie's entries
(protocol.sheet.kept_rows) are the very bytes written anew, in every game and language: as
entries are appended (only the new one is written), when one in the middle is annulled
(written again from there) and when the seating changes (written anew)."""

from types import SimpleNamespace

import pytest
from django.utils import translation

from league.registry.recent import Recent
from protocol import games
from protocol.rules import evaluate
from protocol.sheet import kept_rows
from protocol.sheet.fragments import Fragments
from tests.unit.test_engine_fork import doppelkopf_document, stechen_document, tarot_document

MATCH = SimpleNamespace(pk=7, club=SimpleNamespace(slug="ctv"))


def page(doc, *, can_correct=True):
    """The sheet and "Games in detail" of ``doc`` as a match page writes them, and the entries
    whose rows had to be written for it."""
    plugin = games.PLUGINS[doc["ruleset"]]
    evaluation = evaluate(doc)
    assert not evaluation.errors, evaluation.errors
    written = []
    game_row = plugin.game_row
    plugin.game_row = lambda computed, game: written.append(game.event) or game_row(computed, game)
    try:
        fragments = Fragments(MATCH, evaluation.match, plugin, can_correct=can_correct, keep=True)
        return fragments.sheet + fragments.details, written
    finally:
        del plugin.game_row  # the class's own again


def anew(doc, **kwargs):
    """The same page written with nothing kept (and keeping nothing)."""
    kept = kept_rows._KEPT
    kept_rows._KEPT = Recent(kept_rows.SIZE)
    try:
        return page(doc, **kwargs)[0]
    finally:
        kept_rows._KEPT = kept


def games_at(doc):
    return [n for n, event in enumerate(doc["events"]) if "game" in event]


@pytest.fixture(autouse=True)
def _nothing_kept(monkeypatch):
    monkeypatch.setattr(kept_rows, "_KEPT", Recent(kept_rows.SIZE))


@pytest.mark.parametrize("language", ["de", "en"])
@pytest.mark.parametrize("document", [stechen_document, doppelkopf_document, tarot_document],
                         ids=["chaotentrumpf", "doppelkopf", "tarot"])
def test_a_page_from_the_kept_entries_is_the_page_written_anew(document, language):
    full = document()
    with translation.override(language):
        for n in range(1, len(full["events"]) + 1):  # saved one after the other
            doc = full | {"events": full["events"][:n]}
            html, written = page(doc)
            assert html == anew(doc)
            new = n - 1
            assert written == ([new] if new in games_at(full) else [])  # the new entry's rows only
        middle = games_at(full)[1]
        annulled = [dict(e) for e in full["events"]]
        annulled[middle] = {"game": annulled[middle]["game"] | {"annulled": True, "annul_reason": "Karten vergeben"}}
        doc = full | {"events": annulled}
        html, written = page(doc)
        assert html == anew(doc) and "Karten vergeben" in html
        assert written == [n for n in games_at(full) if n >= middle]  # from the corrected one on
        member_view, _ = page(doc, can_correct=False)  # kept apart from the buttons of those who may correct
        assert member_view == anew(doc, can_correct=False) and member_view != html


def test_the_same_entries_at_another_seating_are_written_anew():
    doc = stechen_document()
    first, _ = page(doc)
    reseated = doc | {"players": doc["players"][::-1]}  # the same entries, the columns the other way round
    html, written = page(reseated)
    assert html == anew(reseated) and html != first
    assert written == games_at(reseated)
