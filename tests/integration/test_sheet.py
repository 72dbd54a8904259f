"""The Spielprotokollblatt (protocol/games/chaotentrumpf/sheet.py): the PDF a club files and signs, filled and blank.

The PDFs are read back with pypdf: what a reader of the printed sheet sees must be in its
text. Page 1 of each sheet is kept as PNG in artefacts/sheet/ for a human to look at.
"""

import datetime
import json
import os
import random
import shutil
import subprocess
import sys
from io import BytesIO
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import translation
from pypdf import PdfReader

from protocol import recording
from protocol.games.chaotentrumpf.simulation import simulate_match
from protocol.rules import evaluate
from protocol.sheet import html_to_pdf, render_blank_sheet, render_sheet
from protocol.sheet.chart import running_totals_svg
from tests.unit.builders import quiet

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
ARTEFACTS = ROOT / "artefacts" / "sheet"
PRINTED_AT = datetime.datetime(2026, 11, 21, 14, 5)
SEVEN = ["Anna", "Bernd", "Carla", "Dieter", "Erika", "Fritz", "Gisela"]


# -- helpers ------------------------------------------------------------------------------

def match_of(document):
    evaluation = evaluate(document)
    assert evaluation.ok, evaluation.errors[:3]
    return evaluation.match


def match_from_file(name):
    return match_of(json.loads((DATA / name).read_text(encoding="utf-8")))


def pages_of(pdf: bytes) -> list[str]:
    """The text of each page, as a reader (or a search in the archive) finds it."""
    return [page.extract_text() for page in PdfReader(BytesIO(pdf)).pages]


def is_landscape(pdf: bytes) -> bool:
    box = PdfReader(BytesIO(pdf)).pages[0].mediabox
    return box.width > box.height


def keep_for_review(pdf: bytes, name: str) -> Path | None:
    """Write the PDF and its page 1 as PNG to artefacts/sheet/ (git-ignored).

    Needs pdftoppm (poppler-utils, installed by .ci/run); without it only the PDF is kept.
    """
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    (ARTEFACTS / f"{name}.pdf").write_bytes(pdf)
    if shutil.which("pdftoppm") is None:
        return None
    subprocess.run(["pdftoppm", "-png", "-r", "110", "-f", "1", "-l", "1", "-singlefile", "-",
                    str(ARTEFACTS / name)], input=pdf, check=True, timeout=60)
    return ARTEFACTS / f"{name}.png"


def long_partie():
    """A simulated Partie of seven with the NÜV 5 agreement "kein Trumpf −300", decided after 60+ Spiele."""
    for seed in range(3, 60):
        document = simulate_match(SEVEN, random.Random(seed), settings={"no_trump_points": -300},
                                  club="1. CTV gegen alles!", date="2026-11-20", place="Nürtingen")
        match = match_of(document)
        if match.status == "finished" and sum(1 for g in match.games if g.stage == 0) >= 60:
            return match
    raise AssertionError("no simulated Partie of 60 Spiele")  # pragma: no cover


def render(match) -> bytes:
    with translation.override("de"):
        return render_sheet(match, printed_at=PRINTED_AT)


@pytest.fixture(scope="module")
def stechen():
    match = match_from_file("stechen.json")
    return match, render(match)


@pytest.fixture(scope="module")
def long():
    match = long_partie()
    return match, render(match)


# -- the filled sheet ---------------------------------------------------------------------

def test_a_short_running_partie_fits_one_page_with_its_header_scores_and_totals():
    pdf = render(match_from_file("first-spiel.json"))
    keep_for_review(pdf, "kurz")
    (page,) = pages_of(pdf)
    for text in ("1. CTV gegen alles!", "Freitag, 20. November 2026", "Nürtingen", "Protokollant",
                 "1 Anna", "2 Bernd", "3 Carla", "4 Dieter", "Obergrenze: 1000", "Blätter: 3",
                 "Karten je Austeilen: 5", "−100", "−200", "keine"):
        assert text in page, text
    assert "1 Bernd Pik Spielfarbe" in page  # Spiel 1: Mischer left of Anna (Art. 5b), trump and level
    assert "Bernd: Normal → Pik" in page  # the recognised inversion
    assert "Strafe −200 für Carla: Karte verdeckt getauscht" in page
    assert "71 40 −270 −200" in page  # the totals after the Strafe
    assert "Die Partie läuft noch" in page
    assert "Seite 1 von 1" in page and "21.11.2026 14:05" in page
    assert not is_landscape(pdf)


