"""The sheets of Doppelkopf and Tarot (protocol/games/doppelkopf/sheet.py, protocol/games/tarot/sheet.py): the Doppelkopf list and the FFT Kontrollblatt.

The PDFs are read back with pypdf: what a reader of the printed sheet sees must be in its
text, and it must be what the rules engine computed. Labels are compared through gettext,
so that the tests hold whether or not the German catalogue has the sheet's new words yet.
Page 1 of some sheets is written as PNG under /tmp for a human to look at.
"""

import datetime
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from io import BytesIO
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext
from pypdf import PdfReader

from league.models import Member
from protocol import matches, reading, recording
from protocol.games.doppelkopf.sheet import announcements_short
from protocol.rules import evaluate
from protocol.rules.vocabulary import number, signed
from protocol.sheet import render_blank_sheet, render_sheet

ROOT = Path(__file__).resolve().parents[2]
REVIEW = Path(tempfile.gettempdir()) / "trumpfbuch-sheets"
PRINTED_AT = datetime.datetime(2026, 11, 21, 14, 5)
FOUR = ["Anna", "Bernd", "Carla", "Dieter"]
FIVE = FOUR + ["Erika"]
ABSAGEN = ["keine 90", "keine 60", "keine 30", "schwarz"]


# -- documents ----------------------------------------------------------------------------

def dk_game(re_points, re, dealer, type="normal", re_says=0, kontra_says=0, **extra):
    """A Doppelkopf game; ``re_says``/``kontra_says``: how many announcements (1 = Re/Kontra, 2 = ... keine 90)."""
    body = {"type": type, "dealer": dealer, "re": list(re), "re_points": re_points}
    announcements = {}
    if re_says:
        announcements["re"] = ["re", *ABSAGEN[: re_says - 1]]
    if kontra_says:
        announcements["kontra"] = ["kontra", *ABSAGEN[: kontra_says - 1]]
    if announcements:
        body["announcements"] = announcements
    return {"game": body | extra}


# One round of games at a table of four, TCG; the first is the seed example (Re announced
# keine 60, Kontra made 60: 10 for Kontra).
DK_GAMES = [
    dict(re_points=180, re=("Anna", "Bernd"), re_says=3),
    dict(re_points=130, re=("Carla", "Dieter"), re_says=1, kontra_says=1,
         extras={"re": {"doppelkopf": 1}, "kontra": {"fuchs": 1}}),
    dict(re_points=151, re=("Bernd", "Carla")),
    dict(re_points=130, re=("Dieter",), type="solo_trumpf", re_says=1),
    dict(re_points=100, re=("Anna", "Dieter"), kontra_says=2),
    dict(re_points=240, re=("Bernd", "Dieter"), schwarz="kontra"),
    dict(re_points=119, re=("Anna", "Carla")),
    dict(re_points=100, re=("Bernd", "Carla"), revoke="Bernd"),
    dict(re_points=160, re=("Anna", "Bernd"), re_says=2, extras={"re": {"karl": 1}}),
    dict(re_points=90, re=("Carla",), type="solo_damen"),
]


def dk_document(games=20, players=FOUR, rules="tcg", end=True):
    events = []
    for k in range(games):
        spec = dict(DK_GAMES[k % len(DK_GAMES)])
        dealer = players[k % len(players)]
        if len(players) == 5:  # the dealer sits out: the Re party from the other four
            table = [p for p in players if p != dealer]
            spec["re"] = table[: len(spec["re"])]
            spec.pop("revoke", None)
        events.append(dk_game(dealer=dealer, **spec))
        if k == 3:
            events.append({"warning": {"player": "Carla", "reason": "Karten zu früh aufgenommen"}})
        if k == 6:
            events.append({"penalty": {"player": "Dieter", "points": 5, "reason": "Verwurf nach Verwarnung",
                                       "decided_by": ["Anna", "Bernd"]}})
    if games > 8:
        events[9]["game"] |= {"annulled": True, "annul_reason": "falsch gegeben"}  # game 8
    if end:
        events.append({"end": {"reason": "games"}})
    return {"format": "protocol/1", "ruleset": "doppelkopf", "club": "1. CTV gegen alles!", "date": "2026-11-20",
            "place": "Nürtingen", "players": list(players), "scorekeeper": players[0],
            "settings": {"rules": rules}, "events": events}


