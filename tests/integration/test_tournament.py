"""Tournaments: a season in tournament mode, its rounds drawn, their tables'
matches played and the table ranked by the TCG rule (Doppelkopf) or the FFT rule (Tarot),
on the pages and in the spreadsheet."""

import datetime
import io
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

import openpyxl
import pytest
from django.urls import reverse
from django.utils import translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from league.models import Member, Round, Season, TableSeat, tournament_formats
from league.spreadsheets import exports
from league.standings.ranking import standings
from protocol import recording
from protocol.games.tarot.rules.tournament import POSITIONS
from protocol.models import Match
from protocol.rules import RULESETS, choices

DAY = datetime.date(2027, 3, 12)
NAMES = ["Brigitte", "Anke", "Dagmar", "Achim", "Michelle", "Bodo", "Carsten", "Doris", "Egon", "Frieda",
         "Gerd", "Hanne"]
# Re's card points giving a TCG value to the player in Re (docs/doppelkopf.md, TCG 1-2):
# 121 Re wins 1; 151 Re wins keine 9, 2; 120 Kontra wins with 120, only gegen die Alten 1;
# 119 Kontra wins 1 + gegen die Alten 1 = 2.
RE_POINTS = {1: 121, 2: 151, -1: 120, -2: 119}
# The seed's example (Brigitte 2014): 8 points in 20 games, then -5 in 20.
BRIGITTE = {1: [1] * 14 + [-1] * 6, 2: [1] * 6 + [2] + [-1] * 13, 3: [1] * 11 + [-1] * 8}
OTHERS = [1, -1, 2, -2, 1, 1, -1, 2, -1, 1, -2, 1, 1, 2, -1, 1, -1, 1]  # 18 games at the other tables


def test_the_registry_names_the_games_and_formats_the_rules_know():
    assert [key for key, _ in choices()] == list(RULESETS)
    assert [key for key, _ in tournament_formats()] == list(POSITIONS)


@pytest.fixture
def players(club, secretary, member_user):
    return [Member.objects.create(club=club, name=name) for name in NAMES]


@pytest.fixture
def evening(club):
    return Season.objects.create(club=club, name="Vereinsabend", start=DAY, end=DAY)


def make_tournament(client, club, season, **data):
    url = reverse("tournament_settings", kwargs={"slug": club.slug, "season_pk": season.pk})
    response = client.post(url, {"mode": "tournament", **data})
    assert response.status_code == 302, response.context["form"].errors
    season.refresh_from_db()
    return season


def draw(client, club, season, members, expect=302):
    url = reverse("round_new", kwargs={"slug": club.slug, "season_pk": season.pk})
    response = client.post(url, {"date": DAY.isoformat(), "players": [m.pk for m in members]})
    assert response.status_code == expect, response.context["form"].errors if expect == 302 else ""
    return season.rounds.order_by("-number").first()


def start(client, club, round_):
    response = client.post(reverse("round_start", kwargs={"slug": club.slug, "round_pk": round_.pk}))
    assert response.status_code == 302
    return list(round_.matches.order_by("table_number"))


def table_names(match):
    return [seat.name for seat in match.seats.all()]


def play_doppelkopf(match, lead, script, secretary):
    """Play ``script`` (the lead's result in each game, he in Re with the next seat) and end
    the match; returns each player's points in it, computed by hand."""
    names = table_names(match)
    i = names.index(lead)
    re = [lead, names[(i + 1) % 4]]
    points = dict.fromkeys(names, 0)
    for g, result in enumerate(script):
        recording.add_event(match, "game", {"type": "normal", "dealer": names[g % 4], "re": re,
                                            "re_points": RE_POINTS[result]}, user=secretary)
        for name in names:
            points[name] += result if name in re else -result
    recording.add_event(match, "end", {"reason": "games"}, user=secretary)
    return points


def tcg(rounds):
    """The TCG score by hand: sum of points / games x 100, rounded to one decimal at the end."""
    exact = sum((Fraction(100 * p, g) for p, g in rounds), Fraction(0))
    return (Decimal(exact.numerator) / exact.denominator).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)