def test_a_partie_with_stechen_strafe_and_annulled_spiel_shows_each_where_it_happened(stechen):
    match, pdf = stechen
    keep_for_review(pdf, "stechen")
    pages = pages_of(pdf)
    assert len(pages) == 2 and not is_landscape(pdf)
    text = " ".join("\n".join(pages).split())  # table cells wrap their lines
    for name in match.players:
        assert name in text
    assert text.index("Verwarnung für Anna") < text.index("1 Bernd Pik")  # before Spiel 1
    assert text.index("2 Carla rot") < text.index("Strafe −100 für Carla") < text.index("3 Dieter")
    assert "annulliert: Karten falsch ausgeteilt" in text  # Spiel 5 stays, struck through
    assert "1. Stechen Anna, Bernd · Obergrenze 100" in text and "nach Spiel 17" in text
    assert "Stand der Partie 1020 1086 −518 −527 438" in text
    assert "Stand im Stechen −162 157" in text
    assert "Sieger: Bernd" in text and "Ausgang: Stechen entschieden (Art. 17b)" in text
    assert "16 Spiele gewertet, 1 annulliert, 4 Spiele im Stechen" in text
    assert "Unterschriften" in text and "Anna Protokollant" in text


def test_an_annulled_partie_says_so_with_its_reason_and_every_sanction():
    pdf = render(match_from_file("spec-example.json"))
    text = "\n".join(pages_of(pdf))
    assert "Die Partie wurde annulliert (SV 4)" in text and "Kartenmaterial unvollständig" in text
    assert "Verwarnung für Dieter" in text and "Disqualifikation für Carla" in text
    assert "Ende: Zeitbegrenzung (Art. 17c)" in text
    assert "Sieger:" not in text


def test_a_partie_of_60_spiele_flows_over_pages_in_landscape_with_the_header_on_each(long):
    match, pdf = long
    keep_for_review(pdf, "lang")
    pages = pages_of(pdf)
    games = [g for g in match.games if g.stage == 0]
    assert len(games) >= 60
    assert is_landscape(pdf)  # seven players
    assert 3 <= len(pages) <= 6
    table_pages = [p for p in pages if any(f"\n{g.number} {g.shuffler} " in p for g in games)]
    assert len(table_pages) >= 2
    for page in table_pages:
        assert "Mischer" in page and "Gisela" in page  # the table header, repeated
    text = "\n".join(pages)
    for game in games:
        assert f"\n{game.number} {game.shuffler} " in text, game.number
    assert f"Sieger: {match.winner}" in text
    assert "Kein Trumpf im Stich: −300" in text and "Regelwerk: −100; Art. 16a, NÜV 5" in text
    assert f"Seite {len(pages)} von {len(pages)}" in pages[-1]


def test_the_chart_is_svg_of_each_players_total_with_the_obergrenze(stechen):
    match, _pdf = stechen
    svg = running_totals_svg(match)
    assert svg.startswith("<svg") and "Obergrenze 1000" in svg
    for name in match.players:
        assert name in svg
    assert svg == running_totals_svg(match)  # the same Partie, the same picture



def test_a_sheet_printed_again_keeps_its_chart_and_another_course_is_drawn_anew(stechen, monkeypatch):
    from protocol.sheet import chart

    match, _pdf = stechen
    first = chart.sheet_chart(match, width_mm=186, height_mm=64)
    assert first.startswith("data:image/svg+xml;base64,")
    shorter = json.loads((DATA / "stechen.json").read_text(encoding="utf-8"))
    shorter["events"] = [e for e in shorter["events"] if "game" in e][:5]
    drawn = []
    monkeypatch.setattr(chart, "running_totals_svg", lambda *a, **k: drawn.append(a) or "<svg/>")
    assert chart.sheet_chart(match, width_mm=186, height_mm=64) == first  # kept: matplotlib not asked
    assert drawn == []
    chart.sheet_chart(match_of(shorter), width_mm=186, height_mm=64)  # another course: drawn
    assert len(drawn) == 1