def tarot_deal(**changes):
    """The FFT worked example (Garde, 2 bouts, 49 points, petit au bout and a poignée: D = 106)."""
    body = {"dealer": "Anna", "taker": "Bernd", "contract": "garde", "partner": None, "oudlers": 2, "points": 49,
            "petit_au_bout": "attack", "poignees": [{"player": "Bernd", "size": "simple"}], "chelem": None,
            "null": False}
    return {"game": body | changes}


def tarot_document(players=FOUR, scorekeeper="Carla", end=True):
    plain = {"petit_au_bout": None, "poignees": []}
    events = [
        tarot_deal(),
        tarot_deal(dealer="Bernd", taker="Dieter", contract="prise", oudlers=1, points=48.5, **plain),
        tarot_deal(dealer="Carla", taker="Anna", contract="garde_sans", oudlers=3, points=52, **plain),
        {"game": {"dealer": "Dieter", "null": True}},
    ]
    if end:
        events.append({"end": {"reason": "games"}})
    return {"format": "protocol/1", "ruleset": "tarot", "club": "Tarot-Club Stuttgart", "date": "2026-11-21",
            "place": "Stuttgart", "players": list(players), "scorekeeper": scorekeeper, "settings": {},
            "events": events}


# -- helpers ------------------------------------------------------------------------------

def match_of(document):
    evaluation = evaluate(document)
    assert evaluation.ok, evaluation.errors[:3]
    return evaluation.match


def render(match, **options) -> bytes:
    with translation.override("de"):
        return render_sheet(match, printed_at=PRINTED_AT, **options)


def de(text: str) -> str:
    """A label as the German sheet prints it (English while the catalogue lacks it)."""
    with translation.override("de"):
        return gettext(text)


def pages_of(pdf: bytes) -> list[str]:
    assert pdf.startswith(b"%PDF")
    return [page.extract_text() for page in PdfReader(BytesIO(pdf)).pages]


def flat(pages: list[str]) -> str:
    """The text with every run of white space made one blank: table cells wrap their lines."""
    return " ".join("\n".join(pages).split())


def is_landscape(pdf: bytes) -> bool:
    box = PdfReader(BytesIO(pdf)).pages[0].mediabox
    return box.width > box.height


def keep_for_review(pdf: bytes, name: str) -> None:
    """The PDF and its page 1 as PNG under the temporary directory, never in the checkout."""
    REVIEW.mkdir(parents=True, exist_ok=True)
    (REVIEW / f"{name}.pdf").write_bytes(pdf)
    if shutil.which("pdftoppm"):
        subprocess.run(["pdftoppm", "-png", "-r", "90", "-f", "1", "-l", "1", "-singlefile", "-",
                        str(REVIEW / name)], input=pdf, check=True, timeout=60)


def row_text(game, players) -> str:
    """A game's scores and running totals as the row prints them, in seating order."""
    return " ".join(f"{signed(game.scores[p])} {number(game.totals[p])}" for p in players)


@pytest.fixture(scope="module")
def doppelkopf():
    match = match_of(dk_document())
    started = time.perf_counter()
    pdf = render(match)
    return match, pdf, time.perf_counter() - started


@pytest.fixture(scope="module")
def tarot():
    match = match_of(tarot_document())
    pdf = render(match, table=7, position=2, numbers={"Anna": 1204, "Bernd": 877, "Carla": 35, "Dieter": 4410})
    return match, pdf


# -- the Doppelkopf list ------------------------------------------------------------------

