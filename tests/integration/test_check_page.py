"""A printed sheet anyone can check: every sheet of a stored Partie (all three games, printed at
once or in the background) carries a QR code and a short code; both open the public page
/pruefen/<code>/ that shows the Partie as the engine reads it now, and says whether it changed
after printing. Tested from the PDF's own QR code: the sheet is rendered by WeasyPrint, page 1
rasterized (pdftoppm) and the QR decoded (zxing-cpp), the decoded address opened."""

import datetime
import io
import re
import subprocess
from urllib.parse import urlsplit

import pytest
import zxingcpp
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone
from PIL import Image
from pypdf import PdfReader

from jobs.models import Job
from league.models import Member
from protocol import confirmations, matches, reading, recording
from protocol.documents.transfer import import_document
from protocol.rules import evaluate
from protocol.rules.vocabulary import number
from protocol.sheet import check, render_blank_sheet
from protocol.sheet.background import SHEET_IN_BACKGROUND_AFTER
from tests.offline_documents import chaotentrumpf_documents, doppelkopf_documents, tarot_documents
from tests.unit.builders import game, quiet, twins
from tests.unit.points_only_documents import as_points

pytestmark = pytest.mark.django_db

GAMES = ["chaotentrumpf", "doppelkopf", "tarot"]
CODE = re.compile(r"\b\d+-\d+-[0-9A-Z]{4}-[0-9A-Z]{4}\b")
# A correction of the finishing entry that changes the result (the secretary's, with a reason).
CORRECTED = {
    "chaotentrumpf": quiet()["game"],  # nobody passes the Obergrenze: the Partie runs again
    "doppelkopf": {"type": "solo_damen", "dealer": "Anna", "re": ["Carla"], "re_points": 100},  # the solo lost
    "tarot": {"dealer": "Anna", "taker": "Bernd", "contract": "garde", "oudlers": 2, "points": 30},  # failed
}


# -- reading a printed sheet as a person with a phone would ------------------------------------

def qr_codes(pdf: bytes, tmp_path) -> list[str]:
    """The QR codes on page 1 of the PDF, decoded from the page as printed (300 dpi)."""
    (tmp_path / "sheet.pdf").write_bytes(pdf)
    subprocess.run(["pdftoppm", "-r", "300", "-f", "1", "-l", "1", "-png", str(tmp_path / "sheet.pdf"),
                    str(tmp_path / "page")], check=True)
    page = next(tmp_path.glob("page*.png"))
    found = [r.text for r in zxingcpp.read_barcodes(Image.open(page)) if r.format == zxingcpp.BarcodeFormat.QRCode]
    page.unlink()
    return found


def pdf_text(pdf: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)


def printed(client, match) -> bytes:
    response = client.get(reverse("protocol:pdf", kwargs={"slug": match.club.slug, "pk": match.pk}))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    return response.content


def check_address(pdf: bytes, tmp_path) -> str:
    """The check page the sheet's QR code opens; the code printed beside it is the QR's."""
    (address,) = qr_codes(pdf, tmp_path)
    parts = urlsplit(address)
    assert parts.scheme == "http" and parts.netloc == "testserver"  # the site the sheet was printed from
    code = parts.path.removeprefix("/pruefen/").removesuffix("/")
    assert parts.path == f"/pruefen/{code}/"
    assert set(CODE.findall(pdf_text(pdf))) == {code}  # the short code to type is the QR's
    return parts.path


def page_of(client, path, language="de"):
    response = client.get(path, HTTP_ACCEPT_LANGUAGE=language)
    return response, response.content.decode()


def standing(html: str) -> dict[str, int]:
    """Player -> total as the check page lists them."""
    block = html[html.index('<ul class="standing-list"'):]
    block = block[:block.index("</ul>")]
    lines = re.findall(r'<span class="standing-list__name">([^<]+)<.*?'
                       r'<span class="standing-list__total num">([^<]+)</span>', block, re.S)
    return {name.strip(): int(total.replace("−", "-")) for name, total in lines}


def winner_on(html: str) -> str | None:
    found = re.search(r'<p class="status-panel__headline">Sieger: ([^<]+)</p>', html)
    return found[1].strip() if found else None


def engine(match):
    return reading.page(match).computed