def test_the_printed_chart_keeps_every_drawn_element_of_matplotlibs_svg_in_fewer_nodes(stechen):
    import re

    from protocol.sheet.chart import _for_print

    match, _pdf = stechen
    svg = running_totals_svg(match)
    lean = _for_print(svg)

    def count(tag, text):
        return len(re.findall(rf"<{tag}[ />]", text))

    for tag in ("path", "use", "text", "clipPath", "rect"):
        assert count(tag, lean) == count(tag, svg), tag
    assert count("g", lean) < count("g", svg) / 5
    assert "style=" not in lean and "<metadata" not in lean and 'stroke-linecap="butt"' in lean
    drawn = re.sub(r"<style.*?</style>", "", svg.split("</metadata>")[-1], flags=re.S)
    assert re.findall(r">([^<>]*\w[^<>]*)<", lean) == re.findall(r">([^<>]*\w[^<>]*)<", drawn)  # every text

def test_the_renderer_fetches_nothing_from_the_network(monkeypatch):
    import socket

    calls = []
    monkeypatch.setattr(socket, "create_connection", lambda *a, **k: calls.append(a))
    html_to_pdf('<p>Hallo <img src="http://example.invalid/logo.png">'
                '<link rel="stylesheet" href="https://example.invalid/x.css"></p>')
    assert calls == []


# -- the blank sheet ----------------------------------------------------------------------

def test_the_blank_sheet_prints_the_mischer_of_every_row_from_the_left_of_the_protokollant():
    with translation.override("de"):
        pdf = render_blank_sheet(["Anna", "Bernd", "Carla", "Dieter"], "Bernd", club="1. CTV gegen alles!",
                                 place="Nürtingen", printed_at=PRINTED_AT)
    keep_for_review(pdf, "leer")
    pages = pages_of(pdf)
    assert len(pages) == 2 and not is_landscape(pdf)
    text = "\n".join(pages)
    assert "Bernd Protokollant" in text
    order = ["Carla", "Dieter", "Anna", "Bernd"]  # Art. 5b: left of Bernd first, then clockwise
    for number in range(1, 41):
        assert f"\n{number} {order[(number - 1) % 4]}" in text, number
    assert "\n41 " not in text
    flat = " ".join(text.split())  # the reference box wraps its lines
    for text_part in ("As 11", "Zehn 10", "Art. 16", "Kein Stich: stattdessen −200", "Spielfarbe Karo +5",
                      "Stechen", "50 je Teilnehmer", "Strafen, Verwarnungen, Disqualifikationen",
                      "Unterschriften", "Blätter: 3"):
        assert text_part in flat, text_part


def test_without_a_protokollant_the_first_player_keeps_it_and_unnamed_seats_are_numbered():
    with translation.override("de"):
        pdf = render_blank_sheet(["", "", "", "", "", "", ""], printed_at=PRINTED_AT)
    keep_for_review(pdf, "leer-7")
    text = "\n".join(pages_of(pdf))
    assert is_landscape(pdf)  # more than six players
    assert "\n1 Platz 2" in text and "\n7 Platz 1" in text and "\n40 Platz 6" in text
    assert "Blätter: 5" in text


def test_a_blank_sheet_is_for_2_to_8_players():
    with pytest.raises(ValueError):
        render_blank_sheet(["Anna"])
    with pytest.raises(ValueError):
        render_blank_sheet(["Anna", "Bernd"], "Olaf")


# -- the command --------------------------------------------------------------------------