def tabelle(club, season):
    sheet = openpyxl.load_workbook(io.BytesIO(exports.season_xlsx(club, season))).worksheets[0]
    rows = list(sheet.iter_rows(values_only=True))
    header, body = rows[0], [r for r in rows[1:] if r and r[1]]
    with translation.override(exports.LANGUAGE):
        score = header.index(exports.tournament_column(season.ranking_rule).header)
    return {row[1]: row[score] for row in body}


def test_a_doppelkopf_evening_from_the_draw_to_the_tcg_table(secretary_client, secretary, club, players, evening):
    season = make_tournament(secretary_client, club, evening, ruleset="doppelkopf", rules="tcg", ranking_rule="tcg")
    assert (season.is_tournament, season.ruleset, season.game_settings) == (True, "doppelkopf", {"rules": "tcg"})
    per_round = {m.name: [] for m in players}  # (points, games) per round, by hand
    for number in (1, 2, 3):
        round_ = draw(secretary_client, club, season, players)
        assert round_.number == number
        seats = list(round_.seats.all())
        assert sorted(s.member_id for s in seats) == sorted(m.pk for m in players)
        assert sorted({s.table for s in seats}) == [1, 2, 3]
        page = secretary_client.get(reverse("round", kwargs={"slug": club.slug, "round_pk": round_.pk}))
        assert page.status_code == 200 and "Brigitte" in page.content.decode()
        matches = start(secretary_client, club, round_)
        assert [m.table_number for m in matches] == [1, 2, 3]
        for match in matches:
            plan = list(round_.seats.filter(table=match.table_number).order_by("position"))
            assert [s.member_id for s in match.seats.order_by("position")] == [s.member_id for s in plan]
            assert match.scorekeeper_seat.member_id == plan[0].member_id  # North keeps the sheet
            assert (match.ruleset, match.settings, match.season, match.date) == ("doppelkopf", {"rules": "tcg"},
                                                                                season, DAY)
            names = table_names(match)
            lead = "Brigitte" if "Brigitte" in names else names[0]
            script = BRIGITTE[number] if lead == "Brigitte" else OTHERS
            points = play_doppelkopf(match, lead, script, secretary)
            if number == 1 and lead != "Brigitte" and match.table_number == max(
                    m.table_number for m in matches if "Brigitte" not in table_names(m)):
                match.refresh_from_db()  # a Strafe counts into the round's points
                fined = names[2]
                recording.add_event(match, "penalty", {"player": fined, "points": 3, "reason": "Kartenzeigen",
                                                       "decided_by": [names[0], names[1]]}, user=secretary)
                points[fined] -= 3
            for name in names:
                per_round[name].append((points[name], len(script)))
        if number == 2:  # the seed's example: 8 in 20 and -5 in 20 give 15
            assert per_round["Brigitte"] == [(8, 20), (-5, 20)]
            rows = {r.name: r for r in standings(club, season)}
            assert rows["Brigitte"].tournament_score == Decimal("15.0")
    assert Match.objects.filter(season=season, status="finished").count() == 9
    rows = standings(club, season)
    expected = {name: tcg(rounds) for name, rounds in per_round.items()}
    assert {r.name: r.tournament_score for r in rows} == expected
    assert expected["Brigitte"] == Decimal("30.8")  # 40 - 25 + 3 / 19 x 100 (15.789...)
    assert [r.tournament_score for r in rows] == sorted(expected.values(), reverse=True)
    assert all(r.rank == 1 + sum(1 for v in expected.values() if v > r.tournament_score) for r in rows)
    assert tabelle(club, season) == {name: float(value) for name, value in expected.items()}
    # the pages: the table with its score, the member page, the tournament page
    table = secretary_client.get(reverse("standings_season", kwargs={"slug": club.slug, "season_pk": season.pk}))
    assert "30,8" in table.content.decode()
    brigitte = Member.objects.get(club=club, name="Brigitte")
    page = secretary_client.get(reverse("member_page", kwargs={"slug": club.slug, "member_pk": brigitte.pk}),
                                {"saison": season.pk})
    assert page.context["tournament_score"] == "30,8" and page.context["tournament_rule"] == "tcg"
    overview = secretary_client.get(reverse("tournament", kwargs={"slug": club.slug, "season_pk": season.pk}))
    assert [r.state for r in overview.context["rounds"]] == ["finished"] * 3