def test_the_doppelkopf_list_prints_header_games_scores_totals_and_winner_as_the_engine_computed(doppelkopf):
    match, pdf, _seconds = doppelkopf
    keep_for_review(pdf, "doppelkopf")
    pages = pages_of(pdf)
    text = flat(pages)
    assert is_landscape(pdf)
    for part in ("1. CTV gegen alles!", "Freitag, 20. November 2026", "Nürtingen", "TCG-Turnierregeln",
                 "1 Anna", "2 Bernd", "3 Carla", "4 Dieter"):
        assert part in text, part
    # the seed example: Re announced keine 60, Kontra made 60: 10 for Kontra
    seed = match.games[0]
    assert (seed.extra["winner"], seed.extra["value"]) == ("kontra", 10)
    assert f"1 Anna Normalspiel Anna, Bernd 180 Re, k90, k60 Kontra 10 {row_text(seed, FOUR)}" in text
    assert "−10 −10 −10 −10 +10 10 +10 10" in text
    for game in match.games:  # every game with its scores and running totals, in order
        assert row_text(game, FOUR) in text, game.number
    solo = match.games[3]
    assert f"4 Dieter Trumpfsolo Dieter 130 Re Re {solo.extra['value']} {row_text(solo, FOUR)}" in text
    totals = " ".join(number(match.totals[p]) for p in FOUR)
    assert f"{de('Match total')} {totals}" in text
    assert match.status == "finished" and match.winner
    assert f"{de('Winner')}: {match.winner}" in text and "Spielanzahl der Runde erreicht" in text
    assert match.games[0].explanation.split(";")[0] in text  # the engine's German explanation
    assert "Unterschriften" in text and "Anna Protokollant" in text
    assert f"Seite {len(pages)} von {len(pages)}" in pages[-1]


def test_sanctions_stand_where_they_happened_and_an_annulled_game_stays_struck_through(doppelkopf):
    match, pdf, _seconds = doppelkopf
    text = flat(pages_of(pdf))
    line = de("%(sanction)s for %(player)s: %(reason)s")
    warning = line % {"sanction": de("Warning"), "player": "Carla", "reason": "Karten zu früh aufgenommen"}
    penalty = line % {"sanction": f"{de('Penalty')} −5", "player": "Dieter", "reason": "Verwurf nach Verwarnung"}
    assert text.index("4 Dieter Trumpfsolo") < text.index(warning) < text.index("5 Anna Normalspiel")
    assert text.index("7 Carla") < text.index(penalty) < text.index("8 Dieter")
    assert de("decided by %(names)s") % {"names": "Anna, Bernd"} in text
    annulled = match.games[7]
    assert annulled.annulled and "falsch gegeben" in text
    before = match.games[6].totals  # then the penalty of 5 for Dieter, then game 8, which counts for nothing
    assert annulled.totals == before | {"Dieter": before["Dieter"] - 5}
    assert row_text(annulled, FOUR) in text


def test_the_announcements_are_written_compactly():
    assert announcements_short({"re": ["re", "keine 90"], "kontra": ["kontra"]}) == "Re, k90 | Ko"
    assert announcements_short({"re": [], "kontra": ["kontra", "keine 90", "keine 60"]}) == "Ko, k90, k60"
    assert announcements_short({"re": [], "kontra": []}) == ""


def test_at_a_table_of_five_the_dealer_is_marked_sitting_out():
    match = match_of(dk_document(games=6, players=FIVE, end=False))
    pdf = render(match)
    keep_for_review(pdf, "doppelkopf-fuenf")
    text = flat(pages_of(pdf))
    out = de("out")
    first = match.games[0]  # Anna deals and sits out: her score cell says so, her total stays 0
    assert first.scores["Anna"] == 0
    assert f"1 Anna Normalspiel Bernd, Carla 180 Re, k90, k60 Kontra 10 {out} 0" in text
    assert de("The match is still running.") in text and f"{de('Winner')}:" not in text


def test_a_long_list_breaks_over_pages_with_the_table_header_on_each():
    match = match_of(dk_document(games=48))
    pdf = render(match)
    pages = pages_of(pdf)
    assert len(pages) >= 3
    table_pages = [p for p in pages if any(f"\n{g.number} {g.data['dealer']} " in p for g in match.games)]
    assert len(table_pages) >= 3
    for page in table_pages:  # the repeated header: the columns and the players
        assert de("Re party") in " ".join(page.split()) and "Dieter" in page
    for page in pages[1:]:
        assert "1. CTV gegen alles! · " in page  # the running head
    text = flat(pages)
    for game in match.games:
        assert f"{game.number} {game.data['dealer']} " in text, game.number
    assert f"{de('Winner')}: {match.winner}" in text


