"""Bad input everywhere: generated form data, files and URLs never cause a 500, and a refused
request leaves the database as it was."""

import json
import os

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from league.models import Member, Season
from protocol.games.chaotentrumpf.forms import MAX_INVERSIONS
from protocol.models import Change, Event, Lot, Match

# Texts the free-text boundary (protocol.rules.text) refuses, or must store and export exactly:
# control characters, NUL, invisibles, names differing only by case or lookalike letters,
# formula prefixes, decomposed umlauts, overlong names: every stored free text passes league/registry/texts.py.
NASTY_TEXTS = st.one_of(
    st.sampled_from(["Gast\x01X", "Anna\x1f", "\x7f", "\x1b[31m", "\u200b", "\u202eabc", "\ufeff", "bernd", "ANNA",
                     "\u0410nna", "S\u0430bine", "Max, Max", "Max, max", "=1+1", "+49", "-x", "@home",
                     '=HYPERLINK("http://x?"&A2&B2,"D")', "#N/A", "Jo\u0308rg", "x" * 81, "Gast\x00"]),
    st.text(st.characters(categories=["Cc", "Cf", "Zs"]), min_size=1, max_size=4),
    st.tuples(st.sampled_from(["", "=", "+", "-", "@"]), st.text(max_size=6)).map("".join))
# In a file, JSON can also spell lone surrogates ("\ud800"); a browser never sends them.
NASTY_FILE_TEXTS = st.one_of(NASTY_TEXTS, st.sampled_from(["Gast\ud800", "\udfff", "A\ud83dB"]))

values = st.one_of(
    NASTY_TEXTS,
    st.text(max_size=12), st.integers(-10**20, 10**20).map(str), st.sampled_from(
        ["", "0", "-1", "3", "10", "156", "1e9", "NaN", "∞", "suit:Pik", "rank:A", "card", "colour:rot",
         "Anna", "Bernd", "Zora", "normal", "totalultra", "X8 H8 P7", "KD", "on", "penalty", "warning",
         "time", "2026-11-20", "31.02.2026", "9999-12-31", "0001-01-01", "1949-12-31", "2999-01-01", "9" * 5000, "<script>", "' OR 1=1 --", "\x00"]))

GAME_FIELDS = (["trump_mode", "trump", "selection_cards", "selection_agreed", "annulled", "annul_reason",
                "version", "submission", "position"]
               + [f"p{i}_{f}" for i in range(5) for f in ("tricks", "points", "trumps")]
               + [f"inv{j}_{f}" for j in range(MAX_INVERSIONS) for f in ("player", "declared", "target", "card")])
FORMS = {
    "game_new": GAME_FIELDS,
    "game_preview": GAME_FIELDS,
    "sanction_new": ["kind", "player", "points", "reason", "decided_by", "version", "submission"],
    "end": ["reason", "version"],
    "annul": ["reason", "version"],
    "settings": ["limit", "cards_per_deal", "decks", "no_trump_points", "no_trick_points",
                 "scorekeeper_skips_shuffling", "max_games", "reason", "version"],
    "lot_new": ["purpose", "f0", "f1", "f2", "f3"],
    "entry_correct": GAME_FIELDS + ["why-reason", "why-version"],
    "entry_remove": ["reason", "version"],
    "game_annul": ["reason", "version"],
}
CLUB_FORMS = {
    "new": ["date", "place", "season", "guests", "scorekeeper", "limit", "cards_per_deal", "decks",
            "no_trump_points", "no_trick_points", "max_games"] + [f"seat{i}" for i in range(10)],
}
OK = {200, 302, 403, 404, 405, 409}


def dates_are_plausible():
    """Every stored date lies in the plausible range (protocol/rules/dates.py)."""
    from league.models import Member as M
    from protocol.rules.dates import is_plausible
    stored = (list(Match.objects.values_list("date", flat=True)) + list(Season.objects.values_list("start", flat=True))
              + list(Season.objects.values_list("end", flat=True))
              + [d for d in M.objects.values_list("joined", flat=True) if d])
    return all(is_plausible(d) for d in stored)


def snapshot():
    return (Match.objects.count(), Event.objects.count(), Change.objects.count(), Lot.objects.count(),
            Member.objects.count(), Season.objects.count(),
            list(Match.objects.values_list("version", "status", "settings")))


def assert_stored_texts_pass():
    """Whatever a request stored passes the text boundary, and the exports still work."""
    from league.models import Club
    from league.spreadsheets.exports import season_xlsx
    from protocol.records.text_audit import stored_text_problems
    assert [f.line() for f in stored_text_problems()] == []
    for club in Club.objects.all():
        season_xlsx(club, None)