# -- from the PDF's QR code to the check page, every game ----------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_the_sheets_qr_code_opens_the_partie_as_stored_and_says_when_it_changed_after_printing(
        game, finished_partie, secretary_client, client, secretary, tmp_path):
    match = finished_partie(game)
    path = check_address(printed(secretary_client, match), tmp_path)

    response, html = page_of(client, path)  # anybody, no login
    assert response.status_code == 200
    computed = engine(match)
    assert standing(html) == dict(computed.totals) and list(standing(html)) == computed.players
    assert computed.winner and winner_on(html) == computed.winner
    assert "unverändert seit dem Druck" in html and f"Version {match.version}" in html
    assert "nach dem Druck geändert" not in html

    printed_version = match.version
    recording.correct_event(match, 0, CORRECTED[game], user=secretary, version=match.version,
                            reason="falsch zusammengezählt")
    match.refresh_from_db()
    response, html = page_of(client, path)  # the same paper, scanned again
    assert response.status_code == 200
    assert f"nach dem Druck geändert: Version {printed_version} → {match.version}" in html
    assert "unverändert" not in html
    corrected = engine(match)
    assert standing(html) == dict(corrected.totals) != dict(computed.totals)
    assert winner_on(html) == (corrected.winner if corrected.status == "finished" else None)
    assert "falsch zusammengezählt" not in html  # the correction's reason stays on the history


def test_a_running_partie_printed_mid_evening_and_played_on(running_match, secretary_client, client, secretary,
                                                            tmp_path):
    path = check_address(printed(secretary_client, running_match), tmp_path)
    assert "Die Partie läuft noch." in page_of(client, path)[1]
    recording.add_event(running_match, "game", quiet()["game"], user=secretary)
    running_match.refresh_from_db()
    html = page_of(client, path)[1]
    assert f"Version {running_match.version - 1} → {running_match.version}" in html
    assert standing(html) == dict(engine(running_match).totals)


# -- what the page shows, and what it never shows --------------------------------------------------

def test_a_stechen_shows_its_totals_beside_the_partie_and_its_winner(running_match, client, secretary):
    """Anna and Bernd both pass the Obergrenze (Art. 17b): the Stechen decides, as on the sheet."""
    for body in [twins()] * 4 + [game({"Anna": (10, 110, 5), "Bernd": (0, 0, 0)}, trump=("suit", "Kreuz"))]:
        recording.add_event(running_match, "game", body["game"], user=secretary)
    running_match.refresh_from_db()
    computed = engine(running_match)
    (stechen,) = computed.tiebreaks
    html = page_of(client, check.path(check.make(running_match.pk, running_match.version)))[1]
    assert standing(html) == dict(computed.totals) and winner_on(html) == computed.winner == "Anna"
    for player in stechen.players:
        assert f"1. Stechen: {number(stechen.totals[player])}" in html
    assert html.count("1. Stechen") == len(stechen.players)  # Carla and Dieter played none



def test_confirmations_with_their_times_and_an_earlier_versions_as_such(finished_partie, client, secretary,
                                                                       member_user, scorekeeper):
    match = finished_partie("doppelkopf")
    first = confirmations.confirm(match, match.seats.get(name="Anna"), user=member_user)
    path = check.path(check.make(match.pk, match.version))
    html = page_of(client, path)[1]
    at = timezone.localtime(first.at).strftime("%d.%m.%Y %H:%M")
    assert f"bestätigt {at}" in html and "noch nicht bestätigt" in html  # Anna has, the others not yet

    recording.correct_event(match, 0, CORRECTED["doppelkopf"], user=secretary, version=match.version,
                            reason="Augen verzählt")
    match.refresh_from_db()
    again = confirmations.confirm(match, match.seats.get(name="Bernd"), user=scorekeeper)
    html = page_of(client, path)[1]
    assert f"bestätigte das frühere Ergebnis {at} (Version {match.version - 1})" in html
    assert f"bestätigt {timezone.localtime(again.at).strftime('%d.%m.%Y %H:%M')}" in html


def test_no_reason_no_strafe_text_and_nothing_of_any_account(club, finished_partie, client, secretary, member_user,
                                                            scorekeeper):
    member_user.email, member_user.last_name = "anna@example.org", "Zimmermann"
    member_user.save()
    secretary.email = "sabine@example.org"
    secretary.save()
    match = finished_partie("tarot")
    recording.add_event(match, "penalty", {"player": "Carla", "points": 100, "reason": "Karten gezeigt"},
                        user=secretary, version=match.version)
    match.refresh_from_db()
    confirmations.confirm(match, match.seats.get(name="Anna"), user=member_user)
    recording.add_event(match, "annul_match", {"reason": "Blatt unvollständig"}, user=secretary)
    match.refresh_from_db()

    response, html = page_of(client, check.path(check.make(match.pk, match.version)))
    assert response.status_code == 200
    assert "Die Partie wurde annulliert." in html  # an annulled Partie says so ...
    for private in ("Karten gezeigt", "Blatt unvollständig", "@example.org", "Zimmermann", "schriftfuehrer",
                    "Sabine", "anna@", "Strafe"):
        assert private not in html, private  # ... and no reason, no Strafe, no account
    assert standing(html) == dict(engine(match).totals)  # the Strafe is in Carla's total, as the engine has it