def test_a_round_of_20_games_renders_in_a_few_seconds(doppelkopf):
    _match, pdf, seconds = doppelkopf
    assert len(pages_of(pdf)) <= 3
    assert seconds < 20, seconds  # a guard against a pathological layout, not a benchmark


# -- the Tarot Kontrollblatt -------------------------------------------------------------

def test_the_kontrollblatt_has_the_table_the_players_north_first_with_numbers_and_the_worked_example(tarot):
    match, pdf = tarot
    keep_for_review(pdf, "kontrollblatt")
    pages = pages_of(pdf)
    assert len(pages) == 1 and is_landscape(pdf)  # a position of four deals: one sheet
    text = flat(pages)
    assert f"{de('Table no.')} 7" in text and f"{de('Position')} 2" in text
    north, east, south, west = (de(w) for w in ("North", "East", "South", "West"))
    # Carla keeps the protocol, so she is North; the others clockwise from her (the seating order)
    for seat, name, no in ((north, "Carla", 35), (west, "Bernd", 877), (east, "Dieter", 4410), (south, "Anna", 1204)):
        assert f"{seat.upper()} " in text and f"{name} Nr. {no}" in text
    columns = f"{north[0]} Carla Nr. 35 {east[0]} Dieter Nr. 4410 {south[0]} Anna Nr. 1204 {west[0]} Bernd Nr. 877"
    assert columns in text
    # the FFT worked example: D = 106, the taker Bernd +318, each defender -106
    first = match.games[0]
    assert first.extra["defender_score"] == 106
    assert first.scores == {"Anna": -106, "Bernd": 318, "Carla": -106, "Dieter": -106}
    assert "1 Anna Bernd Garde 2 49" in text and "+106 −106 −106 −106 −106 −106 −106 +318 318" in text
    assert ("Garde, 2 Bouts, 49 Punkte: 25 + 8 + 10 (Petit au bout) = 43, x 2 = 86, "
            "+ 20 Poignée = 106 je Verteidiger") in text
    assert de("made by %(n)s") % {"n": 8} in text and de("failed by %(n)s") % {"n": 3} in text
    order = ["Carla", "Dieter", "Anna", "Bernd"]  # the columns: North, East, South, West
    totals = " ".join(number(match.totals[p]) for p in order)
    assert f"{de('Total of the table')} {totals}" in text
    assert f"{de('Winner')}: {match.winner}" in text


def test_a_null_deal_stays_on_the_kontrollblatt_marked_and_scoring_0(tarot):
    match, pdf = tarot
    text = flat(pages_of(pdf))
    null = match.games[3]
    assert set(null.scores.values()) == {0}
    assert f"4 Dieter {de('null')} – 0" in text and "Für null erklärt: 0 Punkte für alle" in text


def test_the_kontrollblatt_has_a_signature_box_for_each_player_and_the_control_table(tarot):
    _match, pdf = tarot
    text = flat(pages_of(pdf))
    assert text.count(f"{de('Signature')} · ") == 4
    assert de("Control table").upper() in text
    five = match_of(tarot_document(players=FIVE, scorekeeper="Anna"))
    text5 = flat(pages_of(render(five)))
    assert text5.count(f"{de('Signature')} · ") == 5 and de("Partner") in text5 and de("alone") in text5


def test_without_table_and_numbers_their_boxes_stay_to_be_written_in():
    match = match_of(tarot_document(end=False))
    text = flat(pages_of(render(match)))
    assert f"{de('Table no.')} {de('Position')}" in text  # both boxes empty
    assert "Nr. 35" not in text and de("The match is still running.") in text


def test_the_chaotentrumpf_sheet_takes_no_kontrollblatt_options():
    match = match_of(json.loads((ROOT / "tests" / "data" / "first-spiel.json").read_text(encoding="utf-8")))
    with pytest.raises(TypeError):
        render_sheet(match, table=7)