def test_later_rounds_seat_together_as_few_players_as_before(secretary_client, club, players, evening):
    """Twelve players at three tables: each table of round 2 must hold two of one table of
    round 1 (four players from three tables), so three repeats, and no more."""
    season = make_tournament(secretary_client, club, evening, ruleset="doppelkopf", rules="ddv", ranking_rule="tcg")
    first = draw(secretary_client, club, season, players)
    for match in start(secretary_client, club, first):  # round 2 is drawn once round 1 is played
        recording.add_event(match, "end", {"reason": "time"})
    second = draw(secretary_client, club, season, players)
    page = secretary_client.get(reverse("round", kwargs={"slug": club.slug, "round_pk": second.pk}))
    assert page.context["repeats"] == 3
    assert all(len(t.repeats) == 1 for t in page.context["tables"])
    assert first.seed != second.seed


def play_tarot(match, lead, script, secretary):
    """The lead takes every deal: "W" the FFT worked example (garde, 49 points, petit au bout,
    poignée: +318, each defender -106), "L" a prise with 40 points (-78, defenders +26)."""
    names = table_names(match)
    points = dict.fromkeys(names, 0)
    for g, outcome in enumerate(script):
        body = {"dealer": names[g % 4], "taker": lead, "partner": None, "chelem": None, "null": False}
        if outcome == "W":
            body |= {"contract": "garde", "oudlers": 2, "points": 49, "petit_au_bout": "attack",
                     "poignees": [{"player": lead, "size": "simple"}]}
        else:
            body |= {"contract": "prise", "oudlers": 2, "points": 40, "petit_au_bout": None, "poignees": []}
        recording.add_event(match, "game", body, user=secretary)
        for name in names:
            points[name] += (318 if outcome == "W" else -78) if name == lead else (-106 if outcome == "W" else 26)
    return points


def test_a_tarot_tournament_of_three_tables_ranks_by_the_sum_of_points(secretary_client, secretary, club, players):
    season = Season.objects.create(club=club, name="Tarot-Turnier", start=DAY, end=DAY + datetime.timedelta(days=1))
    season = make_tournament(secretary_client, club, season, ruleset="tarot", tournament_format="5x4",
                             ranking_rule="fft")
    assert (season.format_positions_deals, season.game_settings) == ((5, 4), {})
    totals = {m.name: 0 for m in players}
    for position in range(1, 6):
        round_ = draw(secretary_client, club, season, players)
        matches = start(secretary_client, club, round_)
        assert len(matches) == 3 and all(m.ruleset == "tarot" and len(table_names(m)) == 4 for m in matches)
        for match in matches:
            names = table_names(match)
            lead = names[position % 4]
            points = play_tarot(match, lead, "WLLW" if match.table_number != 2 else "LLLW", secretary)
            if position == 3 and match.table_number == 1:  # FFT: a penalty is 100 points
                recording.add_event(match, "penalty", {"player": names[0], "points": 100, "reason": "Zögern"},
                                    user=secretary)
                points[names[0]] -= 100
            recording.add_event(match, "end", {"reason": "games"}, user=secretary)
            for name, value in points.items():
                totals[name] += value
    # five positions of four deals: a sixth is refused
    draw(secretary_client, club, season, players, expect=200)
    assert season.rounds.count() == 5
    rows = standings(club, season)
    assert {r.name: r.tournament_score for r in rows} == totals
    assert {r.name: r.points for r in rows} == totals
    assert all(r.games == 20 for r in rows)
    assert [r.tournament_score for r in rows] == sorted(totals.values(), reverse=True)
    assert tabelle(club, season) == totals


