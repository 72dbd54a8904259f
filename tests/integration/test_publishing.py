"""Publishing: the secretary publishes the club's results; everyone reads the season's table
at stable addresses (page, embed, CSV, JSON); the club's own website may frame the embed,
nobody else may frame anything; nothing private is ever in it."""

import csv
import datetime
import io
import json

import pytest
from django.urls import reverse

from league.models import Club, Round, Season
from protocol import matches
from tests.standings_season import NAMES
from tests.unit.builders import sweep

PRIVATE = ["getauscht", "Karten unvollständig", "wiederholt",  # reasons of a Strafe, an annulment, a DQ
           "/partien/", "schriftfuehrer", "anna@", "Gast", "kreuz-as-sticht"]


def addresses(club, season):
    kwargs = {"slug": club.slug, "season_pk": season.pk}
    return {name: reverse(name, kwargs=kwargs) for name in ("public_season", "public_embed", "public_csv", "public_json")}


@pytest.fixture
def published(member_user, club, known_season):
    member_user.email = "anna@example.org"
    member_user.save()
    club.published = True
    club.embed_origins = "https://www.ctv-nuertingen.example\nhttps://ctv.example:8443"
    club.save()
    return club


def test_an_unpublished_club_has_no_public_addresses(club, known_season, client):
    for name, url in addresses(club, known_season).items():
        assert client.get(url).status_code == 404, name
    assert client.get(reverse("public_index", kwargs={"slug": club.slug})).status_code == 404


def test_a_season_of_another_club_is_not_found_under_a_published_one(published, client):
    other = Club.objects.create(name="Skatfreunde", slug="skat", published=True)
    assert client.get(addresses(other, published.seasons.get())["public_season"]).status_code == 404


def test_the_public_page_shows_the_table_to_anyone_and_nothing_private(published, known_season, client):
    page = client.get(addresses(published, known_season)["public_season"])
    assert page.status_code == 200
    html = page.content.decode()
    for name in NAMES:
        assert f'<th scope="row">{name}</th>' in html
    for private in PRIVATE:
        assert private not in html, private
    assert page["X-Frame-Options"] == "DENY" and "frame-ancestors 'none'" in page["Content-Security-Policy"]
    index = client.get(reverse("public_index", kwargs={"slug": published.slug})).content.decode()
    assert addresses(published, known_season)["public_season"] in index


def test_the_embed_page_may_be_framed_by_the_club_website_only(published, known_season, client):
    response = client.get(addresses(published, known_season)["public_embed"])
    assert response.status_code == 200
    assert "X-Frame-Options" not in response  # the CSP below decides; every other page says DENY
    policy = dict(part.strip().split(" ", 1) for part in response["Content-Security-Policy"].split(";"))
    assert policy["frame-ancestors"] == "'self' https://www.ctv-nuertingen.example https://ctv.example:8443"
    assert policy["script-src"] == "'self'"  # the rest of the policy stays strict
    assert "Set-Cookie" not in response and "<nav" not in response.content.decode()


def test_the_csv_is_the_table_with_stable_keys(published, known_season, client):
    response = client.get(addresses(published, known_season)["public_csv"])
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Access-Control-Allow-Origin"] == "*"
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert [r["name"] for r in rows] == ["Anna", "Bernd", "Dieter", "Carla"]
    anna = rows[0]
    assert (anna["rank"], anna["played"], anna["won"], anna["games"], anna["points"]) == ("1", "3", "2", "7", "2327")
    assert anna["points_per_game"] == str(round(2327 * 100 / 7))
    assert list(rows[0]) == ["rank", "name", "played", "won", "games", "points", "points_per_game"]
    for private in PRIVATE:
        assert private not in response.content.decode("utf-8-sig"), private


def test_the_json_is_the_same_table(published, known_season, client):
    response = client.get(addresses(published, known_season)["public_json"])
    assert response["Content-Type"] == "application/json"
    document = json.loads(response.content)
    assert document["format"] == "trumpfbuch-tabelle/1"
    assert document["club"] == {"name": "1. CTV gegen alles!", "place": "Nürtingen"}
    assert document["season"]["name"] == "2026" and document["season"]["game"] == "chaotentrumpf"
    assert document["url"].endswith(addresses(published, known_season)["public_season"])
    assert [(r["rank"], r["name"], r["points"]) for r in document["rows"]] == [
        (1, "Anna", 2327), (2, "Bernd", 2183), (3, "Dieter", -979), (4, "Carla", -1379)]
    assert set(document["rows"][0]) == {"rank", "name", "played", "won", "games", "points", "points_per_game"}
    for private in PRIVATE:
        assert private not in response.content.decode(), private