# -- the blank sheets ---------------------------------------------------------------------

def test_the_blank_kontrollblatt_is_one_page_per_position_with_rows_for_its_deals():
    with translation.override("de"):
        pdf = render_blank_sheet([], ruleset="tarot", table=12, positions=3, printed_at=PRINTED_AT)
    keep_for_review(pdf, "kontrollblatt-leer")
    pages = pages_of(pdf)
    assert len(pages) == 3
    for position, page in enumerate(pages, start=1):
        text = " ".join(page.split())
        assert f"{de('Table no.')} 12" in text and f"{de('Position')} {position}" in text
        assert text.count(f"{de('Signature')} · ") == 4
        for deal in range(1, 5):
            assert f"\n{deal}\n" in page or f"\n{deal} " in page, deal
    assert "Garde contre 6 60" in flat(pages)  # the reference: contract, multiplier, petit au bout


def test_a_blank_kontrollblatt_for_7_positions_of_3_deals_names_its_players():
    with translation.override("de"):
        pdf = render_blank_sheet(["Anna", "Bernd", "Carla", "Dieter"], "Bernd", 3, ruleset="tarot", positions=7,
                                 numbers={"Bernd": 12}, printed_at=PRINTED_AT)
    pages = pages_of(pdf)
    assert len(pages) == 7
    assert "Bernd Nr. 12" in " ".join(pages[0].split())


def test_the_blank_doppelkopf_list_has_its_rows_and_the_rule_sets_to_tick():
    with translation.override("de"):
        pdf = render_blank_sheet(["Anna", "Bernd", "", ""], "Anna", ruleset="doppelkopf", club="1. CTV gegen alles!",
                                 printed_at=PRINTED_AT)
    keep_for_review(pdf, "doppelkopf-leer")
    text = "\n".join(pages_of(pdf))
    for row in range(1, 25):
        assert f"\n{row}\n" in text or f"\n{row} " in text, row
    assert "TCG-Turnierregeln" in text and "DDV-Turnierspielregeln" in text
    assert "Anna Protokollant" in " ".join(text.split())


@pytest.mark.parametrize("ruleset, players", [("doppelkopf", ["Anna", "Bernd", "Carla"]), ("tarot", ["Anna", "Bernd"]),
                                              ("tarot", ["Anna", "Anna", "Carla"])])
def test_a_blank_sheet_refuses_a_wrong_table(ruleset, players):
    with pytest.raises(ValueError):
        render_blank_sheet(players, ruleset=ruleset)


# -- the command --------------------------------------------------------------------------