def test_no_round_is_drawn_while_a_table_of_the_last_one_plays_or_awaits_its_second_player(
        secretary_client, club, players, evening):
    """Both ways to draw (this form and "Nächste Runde auslosen") ask the same."""
    season = make_tournament(secretary_client, club, evening, ruleset="doppelkopf", rules="ddv", ranking_rule="tcg")
    Season.objects.filter(pk=season.pk).update(two_agree=True)
    first = draw(secretary_client, club, season, players)
    matches = start(secretary_client, club, first)
    url = reverse("round_new", kwargs={"slug": club.slug, "season_pk": season.pk})
    assert "Jeder Tisch der letzten Runde muss fertig sein" in secretary_client.get(url).content.decode()
    refused = draw(secretary_client, club, season, players, expect=200)
    assert refused == first  # nothing drawn
    for match in matches:
        recording.add_event(match, "end", {"reason": "time"})
    page = secretary_client.post(url, {"date": DAY.isoformat(), "players": [m.pk for m in players]})
    assert page.status_code == 200 and "warten auf die Bestätigung eines zweiten Spielers" in page.content.decode()
    assert season.rounds.count() == 1


def test_a_sixth_tarot_position_is_refused(secretary_client, club, players):
    season = Season.objects.create(club=club, name="Kurz", start=DAY, end=DAY, mode="tournament",
                                   ruleset="tarot", tournament_format="7x3", ranking_rule="fft")
    for number in range(1, 8):
        Round.objects.create(season=season, number=number, date=DAY, seed=number)
    url = reverse("round_new", kwargs={"slug": club.slug, "season_pk": season.pk})
    response = secretary_client.post(url, {"date": DAY.isoformat(), "players": [m.pk for m in players]})
    assert response.status_code == 200
    assert "7" in " ".join(response.context["form"].non_field_errors())


def test_thirteen_at_doppelkopf_seat_one_table_of_five(secretary_client, club, players, evening, make_user):
    season = make_tournament(secretary_client, club, evening, ruleset="doppelkopf", rules="tcg", ranking_rule="tcg")
    present = players + [Member.objects.create(club=club, name="Ingo")]
    round_ = draw(secretary_client, club, season, present)
    matches = start(secretary_client, club, round_)
    assert sorted(len(table_names(m)) for m in matches) == [4, 4, 5]


@pytest.mark.parametrize("count", [6, 7, 11])
def test_a_count_that_does_not_make_tables_is_refused_at_its_field(secretary_client, club, players, evening, count):
    season = make_tournament(secretary_client, club, evening, ruleset="doppelkopf", rules="tcg", ranking_rule="tcg")
    url = reverse("round_new", kwargs={"slug": club.slug, "season_pk": season.pk})
    response = secretary_client.post(url, {"date": DAY.isoformat(), "players": [m.pk for m in players[:count]]})
    assert response.status_code == 200 and "players" in response.context["form"].errors
    assert not season.rounds.exists()


def test_a_round_outside_the_season_is_refused(secretary_client, club, players, evening):
    season = make_tournament(secretary_client, club, evening, ruleset="doppelkopf", rules="tcg", ranking_rule="tcg")
    url = reverse("round_new", kwargs={"slug": club.slug, "season_pk": season.pk})
    response = secretary_client.post(url, {"date": "2027-04-01", "players": [m.pk for m in players]})
    assert "date" in response.context["form"].errors


def test_a_tournament_needs_its_game_and_format(secretary_client, club, evening):
    url = reverse("tournament_settings", kwargs={"slug": club.slug, "season_pk": evening.pk})
    assert "ruleset" in secretary_client.post(url, {"mode": "tournament", "ranking_rule": "tcg"}).context["form"].errors
    response = secretary_client.post(url, {"mode": "tournament", "ruleset": "tarot", "ranking_rule": "fft"})
    assert "tournament_format" in response.context["form"].errors