def test_a_member_of_the_club_goes_on_to_the_match_page_and_a_visitor_does_not(finished_partie, client, member_client,
                                                                               outsider_client):
    match = finished_partie("tarot")
    path = check.path(check.make(match.pk, match.version))
    assert f'href="{match.get_absolute_url()}"' in member_client.get(path).content.decode()
    for visitor in (client, outsider_client):  # the club's pages are not theirs
        assert match.get_absolute_url() not in visitor.get(path).content.decode()


def test_the_page_in_english(finished_partie, client, secretary):
    match = finished_partie("chaotentrumpf")
    printed_version = match.version
    path = check.path(check.make(match.pk, printed_version))
    recording.correct_event(match, 0, CORRECTED["chaotentrumpf"], user=secretary, version=match.version,
                            reason="neu gezählt")
    html = page_of(client, path, "en")[1]
    assert f"changed after printing: version {printed_version} → {printed_version + 1}" in html
    assert "The match is still running." in html and "Prüfcode" not in html


def test_the_page_is_never_kept_by_a_cache_and_not_indexed(finished_partie, client):
    match = finished_partie("chaotentrumpf")
    response = client.get(check.path(check.make(match.pk, match.version)))
    assert response.status_code == 200
    cache_control = response["Cache-Control"]
    assert "no-store" in cache_control and "private" in cache_control and "public" not in cache_control
    assert "noindex" in response["X-Robots-Tag"] and response["Referrer-Policy"] == "no-referrer"


# -- bad codes: a German 404, never a 500 --------------------------------------------------------------

def test_a_tampered_foreign_or_unknown_code_is_a_german_404(finished_partie, client):
    match = finished_partie("chaotentrumpf")
    other = finished_partie("tarot")
    good = check.make(match.pk, match.version)
    mac = good.split("-", 2)[2]
    bad = [
        f"{match.pk}-{match.version}-{'0000-0000' if mac != '0000-0000' else '1111-1111'}",  # made up
        f"{other.pk}-{other.version}-{mac}",  # this Partie's signature on another Partie
        f"{match.pk}-{match.version + 1}-{mac}",  # ... on a version it never printed
        check.make(999_999, 3),  # signed, but no such Partie is kept
        "not-a-code", "4711", "%E2%80%AE" * 30, "9" * 40 + "-1-AAAA-AAAA",
    ]
    for code in bad:
        response = client.get(f"/pruefen/{code}/")
        html = response.content.decode()
        assert response.status_code == 404, code
        assert "Prüfcode nicht gefunden" in html and 'name="pruefcode"' in html, code
        assert "no-store" in response["Cache-Control"]
    assert client.get(f"/pruefen/{good}/").status_code == 200


def test_the_code_typed_into_the_form(finished_partie, client):
    match = finished_partie("doppelkopf")
    code = check.make(match.pk, match.version)
    form = client.get("/pruefen/")
    assert form.status_code == 200 and 'name="pruefcode"' in form.content.decode()

    typed = client.get("/pruefen/", {"pruefcode": " " + code.lower().replace("-", " ") + " "})
    assert typed.status_code == 302 and typed["Location"] == f"/pruefen/{code}/"
    assert client.get(f"/pruefen/{code.lower()}/")["Location"] == f"/pruefen/{code}/"  # typed in the address bar

    head, mac = code.rsplit("-", 2)[0], code.split("-", 2)[2]
    mistyped = mac[:-1] + ("0" if mac[-1] != "0" else "1")  # one character wrong
    wrong = client.get("/pruefen/", {"pruefcode": f"{head}-{mistyped}"})
    assert wrong.status_code == 404
    assert "Diesen Prüfcode hat die Seite nicht gedruckt" in wrong.content.decode()
    assert 'aria-invalid="true"' in wrong.content.decode()  # the message sits at its field
    malformed = client.get("/pruefen/", {"pruefcode": "Partie 12"})
    assert malformed.status_code == 400
    assert "Ein Prüfcode hat drei Teile" in malformed.content.decode()


