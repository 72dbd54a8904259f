"""A Partie whose Spiele are partly recorded as points only (the rules accept them, see
tests/unit/test_points_only.py) is shown everywhere a Partie is: its page, its sheet on the
page and as PDF, its history, its files, the season's table and the archive. The engine's
totals are the same as the Partie entered in full."""

import json

import pytest
from django.urls import reverse

from league.models import Member
from protocol.documents.transfer import import_document
from protocol.rules import evaluate
from tests.integration.pages import url
from tests.offline_documents import chaotentrumpf_documents, doppelkopf_documents, tarot_documents
from tests.unit.points_only_documents import as_points


def first(documents):
    return next(document for _name, document in documents if evaluate(document).ok)


DOCUMENTS = {"chaotentrumpf": lambda: first(chaotentrumpf_documents()),
             "doppelkopf": lambda: first(doppelkopf_documents()),
             "tarot": lambda: first(tarot_documents())}


@pytest.mark.parametrize("ruleset", sorted(DOCUMENTS))
def test_a_partie_with_spiele_as_points_only_shows_on_every_page(ruleset, club, secretary, secretary_client):
    full = DOCUMENTS[ruleset]()
    typed = as_points(full, keep_facts=True, every=2)
    assert typed != full and any("scores" in e.get("game", {}) for e in typed["events"])
    for name in typed["players"]:
        Member.objects.get_or_create(club=club, name=name)
    match = import_document(typed | {"club": club.name, "date": "2026-11-20"}, club=club, user=secretary).match
    assert evaluate(typed).match.totals == evaluate(full).match.totals
    for page in (url(match), url(match, "sheet"), url(match, "history"), url(match, "pdf"), url(match, "export"),
                 reverse("export_match", kwargs={"slug": club.slug, "pk": match.pk}),
                 reverse("standings", kwargs={"slug": club.slug}), reverse("archive", kwargs={"slug": club.slug})):
        response = secretary_client.get(page)
        assert response.status_code == 200, page
    page = secretary_client.get(url(match)).content.decode()
    assert "nur Punkte" in page and "nicht gespielt" not in page
    exported = json.loads(secretary_client.get(url(match, "export")).content)
    assert [e for e in exported["events"] if "game" in e] == [e for e in typed["events"] if "game" in e]