def form_data(fields):
    return st.fixed_dictionaries({}, optional={f: values for f in fields})


@pytest.fixture
def played(running_match, secretary):
    from protocol import recording
    from tests.unit.builders import quiet
    recording.add_event(running_match, "game", quiet()["game"], user=secretary)
    running_match.refresh_from_db()
    return running_match


FUZZ = settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))


@pytest.mark.parametrize("name", list(FORMS))
def test_generated_form_data_never_breaks_a_match_form(secretary_client, played, name):
    kwargs = {"slug": played.club.slug, "pk": played.pk}
    if name in ("entry_correct", "entry_remove", "game_annul"):
        kwargs["position"] = 0
    url = reverse(f"protocol:{name}", kwargs=kwargs)

    @FUZZ
    @given(form_data(FORMS[name]))
    def post(data):
        before = snapshot()
        response = secretary_client.post(url, data)
        assert response.status_code in OK, (response.status_code, data)
        if response.status_code != 302 or name == "game_preview":
            assert snapshot() == before, data
        else:
            assert_stored_texts_pass()
    post()


def test_generated_data_never_breaks_the_new_match_form(secretary_client, played):
    url = reverse("protocol:new", kwargs={"slug": played.club.slug})

    @FUZZ
    @given(form_data(CLUB_FORMS["new"]))
    def post(data):
        before = snapshot()
        response = secretary_client.post(url, data)
        assert response.status_code in OK
        if response.status_code != 302:
            assert snapshot() == before
        else:
            assert_stored_texts_pass()
        assert dates_are_plausible(), data
    post()


def test_generated_names_and_reasons_in_a_file_are_refused_or_stored_as_the_boundary_allows(secretary_client, played):
    import json

    from django.core.files.uploadedfile import SimpleUploadedFile

    from tests.unit.builders import quiet
    url = reverse("protocol:import", kwargs={"slug": played.club.slug})
    names = st.one_of(NASTY_FILE_TEXTS, st.sampled_from(["Anna", "Bernd", "Zora", "Gerda", "Holger"]))

    @FUZZ
    @given(st.lists(names, min_size=4, max_size=4), st.one_of(NASTY_FILE_TEXTS, st.just("laut")),
           st.one_of(NASTY_FILE_TEXTS, st.just("Nürtingen")))
    def upload(players, reason, place):
        doc = {"format": "protocol/1", "ruleset": "chaotentrumpf", "date": "2026-11-20", "place": place,
               "players": players, "scorekeeper": players[0], "settings": {},
               "events": [quiet(players), {"warning": {"player": players[1], "reason": reason}}]}
        before = snapshot()
        raw = json.dumps(doc).encode()  # ASCII: control characters, NUL and surrogates as \u escapes
        response = secretary_client.post(url, {"file": SimpleUploadedFile("p.json", raw)})
        assert response.status_code in OK
        if response.status_code != 302:
            assert snapshot() == before
            assert "nicht importiert" in response.content.decode()
        else:
            assert_stored_texts_pass()
    upload()


def test_generated_and_corrupted_files_never_break_the_importer(secretary_client, played):
    from django.core.files.uploadedfile import SimpleUploadedFile
    url = reverse("protocol:import", kwargs={"slug": played.club.slug})
    sample = (__import__("pathlib").Path(__file__).resolve().parents[1] / "data" / "stechen.json").read_bytes()

    @FUZZ
    @given(st.one_of(st.binary(max_size=300), st.integers(0, len(sample) - 1).flatmap(
        lambda cut: st.binary(max_size=8).map(lambda junk: sample[:cut] + junk + sample[cut + 8:]))))
    def upload(raw):
        before = snapshot()
        response = secretary_client.post(url, {"file": SimpleUploadedFile("p.json", raw)})
        assert response.status_code in OK
        if response.status_code != 302:
            assert snapshot() == before
            assert "nicht importiert" in response.content.decode() or "errorlist" in response.content.decode()
    upload()


SAMPLE = (__import__("pathlib").Path(__file__).resolve().parents[1] / "data" / "stechen.json").read_text()

# Values a JSON file can hold that no protocol can: nesting deeper than anything before
# (Python's own recursion limit is about 1000), whole numbers beyond 64 bits, NaN/Infinity.
nested = st.tuples(st.integers(41, 1200), st.sampled_from(["[]", "{}"])).map(
    lambda d: "".join('{"a": ' if b == "{}" else "[" for b in [d[1]] * d[0]) + "0"
    + "".join("}" if d[1] == "{}" else "]" for _ in range(d[0])))
