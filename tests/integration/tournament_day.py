"""A tournament as the secretary starts it through the pages, for the tests of the tournament day."""

import datetime

from django.urls import reverse

from league.models import Member, Season
from tests.conftest import saved
from tests.integration.doppelkopf import dk_post
from tests.integration.pages import url

DAY = datetime.date(2027, 3, 12)
NAMES = ["Brigitte", "Achim", "Dagmar", "Egon", "Frieda", "Gerd", "Hanne"]  # with Anna: two tables of four


def eight_at_two_tables(secretary_client, club) -> dict:
    """A Doppelkopf tournament (TCG) of Anna and ``NAMES``: round 1 drawn to two tables, their
    matches created. Returns its season, round and matches by table number."""
    players = [Member.objects.get(club=club, name="Anna")] + [Member.objects.create(club=club, name=n) for n in NAMES]
    season = Season.objects.create(club=club, name="Vereinsturnier", start=DAY, end=DAY)
    response = secretary_client.post(reverse("tournament_settings", kwargs={"slug": club.slug, "season_pk": season.pk}),
                                     {"mode": "tournament", "ruleset": "doppelkopf", "rules": "tcg", "ranking_rule": "tcg"})
    assert response.status_code == 302
    response = secretary_client.post(reverse("round_new", kwargs={"slug": club.slug, "season_pk": season.pk}),
                                     {"date": DAY.isoformat(), "players": [m.pk for m in players]})
    assert response.status_code == 302
    round_ = season.rounds.get()
    assert secretary_client.post(reverse("round_start", kwargs={"slug": club.slug, "round_pk": round_.pk})).status_code == 302
    matches = {m.table_number: m for m in round_.matches.all()}
    assert sorted(matches) == [1, 2]
    return {"season": season, "round": round_, "matches": matches}


def doppelkopf_day(club, names, day=DAY) -> Season:
    """A Doppelkopf tournament (TCG) of the club with the members ``names`` (created), before its first round."""
    Member.objects.bulk_create([Member(club=club, name=name) for name in names])
    return Season.objects.create(club=club, name="Turniertag", start=day, end=day, mode=Season.Mode.TOURNAMENT,
                                 ruleset="doppelkopf", game_settings={"rules": "tcg"},
                                 ranking_rule=Season.RankingRule.TCG)


def finish(client, match):
    """The table's Protokollant saves a Spiel and ends the Partie, through the server."""
    match.refresh_from_db()
    names = [s.name for s in match.seats.all()]
    assert saved(client.post(url(match, "game_new"), dk_post(match, dealer=names[0], re=names[:2], re_points=121)), match)
    match.refresh_from_db()
    assert client.post(url(match, "end"), {"reason": "games", "version": match.version}).status_code == 302
