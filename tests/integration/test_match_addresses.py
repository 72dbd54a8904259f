"""The addresses of a Partie's pages, kept per process (league.registry.addresses.of_match): the
very addresses Django's reverse gives, for every page of a Partie, under a script's prefix too."""

import pytest
from django.urls import reverse, set_script_prefix

from league.registry.addresses import MatchAddresses, of_match
from protocol.sheet.markup import EntryLinks

ENTRY_PAGES = ["protocol:entry_correct", "protocol:game_annul", "protocol:entry_remove"]


@pytest.fixture(params=["/", "/trumpfbuch/"])
def prefix(request):
    set_script_prefix(request.param)
    yield request.param
    set_script_prefix("/")


@pytest.mark.parametrize("slug, pk", [("ctv", 7), ("skat-und-trumpf-1926", 123456)])
def test_each_page_of_a_partie_has_the_address_reverse_gives(prefix, slug, pk):
    addresses = MatchAddresses(slug, pk)
    for short, name in MatchAddresses.NAMES.items():
        assert addresses[short] == reverse(name, kwargs={"slug": slug, "pk": pk}), name
        assert addresses[short].startswith(prefix)
    for name in ENTRY_PAGES:
        pattern = of_match(name, slug, pk, position=True)
        for position in (0, 3, 61):
            assert pattern.format(position) == reverse(name, kwargs={"slug": slug, "pk": pk, "position": position})


def test_a_page_that_is_no_page_of_a_partie_is_not_written():
    with pytest.raises(KeyError):
        MatchAddresses("ctv", 7)["standings"]


def test_an_entrys_buttons_lead_from_the_match_page_to_its_pages():
    links = EntryLinks("ctv", 7)
    assert links.buttons(3) == ('<a href="eintrag/3/korrigieren/">Korrigieren</a>'
                                '<a href="eintrag/3/annullieren/">Spiel annullieren</a>'
                                '<a href="eintrag/3/entfernen/">Entfernen</a>')