def run_command(*args, tmp_path):
    # A database that does not exist: rendering a file must never need or create one.
    env = os.environ | {"DATABASE_URL": f"sqlite:///{tmp_path / 'never.sqlite3'}"}
    done = subprocess.run([sys.executable, "manage.py", "render_sheet", *map(str, args)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert not (tmp_path / "never.sqlite3").exists(), "render_sheet touched the database"
    return done


def test_the_command_renders_a_doppelkopf_file_without_the_database(tmp_path):
    source, out = tmp_path / "doppelkopf.json", tmp_path / "doppelkopf.pdf"
    source.write_text(json.dumps(dk_document(games=8), ensure_ascii=False), encoding="utf-8")
    done = run_command(source, out, tmp_path=tmp_path)
    assert done.returncode == 0, done.stderr
    match = match_of(dk_document(games=8))
    assert f"{de('Winner')}: {match.winner}" in flat(pages_of(out.read_bytes()))


def test_the_command_renders_a_tarot_file_with_table_and_numbers(tmp_path):
    source, out = tmp_path / "tarot.json", tmp_path / "tarot.pdf"
    source.write_text(json.dumps(tarot_document(), ensure_ascii=False), encoding="utf-8")
    done = run_command(source, out, "--table", "9", "--numbers", "Anna=1204,Carla=35", tmp_path=tmp_path)
    assert done.returncode == 0, done.stderr
    text = flat(pages_of(out.read_bytes()))
    assert f"{de('Table no.')} 9" in text and "Anna Nr. 1204" in text and "+318 318" in text


def test_the_command_refuses_table_options_for_a_doppelkopf_file(tmp_path):
    source = tmp_path / "doppelkopf.json"
    source.write_text(json.dumps(dk_document(games=2)), encoding="utf-8")
    done = run_command(source, tmp_path / "x.pdf", "--table", "3", tmp_path=tmp_path)
    assert done.returncode != 0 and "Tarot" in done.stderr


def test_the_command_prints_a_blank_kontrollblatt(tmp_path):
    out = tmp_path / "leer.pdf"
    done = run_command("--blank", "--ruleset", "tarot", "--table", "4", "--positions", "2", out, tmp_path=tmp_path)
    assert done.returncode == 0, done.stderr
    assert len(pages_of(out.read_bytes())) == 2


# -- the page -----------------------------------------------------------------------------

def table_match(club, secretary, ruleset, settings, events):
    members = {m.name: m for m in club.members.all()}
    for name in FOUR:
        if name not in members:
            members[name] = Member.objects.create(club=club, name=name)
    match = matches.create_match(club=club, date=datetime.date(2026, 11, 20), place="Nürtingen",
                                 members=[members[n] for n in FOUR], scorekeeper=members["Carla"],
                                 settings=settings, ruleset=ruleset, user=secretary)
    for event in events:
        (kind, body), = event.items()
        recording.add_event(match, kind, body, user=secretary)
    return match


@pytest.mark.parametrize("ruleset, table_settings, events, name", [
    ("doppelkopf", {"rules": "tcg"}, dk_document(games=4, end=False)["events"], "spielprotokoll"),
    ("tarot", {}, tarot_document(end=False)["events"], "kontrollblatt"),
])
def test_the_pdf_of_a_doppelkopf_or_tarot_match_comes_from_the_match_page(member_client, club, secretary,
                                                                         ruleset, table_settings, events, name):
    match = table_match(club, secretary, ruleset, table_settings, events)
    response = member_client.get(reverse("protocol:pdf", kwargs={"slug": match.club.slug, "pk": match.pk}))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == f'inline; filename="{name}-ctv-2026-11-20-partie-{match.pk}.pdf"'
    text = flat(pages_of(response.content))
    computed = reading.page(match).computed
    for player in FOUR:
        assert player in text
    assert " ".join(number(computed.totals[p]) for p in (FOUR if ruleset == "doppelkopf" else
                                                          ["Carla", "Dieter", "Anna", "Bernd"])) in text



def test_a_ddv_list_and_a_kontrollblatt_of_three_print_as_well():
    ddv = match_of(dk_document(games=10, rules="ddv"))
    text = flat(pages_of(render(ddv)))
    assert "DDV-Turnierspielregeln" in text and "48" in text
    three = tarot_document(players=["Anna", "Bernd", "Carla"], scorekeeper="Bernd")
    three["events"] = [three["events"][0], three["events"][2]]  # the deals without Dieter
    match = match_of(three)
    text = flat(pages_of(render(match)))
    north, east, south = (de(w) for w in ("North", "East", "South"))
    assert f"{north[0]} Bernd {east[0]} Carla {south[0]} Anna" in text  # clockwise from the scorekeeper
    assert "+212 212" in text  # the taker of three scores 2 D
    assert text.count(f"{de('Signature')} · ") == 3


def test_the_kontrollblatt_of_a_tournament_table_prints_its_table_and_position(member_client, club, secretary):
    from league.models import Round, Season

    match = table_match(club, secretary, "tarot", {}, tarot_document(end=False)["events"])
    season = Season.objects.create(club=club, name="Turnier", start=match.date, end=match.date)
    match.round = Round.objects.create(season=season, number=3, date=match.date, seed=1)
    match.table_number = 5
    match.save(update_fields=["round", "table_number"])
    response = member_client.get(reverse("protocol:pdf", kwargs={"slug": match.club.slug, "pk": match.pk}))
    text = flat(pages_of(response.content))
    assert f"{de('Table no.')} 5" in text and f"{de('Position')} 3" in text