def test_a_name_that_looks_like_a_formula_stays_a_name_in_the_csv(published, known_season, client):
    published.members.filter(name="Carla").update(name="=1+1")
    rows = list(csv.reader(io.StringIO(client.get(addresses(published, known_season)["public_csv"])
                                       .content.decode("utf-8-sig"))))
    assert ["'=1+1"] == [row[1] for row in rows if "1+1" in row[1]]


def test_a_tournament_publishes_its_score_and_rounds(club, table, client, secretary):
    club.published = True
    club.save()
    tournament = Season.objects.create(club=club, name="Turnier 2014", start=datetime.date(2026, 1, 1),
                                       end=datetime.date(2026, 12, 31), mode=Season.Mode.TOURNAMENT,
                                       ranking_rule=Season.RankingRule.TCG)
    first = Round.objects.create(season=tournament, number=1, date=datetime.date(2026, 3, 1), seed=7)
    matches.create_match(club=club, season=tournament, round=first, table_number=1, date=first.date,
                          members=table, scorekeeper=table[0], settings={}, events=[sweep()])
    document = json.loads(client.get(addresses(club, tournament)["public_json"]).content)
    assert document["season"]["mode"] == "tournament"
    assert document["rounds"] == [{"number": 1, "date": "2026-03-01"}]
    assert document["rows"][0]["name"] == "Anna" and document["rows"][0]["tournament_score"] == "124800.0"  # 1248 in 1 Spiel x 100
    page = client.get(addresses(club, tournament)["public_season"]).content.decode()
    assert "Runde 1 am 1. März 2026" in page


# -- the secretary's settings ---------------------------------------------------------------------

def test_the_secretary_publishes_and_lists_the_websites(club, secretary_client, client, known_season):
    url = reverse("publishing_settings", kwargs={"slug": club.slug})
    response = secretary_client.post(url, {"published": "on",
                                           "embed_origins": "https://WWW.Verein.example/\n\nhttps://verein.example:8443"})
    assert response.status_code == 302
    club.refresh_from_db()
    assert club.published and club.embed_origins == "https://www.verein.example\nhttps://verein.example:8443"
    page = secretary_client.get(url).content.decode()
    assert addresses(club, known_season)["public_embed"] in page  # the iframe code to copy
    assert client.get(addresses(club, known_season)["public_season"]).status_code == 200

    secretary_client.post(url, {"embed_origins": ""})  # unticked: published no more
    assert client.get(addresses(club, known_season)["public_json"]).status_code == 404


@pytest.mark.parametrize("origin", [
    "http://verein.example", "https://verein.example/tabelle", "https://*.verein.example",
    "https://verein.example; script-src *", "verein.example", "https://verein.example:99999",
    "https://'self'",
])
def test_a_website_address_that_is_no_https_origin_is_refused_naming_it(club, secretary_client, origin):
    url = reverse("publishing_settings", kwargs={"slug": club.slug})
    response = secretary_client.post(url, {"published": "on", "embed_origins": f"https://ok.example\n{origin}"})
    assert response.status_code == 400
    assert "Zeile 2" in response.content.decode() and "https://host[:port]" in response.content.decode()
    assert "Öffentliche Adressen" not in response.content.decode()  # the page shows what is stored
    club.refresh_from_db()
    assert not club.published and club.embed_origins == ""  # nothing half-saved


def test_only_the_secretary_changes_the_publishing(club, member_client, outsider_client, client):
    url = reverse("publishing_settings", kwargs={"slug": club.slug})
    assert member_client.post(url, {"published": "on"}).status_code == 403
    assert outsider_client.get(url).status_code == 403
    assert client.get(url)["Location"].startswith(reverse("login"))
    club.refresh_from_db()
    assert not club.published


def test_the_rating_list_is_published_only_if_the_club_chooses(published, known_season, client, secretary_client):
    from league.ratings import ledger

    ledger.refresh(published, "chaotentrumpf")
    url = addresses(published, known_season)["public_season"]
    assert "Wertungsliste" not in client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    settings_url = reverse("publishing_settings", kwargs={"slug": published.slug})
    assert "Auch die Wertungsliste veröffentlichen" in secretary_client.get(settings_url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    saved = secretary_client.post(settings_url, {"published": "on", "published_ratings": "on",
                                                 "embed_origins": published.embed_origins})
    assert saved.status_code == 302
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    ratings = html[html.index('id="public-ratings-title"'):]
    assert "Wertungsliste" in ratings and '<th scope="row">Anna' in ratings  # Anna won twice: first
    assert ratings.index("Anna") < ratings.index("Dieter")
    for private in PRIVATE:
        assert private not in html, private
    assert "Rating list" in client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
