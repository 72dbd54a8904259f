"""Paper of the tournament day: a round's results list and the final ranking as PDFs, and the
season's workbook ranking the tournament by its rule. Sabine (the secretary) runs a Doppelkopf
tournament (TCG) of two rounds at two tables; what the PDFs print is read back with pdftotext
and must equal the engine's totals. Anna, a member, reads them; Olaf, an outsider, does not."""

import io
import re
import shutil
import subprocess

import openpyxl
import pytest
from django.urls import reverse
from django.utils import translation

from league.spreadsheets import exports
from league.standings.ranking import standings
from league.standings.tables import number, score
from league.tournaments import papers
from protocol import confirmations, recording
from tests.integration.tournament_day import DAY, eight_at_two_tables

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs pdftotext (poppler-utils)")


def pdf_text(data: bytes) -> str:
    assert data.startswith(b"%PDF")
    return subprocess.run(["pdftotext", "-layout", "-", "-"], input=data, capture_output=True, check=True).stdout.decode()


def play(match, secretary, re_points):
    """One game, Re the first two seats with ``re_points``, then the match ended."""
    names = [seat.name for seat in match.seats.order_by("position")]
    recording.add_event(match, "game", {"type": "normal", "dealer": names[-1], "re": names[:2],
                                        "re_points": re_points}, user=secretary)
    recording.add_event(match, "end", {"reason": "games"}, user=secretary)


@pytest.fixture
def tournament(secretary_client, secretary, club, member_user):
    """Round 1 played at both tables, table 1 confirmed by all; round 2 drawn, table 1 played,
    table 2 still playing."""
    day = eight_at_two_tables(secretary_client, club)
    season, first = day["season"], day["round"]
    play(day["matches"][1], secretary, 151)
    play(day["matches"][2], secretary, 90)
    confirmed = day["matches"][1]
    for seat in confirmed.seats.all():
        confirmations.confirm(confirmed, seat, user=secretary)
    response = secretary_client.post(reverse("round_new", kwargs={"slug": club.slug, "season_pk": season.pk}),
                                     {"date": DAY.isoformat(), "players": [s.member_id for s in first.seats.all()]})
    assert response.status_code == 302
    second = season.rounds.get(number=2)
    assert secretary_client.post(reverse("round_start", kwargs={"slug": club.slug, "round_pk": second.pk})).status_code == 302
    play(second.matches.get(table_number=1), secretary, 121)
    season.refresh_from_db()  # made a tournament through its settings page
    return {"season": season, "rounds": list(season.rounds.order_by("number"))}


STATES = {"en": {"confirmed": "confirmed", "finished": "finished", "playing": "still playing"},
          "de": {"confirmed": "bestätigt", "finished": "beendet", "playing": "spielt noch"}}
TABLE = {"en": "Table", "de": "Tisch"}


@pytest.mark.parametrize("language", ["de", "en"])
def test_each_rounds_results_list_prints_the_engines_points_and_the_tables_state(tournament, language):
    first, second = tournament["rounds"]
    expected_states = {first: {1: "confirmed", 2: "finished"}, second: {1: "finished", 2: "playing"}}
    for round_ in (first, second):
        tables = papers.round_results(round_)
        assert {t.number: t.state for t in tables} == expected_states[round_]
        with translation.override(language):
            text = pdf_text(papers.results_pdf(round_))
            for table in tables:
                assert f"{TABLE[language]} {table.number} {STATES[language][table.state]}" in text
                for seat in table.seats:
                    line = rf"{re.escape(seat.member.name)}\s+{seat.games}\s+{re.escape(number(seat.points))}"
                    assert re.search(line + rf"\s+{re.escape(seat.round_score_text)}", text), (seat.member.name, text)
    # The engine's totals are real: in round 1 every player played one game, Re won at both tables.
    totals = {s.member.name: (s.games, s.points) for t in papers.round_results(first) for s in t.seats}
    assert {games for games, _ in totals.values()} == {1}
    assert sorted(points for _, points in totals.values()) != [0] * 8
    assert sum(points for _, points in totals.values()) == 0  # Doppelkopf: Re's gain is Kontra's loss