huge = st.one_of(st.integers(20, 6000).map(lambda n: "9" * n), st.integers(20, 6000).map(lambda n: "-1" + "0" * n),
                 st.sampled_from(["9223372036854775808", "1e400", "-1e999", "NaN", "Infinity", "-Infinity"]))
impossible_values = st.one_of(nested, huge)


@pytest.fixture
def spots():
    """Places in the sample protocol where a value can be swapped for another."""
    return ['"settings": {}', '"tricks": 3', '"points": 0', '"agreed": false', '"player": "Anna"']


def test_deep_nesting_and_huge_numbers_never_break_the_importer(secretary_client, played, spots):
    from django.core.files.uploadedfile import SimpleUploadedFile
    url = reverse("protocol:import", kwargs={"slug": played.club.slug})
    assert all(spot in SAMPLE for spot in spots)

    @FUZZ
    @given(st.sampled_from(spots), impossible_values)
    def upload(spot, value):
        key = spot.split(":")[0]
        raw = SAMPLE.replace(spot, f"{key}: {value}", 1).encode()
        before = snapshot()
        response = secretary_client.post(url, {"file": SimpleUploadedFile("p.json", raw)})
        assert response.status_code == 200, (spot, value[:30])
        assert snapshot() == before
        page = response.content.decode()
        assert "zu tief verschachtelt" in page or "enthält" in page, (spot, value[:30])
    upload()


ODD = ["0", "99999999999999999999999999", "-1", "abc", "%00", "..%2F..", "1.5", "😀", "18446744073709551616"]


@pytest.mark.parametrize("odd", ODD)
def test_odd_values_in_urls_are_404_never_500(secretary_client, played, odd):
    slug, pk = played.club.slug, played.pk
    for path in (f"/verein/{slug}/partien/{odd}/", f"/verein/{slug}/partien/{pk}/eintrag/{odd}/korrigieren/",
                 f"/verein/{slug}/partien/{pk}/los/{odd}/", f"/verein/{odd}/", f"/verein/{odd}/partien/{pk}/",
                 f"/verein/{slug}/partien/{pk}/spiel/?position={odd}"):
        response = secretary_client.get(path)
        assert response.status_code in (200, 404), (path, response.status_code)
    response = secretary_client.post(f"/verein/{slug}/partien/{pk}/spiel/vorschau/", {"position": odd})
    assert response.status_code in (200, 404)


def test_complete_but_wrong_spiele_are_refused_by_the_rules_not_by_a_crash(secretary_client, played):
    url = reverse("protocol:game_new", kwargs={"slug": played.club.slug, "pk": played.pk})
    numbers = st.integers(-3, 400).map(str)
    line = {f"p{i}_{f}": numbers for i in range(4) for f in ("tricks", "points", "trumps")}
    trumps = st.sampled_from(["suit:Pik", "rank:A", "colour:rot", "rank:9", "suit:Karo", "card:KD", "", "x"])
    inversion = {"inv0_player": st.sampled_from(["", "Anna", "Bernd", "Zora"]),
                 "inv0_declared": st.sampled_from(["", "normal", "total", "ultra", "totalultra", "mega"]),
                 "inv0_target": st.sampled_from(["", "suit:Herz", "rank:7", "colour:schwarz", "card"]),
                 "inv0_card": st.sampled_from(["", "KD", "X10", "ZZ"])}

    @FUZZ
    @given(st.fixed_dictionaries({"trump_mode": st.just("direct"), "trump": trumps, **line, **inversion,
                                  "annulled": st.sampled_from(["", "on"]), "annul_reason": st.text(max_size=5)}))
    def post(data):
        played.refresh_from_db()
        data["version"] = played.version
        before = snapshot()
        response = secretary_client.post(url, data)
        assert response.status_code in OK
        if response.status_code == 200:
            assert snapshot() == before
            assert "errorlist" in response.content.decode()
    post()


LEAGUE_FORMS = {
    "member_add": ["name", "is_guest", "active", "joined", "username"],
    "season_add": ["name", "start", "end", "ranking_rule"],
    "club_settings": ["name", "place", "standings_public"],
    "secretary_add": ["username"],
}


