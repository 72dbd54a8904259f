"""The blank sheet of every game (protocol:blank_pdf): the game chosen by ``spiel``, by default the
club's current season's, its seats checked against the game's, its own column heads on paper;
a game installed at run time is offered and printed as well."""

import datetime
import shutil
import subprocess

import pytest
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext

from league.models import Season
from protocol import games
from protocol.sheet import blank_seats

# What only each game's blank sheet heads its columns with (English source, printed in German).
HEADS = {
    "chaotentrumpf": ["Shuffler", "Trump"],
    "doppelkopf": ["Dealer", "Game type", "Re party"],
    "tarot": ["Dealer", "Taker", "Contract", "Oudlers"],
}
pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs pdftotext (poppler-utils)")


def blank_url(club, **params):
    from urllib.parse import urlencode
    return reverse("protocol:blank_pdf", kwargs={"slug": club.slug}) + ("?" + urlencode(params) if params else "")


def text_of(pdf: bytes) -> str:
    assert pdf.startswith(b"%PDF")
    return subprocess.run(["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True, check=True,
                          timeout=60).stdout.decode()


def de(text: str) -> str:
    with translation.override("de"):
        return gettext(text)


@pytest.fixture
def points_game():
    """The Zählspiel, the game kept under tests/ (tests/fourth_game/), installed for one test."""
    games.install("zaehlspiel", "tests.fourth_game")
    yield "zaehlspiel"
    games.uninstall("zaehlspiel")


@pytest.mark.parametrize("key", sorted(HEADS))
def test_each_games_blank_sheet_has_its_own_column_heads(member_client, club, member_user, key):
    least, most = blank_seats(key)
    response = member_client.get(blank_url(club, spiel=key, count=least))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    name = games.plugin(key).pdf_name
    assert response["Content-Disposition"] == f'inline; filename="{name}-leer-ctv-{least}-spieler.pdf"'
    text = text_of(response.content)
    assert "1. CTV gegen alles!" in text
    for head in HEADS[key]:
        assert de(head) in text, (key, head)


@pytest.mark.parametrize("key", sorted(HEADS))
def test_the_names_given_are_printed_and_the_seats_are_the_games(member_client, club, member_user, key):
    least, most = blank_seats(key)
    names = ["Anna", "Bernd", "Carla", "Dieter", "Erika", "Fritz"][:least]
    text = text_of(member_client.get(blank_url(club, spiel=key, players=", ".join(names))).content)
    assert all(name in text for name in names)
    too_many = member_client.get(blank_url(club, spiel=key, count=most + 1))
    assert too_many.status_code == 400
    assert f"{games.plugin(key).name} ist für {least} bis {most} Spieler" in too_many.content.decode()


def test_the_seats_are_the_rules_narrowed_to_what_the_sheet_has_room_for():
    assert blank_seats("chaotentrumpf") == (2, 8)  # the rules allow 10; the page has room for 8
    assert blank_seats("doppelkopf") == (4, 5) and blank_seats("tarot") == (3, 5)


def test_an_unknown_game_is_refused_in_german_never_a_500(member_client, club, member_user):
    response = member_client.get(blank_url(club, spiel="skat", count=4))
    assert response.status_code == 400
    page = response.content.decode()
    assert "Ein leeres Blatt für das Spiel skat gibt es nicht" in page
    assert "Chaotentrumpf, Doppelkopf, Tarot" in page


def test_without_a_game_the_clubs_current_season_decides(member_client, club, member_user):
    today = timezone.localdate()
    Season.objects.create(club=club, name="Tarot-Saison", ruleset="tarot", start=today - datetime.timedelta(days=30),
                          end=today + datetime.timedelta(days=30))
    response = member_client.get(blank_url(club, count=4))
    assert response["Content-Disposition"] == 'inline; filename="kontrollblatt-leer-ctv-4-spieler.pdf"'
    assert de("Oudlers") in text_of(response.content)
    form = member_client.get(blank_url(club)).content.decode()
    assert '<option value="tarot" selected>' in form


def test_without_a_season_the_registrys_default_game_is_printed(member_client, club, member_user):
    response = member_client.get(blank_url(club, count=4))
    assert response["Content-Disposition"] == 'inline; filename="spielprotokoll-leer-ctv-4-spieler.pdf"'
    assert de("Shuffler") in text_of(response.content)


def test_the_form_offers_every_game_of_the_registry_read_at_the_request(member_client, club, member_user,
                                                                       points_game):
    for page in (member_client.get(blank_url(club)), member_client.get(reverse("protocol:new", kwargs={"slug": club.slug}))):
        html = page.content.decode()
        for key in games.keys():
            assert f'<option value="{key}"' in html, key
        assert "Zählspiel: 2 to 6 players" in html or "Zählspiel: 2 bis 6 Spieler" in html


def test_a_game_installed_at_run_time_prints_its_plain_blank_sheet(member_client, club, member_user, points_game):
    response = member_client.get(blank_url(club, spiel=points_game, players="Anna, Bernd, Carla", scorekeeper="Bernd"))
    assert response.status_code == 200
    text = text_of(response.content)
    assert "Zählspiel" in text and "Anna" in text and de("Scorekeeper") in text
    assert de("Penalties, warnings, disqualifications") in text
    assert member_client.get(blank_url(club, spiel=points_game, count=7)).status_code == 400


def test_the_installed_games_match_is_printed_as_the_plain_list(points_game):
    from protocol.rules import evaluate
    from protocol.sheet import render_sheet

    document = {"format": "protocol/1", "ruleset": points_game, "club": "1. CTV gegen alles!", "date": "2026-11-20",
                "place": "Nürtingen", "players": ["Anna", "Bernd", "Carla"], "scorekeeper": "Bernd", "settings": {},
                "events": [{"game": {"points": {"Anna": 12, "Bernd": 3, "Carla": 7}}},
                           {"game": {"points": {"Anna": 20, "Bernd": 5, "Carla": 4}}},
                           {"end": {"reason": "agreed"}}]}
    evaluation = evaluate(document)
    assert evaluation.ok, evaluation.errors[:3]
    with translation.override("de"):
        text = text_of(render_sheet(evaluation.match, printed_at=datetime.datetime(2026, 11, 21, 14, 5)))
    assert "Zählspiel" in text and "Nürtingen" in text
    assert "+12" in text and "+20" in text and "32" in text and "11" in text  # Anna's scores and total, Carla's
    assert "Anna" in text.split(de("Winner"))[1].split("\n")[0]


def test_the_club_page_and_the_new_match_page_lead_to_the_blank_sheet(member_client, club, member_user):
    address = reverse("protocol:blank_pdf", kwargs={"slug": club.slug})
    assert address in member_client.get(club.get_absolute_url()).content.decode()
    assert f'action="{address}"' in member_client.get(reverse("protocol:new", kwargs={"slug": club.slug})).content.decode()