def test_redraw_and_delete_only_before_the_matches(secretary_client, club, players, evening):
    season = make_tournament(secretary_client, club, evening, ruleset="doppelkopf", rules="tcg", ranking_rule="tcg")
    round_ = draw(secretary_client, club, season, players)
    before = round_.seed
    kwargs = {"slug": club.slug, "round_pk": round_.pk}
    assert secretary_client.post(reverse("round_redraw", kwargs=kwargs)).status_code == 302
    round_.refresh_from_db()
    assert round_.seed != before and round_.seats.count() == 12
    start(secretary_client, club, round_)
    plan = list(round_.seats.values_list("table", "position", "member"))
    secretary_client.post(reverse("round_redraw", kwargs=kwargs))
    secretary_client.post(reverse("round_delete", kwargs=kwargs))
    assert list(round_.seats.values_list("table", "position", "member")) == plan
    assert Round.objects.filter(pk=round_.pk).exists()
    start(secretary_client, club, round_)  # twice: no second set of matches
    assert round_.matches.count() == 3
    annulled = round_.matches.get(table_number=2)  # a table starts again after an annulment
    recording.add_event(annulled, "annul_match", {"reason": "falsch gesetzt"})
    page = secretary_client.get(reverse("round", kwargs=kwargs))
    assert page.context["to_create"] == [2] and page.context["state"] == "playing"
    start(secretary_client, club, round_)
    assert sorted(round_.matches.values_list("table_number", "status")) == [
        (1, "running"), (2, "annulled"), (2, "running"), (3, "running")]
    assert [t.match.status for t in secretary_client.get(reverse("round", kwargs=kwargs)).context["tables"]] == [
        "running"] * 3


def test_the_same_seed_draws_the_same_plan(secretary_client, club, players, evening):
    from league.tournaments.rounds import draw_round

    season = make_tournament(secretary_client, club, evening, ruleset="doppelkopf", rules="tcg", ranking_rule="tcg")
    for match in start(secretary_client, club, draw(secretary_client, club, season, players)):
        recording.add_event(match, "end", {"reason": "time"})
    second = draw(secretary_client, club, season, players)
    plan = list(second.seats.values_list("table", "position", "member"))
    TableSeat.objects.filter(round=second).delete()
    draw_round(second, players)
    assert list(second.seats.values_list("table", "position", "member")) == plan


def test_the_seating_plan_prints_as_a_pdf(member_client, secretary_client, club, players, evening):
    season = make_tournament(secretary_client, club, evening, ruleset="doppelkopf", rules="tcg", ranking_rule="tcg")
    round_ = draw(secretary_client, club, season, players)
    response = member_client.get(reverse("round_pdf", kwargs={"slug": club.slug, "round_pk": round_.pk}))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")


def test_members_read_the_rounds_and_only_the_secretary_draws(client, member_client, outsider_client,
                                                            secretary_client, club, players, evening):
    season = make_tournament(secretary_client, club, evening, ruleset="doppelkopf", rules="tcg", ranking_rule="tcg")
    round_ = draw(secretary_client, club, season, players)
    read = [reverse("tournament", kwargs={"slug": club.slug, "season_pk": season.pk}),
            reverse("round", kwargs={"slug": club.slug, "round_pk": round_.pk})]
    write = [reverse("round_new", kwargs={"slug": club.slug, "season_pk": season.pk}),
             reverse("round_start", kwargs={"slug": club.slug, "round_pk": round_.pk}),
             reverse("tournament_settings", kwargs={"slug": club.slug, "season_pk": season.pk})]
    for url in read:
        assert member_client.get(url).status_code == 200
        assert outsider_client.get(url).status_code == 403
        assert client.get(url).status_code == 302
    for url in write:
        assert member_client.post(url).status_code == 403
        assert outsider_client.post(url).status_code == 403
        assert "/konto/login/" in client.post(url)["Location"]
    assert not round_.matches.exists()
    page = member_client.get(read[1]).content.decode()
    assert "Brigitte" in page and reverse("round_start", kwargs={"slug": club.slug, "round_pk": round_.pk}) not in page


