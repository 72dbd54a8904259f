"""A Partie whose Spiele are partly recorded as points only (the rules accept them, see
tests/unit/test_points_only.py) is shown everywhere a Partie is: its page, its sheet on the
page and as PDF, its history, its files, the season's table and the archive. The engine's
totals are the same as the Partie entered in full."""

import json
import re
import shutil
import subprocess

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


ROW = re.compile(r"^\s{0,4}(\d{1,3})\s+(.*)$")
WORDS = {"de": "nur Punkte", "en": "points only"}


def pdf_text(pdf: bytes) -> str:
    """The PDF's text as poppler lays it out (every row of the list on a line of its own)."""
    return subprocess.run(["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True, check=True).stdout.decode()


def game_lines(text: str) -> dict[int, str]:
    """The printed list's game rows by number: a line with the number first and scores (+/−) on it."""
    rows = {}
    for line in text.splitlines():
        found = ROW.match(line)
        if found and len(re.findall(r"[+−]\d", line)) >= 2:
            rows.setdefault(int(found[1]), found[2])
    return rows


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs pdftotext (poppler-utils)")
@pytest.mark.parametrize("language", ["de", "en"])
@pytest.mark.parametrize("ruleset", sorted(DOCUMENTS))
def test_a_points_only_spiel_reads_points_only_on_the_printed_sheet(ruleset, language, club, secretary,
                                                                   secretary_client):
    typed = as_points(DOCUMENTS[ruleset](), every=2)
    for name in typed["players"]:
        Member.objects.get_or_create(club=club, name=name)
    match = import_document(typed | {"club": club.name, "date": "2026-11-20"}, club=club, user=secretary).match
    games = evaluate(typed).match.games
    points_only = {g.number for g in games if g.as_json().get("points_only")}
    assert points_only and len(points_only) < len(games)
    response = secretary_client.get(url(match, "pdf"), HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    rows = game_lines(pdf_text(response.content))
    assert set(rows) == {g.number for g in games}
    for number, line in rows.items():  # the row itself says so, not only a legend elsewhere
        assert (WORDS[language] in line) == (number in points_only), (number, line)