@pytest.mark.parametrize("name", list(LEAGUE_FORMS))
def test_generated_data_never_breaks_the_secretarys_forms(secretary_client, played, name):
    url = reverse(name, kwargs={"slug": played.club.slug})

    @FUZZ
    @given(form_data(LEAGUE_FORMS[name]))
    def post(data):
        before = snapshot()
        response = secretary_client.post(url, data)
        assert response.status_code in OK, (response.status_code, data)
        if response.status_code == 200:
            assert snapshot() == before
        assert_stored_texts_pass()
        assert dates_are_plausible(), data
    post()


def test_generated_uploads_never_break_the_season_import_and_save_nothing_in_the_request(secretary_client, played):
    """Whatever comes in, the upload page answers with a form error or starts a dry run (a
    background job); nothing of the club changes in the request."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    url = reverse("season_import", kwargs={"slug": played.club.slug})

    @FUZZ
    @given(st.binary(max_size=300), st.text(max_size=20), form_data(["season", "confirm"]))
    def post(content, name, data):
        before, jobs = snapshot(), played.club.jobs.count()
        # Django's own file object refuses a name without a file name ("/", ".."): the test
        # client could not send it, and a browser sends none such.
        upload = SimpleUploadedFile(name if os.path.basename(name) not in {"", ".", ".."} else "x", content)
        response = secretary_client.post(url, data | {"file": upload})
        assert response.status_code in {200, 302}, (response.status_code, data)
        assert snapshot() == before
        if response.status_code == 302:  # started the dry run, to be read by a worker
            assert played.club.jobs.count() == jobs + 1 and "/auftrag/" in response["Location"]
    post()


@pytest.mark.parametrize("name, fields", [
    ("protocol:blank_pdf", ["spiel", "count", "players", "scorekeeper"]),
    ("archive", ["season", "member", "status", "date_after", "date_before", "date_min", "date_max", "sort", "page",
                 "per_page"]),
    ("standings", ["saison", "sort", "page", "per_page"]),
])
def test_odd_query_parameters_never_break_a_page(secretary_client, played, name, fields):
    url = reverse(name, kwargs={"slug": played.club.slug})

    @FUZZ
    @given(form_data(fields))
    def get(params):
        response = secretary_client.get(url, params)
        assert response.status_code in OK | {400}, (response.status_code, params)
    get()


@pytest.mark.parametrize("name", ["archive", "standings"])
@pytest.mark.parametrize("per_page", ["-1", "0", "100000"])
def test_an_impossible_number_of_rows_per_page_is_not_found_never_500(secretary_client, played, name, per_page):
    response = secretary_client.get(reverse(name, kwargs={"slug": played.club.slug}), {"per_page": per_page})
    assert response.status_code == 404


@pytest.mark.parametrize("name", ["archive", "standings"])
def test_a_sensible_number_of_rows_per_page_is_shown(secretary_client, played, name):
    response = secretary_client.get(reverse(name, kwargs={"slug": played.club.slug}), {"per_page": "10"})
    assert response.status_code == 200


@pytest.mark.parametrize("day", ["9999-12-31", "1949-12-31"])
def test_a_match_or_season_dated_9999_or_before_1950_is_refused_at_the_date(secretary_client, played, day):
    from tests.integration.pages import new_match_post
    club = played.club
    names = list(club.members.values_list("name", flat=True))[:4]
    scorekeeper = club.members.get(name=names[0]).pk
    before = snapshot()
    response = secretary_client.post(reverse("protocol:new", kwargs={"slug": club.slug}),
                                     new_match_post(club, names, scorekeeper, date=day))
    assert response.status_code == 200 and "kann nicht stimmen" in response.content.decode()
    response = secretary_client.post(reverse("season_add", kwargs={"slug": club.slug}),
                                     {"name": "Fern", "start": "2026-01-01", "end": day, "ranking_rule": "ppg"})
    assert response.status_code == 200 and "kann nicht stimmen" in response.content.decode()
    assert snapshot() == before


def test_a_protocol_file_dated_9999_is_not_imported_and_the_member_page_stays(secretary_client, played):
    from django.core.files.uploadedfile import SimpleUploadedFile
    club = played.club
    doc = json.loads(SAMPLE)
    doc["date"] = "9999-12-31"
    raw = json.dumps(doc).encode()
    before = snapshot()
    response = secretary_client.post(reverse("protocol:import", kwargs={"slug": club.slug}),
                                     {"file": SimpleUploadedFile("p.json", raw)})
    assert "Das Datum 31.12.9999 kann nicht stimmen" in response.content.decode()
    assert snapshot() == before
    member = club.members.get(name="Anna")
    page = secretary_client.get(reverse("member_page", kwargs={"slug": club.slug, "member_pk": member.pk}),
                                {"saison": "alle"})
    assert page.status_code == 200