@pytest.mark.parametrize("language", ["de", "en"])
def test_the_final_ranking_prints_rank_name_rounds_and_the_tcg_score(tournament, club, language):
    season = tournament["season"]
    rows = standings(club, season)
    assert len(rows) == 8 and {r.played for r in rows} == {1, 2}
    with translation.override(language):
        text = pdf_text(papers.ranking_pdf(club, season))
        assert ("Final ranking" if language == "en" else "Endstand") in text
        for row in rows:
            line = rf"{row.rank}\.\s+{re.escape(row.name)}\s+{row.played}\s+{re.escape(score(row.tournament_score))}"
            assert re.search(line, text), (row.name, text)
    names = [line.split()[1] for line in text.splitlines() if re.fullmatch(r"\s*\d+\.\s+\S+\s+\d+\s+\S+\s*", line)]
    assert names == [r.name for r in rows]  # in the order of the ranking


def test_the_season_workbook_ranks_the_tournament_by_its_rule(tournament, club):
    season = tournament["season"]
    sheet = openpyxl.load_workbook(io.BytesIO(exports.season_xlsx(club, season))).worksheets[0]
    rows = list(sheet.iter_rows(values_only=True))
    with translation.override(exports.LANGUAGE):
        assert sheet.title == "Tabelle"
        header = rows[0]
        columns = [header.index(h) for h in ("Platz", "Mitglied", "Partien",
                                             exports.tournament_column(season.ranking_rule).header)]
    assert header[columns[3]] == "TCG-Wertung" or "TCG" in header[columns[3]]
    body = [tuple(row[i] for i in columns) for row in rows[1:] if row and row[1]]
    expected = [(r.rank, r.name, r.played, float(r.tournament_score)) for r in standings(club, season)]
    assert body == expected


def test_members_read_the_papers_outsiders_do_not(tournament, club, client, member_client, outsider_client,
                                                  secretary_client, make_user):
    season, (first, _) = tournament["season"], tournament["rounds"]
    results = reverse("round_results_pdf", kwargs={"slug": club.slug, "round_pk": first.pk})
    ranking = reverse("ranking_pdf", kwargs={"slug": club.slug, "season_pk": season.pk})
    for url in (results, ranking):
        for reader in (secretary_client, member_client):
            response = reader.get(url)
            assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
            assert response["Cache-Control"] == "private, no-store"
        assert outsider_client.get(url).status_code == 403
        assert client.get(url).status_code == 302  # to the login
        assert secretary_client.post(url).status_code == 405
    # Published standings: anyone reads the ranking and the results.
    club.standings_public = True
    club.save()
    assert client.get(ranking).status_code == 200 and client.get(results).status_code == 200
    # Another club's secretary finds no round or tournament of this club under his own.
    from league.models import Club

    other = Club.objects.create(name="Skatfreunde", slug="skat")
    olaf = make_user("otto")
    other.secretaries.add(olaf)
    secretary_client.force_login(olaf)
    assert secretary_client.get(reverse("round_results_pdf", kwargs={"slug": "skat", "round_pk": first.pk})).status_code == 404
    assert secretary_client.get(reverse("ranking_pdf", kwargs={"slug": "skat", "season_pk": season.pk})).status_code == 404


def test_the_round_and_tournament_pages_offer_the_papers(tournament, club, member_client):
    season, (first, _) = tournament["season"], tournament["rounds"]
    page = member_client.get(first.get_absolute_url()).content.decode()
    assert reverse("round_results_pdf", kwargs={"slug": club.slug, "round_pk": first.pk}) in page
    page = member_client.get(reverse("tournament", kwargs={"slug": club.slug, "season_pk": season.pk})).content.decode()
    assert reverse("ranking_pdf", kwargs={"slug": club.slug, "season_pk": season.pk}) in page


def test_a_league_seasons_final_ranking_is_its_table(club, secretary_client):
    from league.models import Season

    league = Season.objects.create(club=club, name="2027", start=DAY, end=DAY)
    response = secretary_client.get(reverse("ranking_pdf", kwargs={"slug": club.slug, "season_pk": league.pk}))
    assert response.status_code == 302
    assert response["Location"] == reverse("standings_season", kwargs={"slug": club.slug, "season_pk": league.pk})


def test_under_the_fft_rule_the_final_ranking_prints_the_sum_of_points(tournament, club):
    season = tournament["season"]
    season.ranking_rule = "fft"
    season.save(update_fields=["ranking_rule"])
    rows = standings(club, season)
    assert {r.tournament_score for r in rows} != {0} and all(isinstance(r.tournament_score, int) for r in rows)
    with translation.override("de"):
        text = pdf_text(papers.ranking_pdf(club, season))
    assert "FFT-Wertung" in text and "TCG-Wertung" not in text
    for row in rows:
        assert re.search(rf"{row.rank}\.\s+{re.escape(row.name)}\s+{row.played}\s+{re.escape(number(row.tournament_score))}\s*$",
                         text, re.MULTILINE), (row.name, text)