# -- which sheets carry a code ---------------------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_a_blank_sheet_has_no_code(game, tmp_path):
    call_command("render_sheet", "--blank", "--ruleset", game, str(tmp_path / "blank.pdf"))
    pdf = (tmp_path / "blank.pdf").read_bytes()
    assert qr_codes(pdf, tmp_path) == []
    assert not CODE.search(pdf_text(pdf)) and "prüfen" not in pdf_text(pdf)
    assert not CODE.search(pdf_text(render_blank_sheet(["Anna", "Bernd", "Carla", "Dieter"], ruleset=game)))


def test_the_blank_sheet_of_the_club_page_has_no_code(club, member_client, member_user, tmp_path):
    response = member_client.get(reverse("protocol:blank_pdf", kwargs={"slug": club.slug}), {"count": 4})
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert qr_codes(response.content, tmp_path) == [] and "prüfen" not in pdf_text(response.content)


@pytest.mark.django_db(transaction=True)
def test_a_long_sheet_printed_in_the_background_carries_the_code_of_the_version_it_prints(
        club, secretary, member_client, member_user, client, run_worker, tmp_path):
    table = [Member.objects.get_or_create(club=club, name=n)[0] for n in ("Anna", "Bernd", "Carla", "Dieter")]
    match = matches.create_match(club=club, date=datetime.date(2026, 11, 20), members=table, scorekeeper=table[1],
                                 settings={"limit": 100_000}, events=[quiet()] * (SHEET_IN_BACKGROUND_AFTER + 1),
                                 user=secretary)
    response = member_client.get(reverse("protocol:pdf", kwargs={"slug": club.slug, "pk": match.pk}))
    assert response.status_code == 302
    run_worker()
    job = Job.objects.get()
    download = member_client.get(reverse("job_download", kwargs={"slug": club.slug, "pk": job.pk}))
    path = check_address(b"".join(download.streaming_content), tmp_path)  # the request's site, kept for the job
    assert path == check.path(check.make(match.pk, match.version))
    html = page_of(client, path)[1]
    assert "unverändert seit dem Druck" in html and standing(html) == dict(engine(match).totals)


# -- a Partie with games recorded as points only --------------------------------------------------

DOCUMENTS = {"chaotentrumpf": chaotentrumpf_documents, "doppelkopf": doppelkopf_documents, "tarot": tarot_documents}
POINTS_ONLY_WORDS = {  # each game's own words on what was not checked (its rules' points_only.py)
    ("chaotentrumpf", "de"): "nur Punkte: Augen, Stiche und Trümpfe nicht geprüft",
    ("chaotentrumpf", "en"): "points only: card points, tricks and trumps not checked",
    ("doppelkopf", "de"): "nur Punkte: Augen, Ansagen und Sonderpunkte nicht geprüft",
    ("doppelkopf", "en"): "points only: card points, announcements and special points not checked",
    ("tarot", "de"): "nur Punkte: Bouts, Kartenpunkte und Prämien nicht geprüft",
    ("tarot", "en"): "points only: bouts, card points and premiums not checked",
}


@pytest.mark.parametrize("language", ["de", "en"])
@pytest.mark.parametrize("game", GAMES)
def test_the_page_names_each_game_recorded_as_points_only_and_counts_them(game, language, club, secretary, client):
    full = next(document for _name, document in DOCUMENTS[game]() if evaluate(document).ok)
    typed = as_points(full, keep_facts=True, every=2)
    for name in typed["players"]:
        Member.objects.get_or_create(club=club, name=name)
    match = import_document(typed | {"club": club.name, "date": "2026-11-20"}, club=club, user=secretary).match
    numbers = [g.number for g in engine(match).games if g.as_json().get("points_only")]
    assert numbers and len(numbers) < len(engine(match).games)

    html = page_of(client, check.path(check.make(match.pk, match.version)), language)[1]
    words = POINTS_ONLY_WORDS[game, language]
    summary = f"{len(numbers)} Spiele nur als Punkte" if language == "de" else f"{len(numbers)} games as points only"
    assert f'<h2 id="check-points-only">{summary}</h2>' in html
    listed = re.findall(r"<li>(?:Spiel|Game) (\d+): ([^<]+)</li>", html)
    assert listed == [(str(n), words) for n in numbers]
    assert standing(html) == dict(evaluate(full).match.totals)  # the same totals as the Partie in full


def test_a_partie_with_every_game_in_full_says_nothing_of_points(finished_partie, client):
    match = finished_partie("doppelkopf")
    html = page_of(client, check.path(check.make(match.pk, match.version)))[1]
    assert "check-points-only" not in html and "nur als Punkte" not in html