def test_a_league_season_sends_readers_to_its_table(member_client, secretary_client, club, evening):
    url = reverse("tournament", kwargs={"slug": club.slug, "season_pk": evening.pk})
    assert member_client.get(url)["Location"] == reverse("standings_season", kwargs={"slug": club.slug,
                                                                                      "season_pk": evening.pk})
    assert "einstellungen" in secretary_client.get(url)["Location"]


def test_back_to_a_league_keeps_the_game_clears_its_rules_and_is_refused_once_there_are_rounds(
        secretary_client, club, players, evening):
    season = make_tournament(secretary_client, club, evening, ruleset="tarot", tournament_format="6x4",
                             ranking_rule="fft")
    url = reverse("tournament_settings", kwargs={"slug": club.slug, "season_pk": season.pk})
    assert secretary_client.post(url, {"mode": "league", "ranking_rule": "ppg"}).status_code == 302
    season.refresh_from_db()
    # every season has its game: the league season now keeps Tarot's Partien
    assert (season.mode, season.ruleset, season.tournament_format, season.game_settings) == ("league", "tarot", "", {})
    season = make_tournament(secretary_client, club, season, ruleset="doppelkopf", rules="ddv", ranking_rule="tcg")
    assert (season.tournament_format, season.game_settings) == ("", {"rules": "ddv"})
    round_ = draw(secretary_client, club, season, players)
    response = secretary_client.post(url, {"mode": "league", "ranking_rule": "ppg"})
    assert "mode" in response.context["form"].errors
    start(secretary_client, club, round_)
    page = secretary_client.get(url)
    assert page.context["form"].fields["ruleset"].disabled  # the matches are under way
    assert secretary_client.post(url, {"ranking_rule": "fft"}).status_code == 302
    season.refresh_from_db()
    assert (season.ruleset, season.game_settings, season.ranking_rule) == ("doppelkopf", {"rules": "ddv"}, "fft")


def test_the_club_page_shows_the_tournament_score_and_links_the_rounds(member_client, secretary_client, club,
                                                                       players, secretary):
    today = datetime.date.today()
    season = Season.objects.create(club=club, name="Heute", start=today, end=today, mode="tournament",
                                   ruleset="doppelkopf", game_settings={"rules": "tcg"}, ranking_rule="tcg")
    round_ = Round.objects.create(season=season, number=1, date=today, seed=7)
    from league.tournaments.rounds import draw_round
    draw_round(round_, players)
    start(secretary_client, club, round_)
    for match in round_.matches.all():
        play_doppelkopf(match, table_names(match)[0], [1, 1, -1], secretary)
    page = member_client.get(club.get_absolute_url())
    table, = (t["table"] for t in page.context["current_tables"])
    assert [c.name for c in table.columns] == ["rank", "name", "tournament_score", "played"]
    assert reverse("tournament", kwargs={"slug": club.slug, "season_pk": season.pk}) in page.content.decode()


FUZZ = settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
values = st.one_of(st.text(max_size=8), st.sampled_from(
    ["", "tournament", "league", "doppelkopf", "tarot", "chaotentrumpf", "skat", "tcg", "ddv", "5x4", "9x9", "fft",
     "ppg", "2027-03-12", "2027-04-01", "31.02.2027", "1", "-1", "99999999999", "<script>", "\x00"]))


@pytest.mark.parametrize("name, fields", [
    ("tournament_settings", ["mode", "ruleset", "rules", "tournament_format", "ranking_rule"]),
    ("round_new", ["date", "players"]),
])
def test_generated_data_never_breaks_the_tournament_forms(secretary_client, club, players, evening, name, fields):
    season = make_tournament(secretary_client, club, evening, ruleset="doppelkopf", rules="tcg", ranking_rule="tcg")
    url = reverse(name, kwargs={"slug": club.slug, "season_pk": season.pk})
    ids = st.lists(st.sampled_from([m.pk for m in players] + [0, 10**9]), max_size=14)

    @FUZZ
    @given(st.fixed_dictionaries({}, optional={f: ids if f == "players" else values for f in fields}))
    def post(data):
        response = secretary_client.post(url, data)
        assert response.status_code in (200, 302), (response.status_code, data)
    post()