def run_command(*args, tmp_path):
    # A database that does not exist: rendering a file must never need or create one.
    env = os.environ | {"DATABASE_URL": f"sqlite:///{tmp_path / 'never.sqlite3'}"}
    done = subprocess.run([sys.executable, "manage.py", "render_sheet", *map(str, args)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert not (tmp_path / "never.sqlite3").exists(), "render_sheet touched the database"
    return done


def test_the_command_renders_a_protocol_file_without_the_database(tmp_path):
    out = tmp_path / "stechen.pdf"
    done = run_command(DATA / "stechen.json", out, tmp_path=tmp_path)
    assert done.returncode == 0, done.stderr
    assert out.read_bytes().startswith(b"%PDF") and "Sieger: Bernd" in "\n".join(pages_of(out.read_bytes()))


def test_the_command_prints_the_german_errors_of_an_invalid_protocol_and_exits_1(tmp_path):
    done = run_command(DATA / "invalid.json", tmp_path / "x.pdf", tmp_path=tmp_path)
    assert done.returncode == 1
    assert "Ereignis 0, Carla: Für Carla fehlt die Zeile" in done.stderr
    assert not (tmp_path / "x.pdf").exists()


def test_the_command_exits_2_for_a_file_that_is_not_json(tmp_path):
    done = run_command(DATA / "not-json.json", tmp_path / "x.pdf", tmp_path=tmp_path)
    assert done.returncode == 2 and "kein gültiges JSON" in done.stderr


def test_the_command_prints_a_blank_sheet(tmp_path):
    out = tmp_path / "leer.pdf"
    done = run_command("--blank", "--players", "Anna,Bernd,Carla,Dieter", out, tmp_path=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "\n1 Bernd" in "\n".join(pages_of(out.read_bytes()))


# -- the pages ----------------------------------------------------------------------------

PERSONAS = {
    "secretary_client": 200,
    "scorekeeper_client": 200,
    "member_client": 200,
    "outsider_client": 403,
    "client": 302,
}


@pytest.fixture
def played(running_match, secretary):
    recording.add_event(running_match, "game", quiet()["game"], user=secretary)
    return running_match


def pdf_url(match):
    return reverse("protocol:pdf", kwargs={"slug": match.club.slug, "pk": match.pk})


def blank_url(club, **params):
    from urllib.parse import urlencode
    return reverse("protocol:blank_pdf", kwargs={"slug": club.slug}) + ("?" + urlencode(params) if params else "")


@pytest.mark.parametrize("persona", PERSONAS)
def test_the_sheet_of_a_partie_is_a_pdf_for_everyone_who_may_see_it(request, persona, played):
    response = request.getfixturevalue(persona).get(pdf_url(played))
    assert response.status_code == PERSONAS[persona]
    if response.status_code == 200:
        assert response["Content-Type"] == "application/pdf"
        assert response["Content-Disposition"] == (
            f'inline; filename="spielprotokoll-ctv-2026-11-20-partie-{played.pk}.pdf"')
        assert "Anna" in pages_of(response.content)[0]
    elif response.status_code == 302:
        assert "/konto/login/" in response["Location"]


@pytest.mark.parametrize("persona", PERSONAS)
def test_the_blank_sheet_is_for_every_member_of_the_club(request, persona, club, secretary, member_user,
                                                         scorekeeper, outsider):
    response = request.getfixturevalue(persona).get(blank_url(club, count=5))
    assert response.status_code == PERSONAS[persona]
    if response.status_code == 200:
        assert response["Content-Type"] == "application/pdf"
        text = pages_of(response.content)[0]
        assert "1. CTV gegen alles!" in text and "\n1 Platz 2" in text


def test_the_blank_sheet_takes_names_and_the_protokollant(member_client, club, member_user):
    response = member_client.get(blank_url(club, players="Anna, Bernd, Carla", scorekeeper="Carla"))
    assert response["Content-Disposition"] == 'inline; filename="spielprotokoll-leer-ctv-3-spieler.pdf"'
    text = pages_of(response.content)[0]
    assert "\n1 Anna" in text and "\n2 Bernd" in text and "\n3 Carla" in text  # left of Carla first


def test_a_wrong_blank_sheet_request_shows_the_form_with_its_errors(member_client, club, member_user):
    response = member_client.get(blank_url(club, players="Anna, Bernd", scorekeeper="Olaf"))
    assert response.status_code == 400
    assert "Der Protokollant muss einer der Spieler sein" in response.content.decode()
    response = member_client.get(blank_url(club))
    assert response.status_code == 200 and b'name="players"' in response.content


def test_the_match_page_and_the_new_match_page_offer_the_pdfs(member_client, played):
    page = member_client.get(reverse("protocol:match", kwargs={"slug": "ctv", "pk": played.pk})).content.decode()
    assert pdf_url(played) in page
    page = member_client.get(reverse("protocol:new", kwargs={"slug": "ctv"})).content.decode()
    assert reverse("protocol:blank_pdf", kwargs={"slug": "ctv"}) in page
