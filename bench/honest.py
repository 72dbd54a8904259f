"""The honest bench: every figure and its floor timed interleaved, in the same rounds.

Background load on a shared machine moves a figure and a floor timed minutes apart by 2x;
timed in alternation (figure, floor, floor, figure, ...) they see the same load, so their
ratio holds still. Each pair reports both medians, their spread (the 25th to 75th
percentile) and the ratio of the medians. Pages run in-process through Django's test client
with DEBUG off, a signed-in user and CSRF checks on (the token from the cookie a GET set),
against the floors of :mod:`bench.floors` (``bench.floor_urls``).
"""

from __future__ import annotations

import datetime
import json
import statistics
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

FORM_ENCODED = "application/x-www-form-urlencoded"


def spread(times: list[float]) -> tuple[float, float]:
    if len(times) < 4:
        return min(times), max(times)
    q = statistics.quantiles(times, n=4)
    return q[0], q[2]


def _backend_pid() -> int | None:
    """The PostgreSQL backend serving this process's connection (None: SQLite, in-process)."""
    from django.db import connection

    if connection.vendor != "postgresql" or connection.connection is None:
        return None
    return connection.connection.info.backend_pid


def cpu_clock() -> float:
    """CPU seconds spent so far by this process and by its database backend: a shared machine's
    other work moves the wall clock, not these. SQLite runs inside the process; PostgreSQL's
    backend is a process of its own, its CPU read from /proc/<pid>/schedstat (nanoseconds)."""
    spent = time.process_time()
    pid = _backend_pid()
    if pid is not None:
        try:
            spent += int(Path(f"/proc/{pid}/schedstat").read_text().split()[0]) / 1e9
        except OSError:
            pass
    return spent


def children_cpu() -> float:
    """CPU seconds spent by this process's finished children (a command run as a process)."""
    import resource

    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def interleaved(figure, floor, rounds: int, budget: float = 20.0, before=None, clock=cpu_clock) -> dict:
    """Time ``figure`` and ``floor`` alternately (the order flips every round) in CPU time of
    the process and its database backend (:func:`cpu_clock`), after one warm-up each; fewer
    rounds (at least three) once ``budget`` seconds of wall clock are spent. ``before``
    (emptying the cache for a cold page) runs ahead of each, untimed."""
    figure()
    floor()
    times: dict[str, list[float]] = {"figure": [], "floor": []}
    started = time.perf_counter()
    for n in range(rounds):
        pair = [("figure", figure), ("floor", floor)]
        for name, fn in pair if n % 2 == 0 else reversed(pair):
            if before:
                before()
            t = clock()
            fn()
            times[name].append(clock() - t)
        if n >= 2 and time.perf_counter() - started > budget:
            break
    fig, flo = statistics.median(times["figure"]), statistics.median(times["floor"])
    return {"figure": fig, "floor": flo, "ratio": fig / flo if flo else None, "rounds": len(times["figure"]),
            "figure_spread": spread(times["figure"]), "floor_spread": spread(times["floor"]), "clock": "cpu"}


class SignedIn:
    """A test client of a signed-in user with CSRF checks on, as a browser is."""

    def __init__(self, user):
        from django.test import Client

        self.client = Client(enforce_csrf_checks=True)
        self.client.force_login(user)

    def get(self, url, **kw):
        response = self.client.get(url, **kw)
        assert response.status_code == 200, (url, response.status_code)
        return response

    def post(self, url, data, follow=False, expect=(200, 302)):
        """A form's POST as the browser sends it: URL-encoded (the site's forms but the two file
        uploads have no ``enctype``; htmx posts the same), not the test client's multipart."""
        if "csrftoken" not in self.client.cookies:
            self.client.get("/")
        data = dict(data, csrfmiddlewaretoken=self.client.cookies["csrftoken"].value)
        response = self.client.post(url, urlencode(data, doseq=True), content_type=FORM_ENCODED, follow=follow)
        assert response.status_code in expect, (url, response.status_code)
        return response


def unchanged(browser, url, etag):
    """The poll of a state the browser has (``etag``): a bodiless 304."""
    response = browser.client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 304, (url, response.status_code)
    return response


def _secretary(club, name):
    from django.contrib.auth import get_user_model

    user, _ = get_user_model().objects.get_or_create(username=name)
    club.secretaries.add(user)
    return user


def _partie(club, names_count: int, games: int, seed: int):
    """A running Partie of ``names_count`` members with ``games`` Spiele, and its next Spiel."""
    from bench.measure import _long_partie
    from protocol import matches

    members = list(club.members.order_by("name")[:names_count])
    names = [m.name for m in members]
    _, first, nxt = _long_partie(names, games, seed=seed)
    match = matches.create_match(club=club, date=datetime.date(2025, 12, 31), members=members,
                                 scorekeeper=members[0], settings={"limit": 5000}, events=first)
    return match, names, nxt


def page_bytes(client, url) -> dict:
    """A page's bytes as sent to a browser that accepts gzip, and uncompressed."""
    import gzip

    plain = client.get(url).content
    sent = client.get(url, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    zipped = sent.content if sent.get("Content-Encoding") == "gzip" else None
    if zipped is not None:  # what the browser unpacks is the page
        assert len(gzip.decompress(zipped)) == len(plain), url
    return {"html": len(plain), "gzip": len(zipped) if zipped is not None else None}


def measure_pages(prefix: str, rounds: int) -> dict:
    """Every page a user waits for against its honest floor, interleaved (see the module
    docstring); ``out["bytes"]`` each page's size as sent (gzip) and uncompressed."""
    from django.conf import settings
    from django.core.cache import cache
    from django.test.utils import override_settings
    from django.urls import reverse

    from bench import floors
    from league.models import Club
    from league.standings import games
    from protocol import engine_state, reading
    from protocol.games.chaotentrumpf.forms import GameForm
    from protocol.views import sync

    club = Club.objects.get(slug=f"{prefix.lower()}-1")
    season = club.seasons.order_by("-start").first()
    user = _secretary(club, f"bench-{prefix.lower()}")
    out: dict = {}
    sizes: dict = {}
    with override_settings(DEBUG=False, ROOT_URLCONF="bench.floor_urls"):
        assert not settings.DEBUG
        browser = SignedIn(user)
        ok = browser.get

        def cached_floor(name: str, url: str) -> str:
            """The page's bytes kept for its floor (bench.floors.cached); the floor's URL."""
            response = ok(url)
            floors.keep_bytes(name, response.content, response.get("ETag"))
            return reverse("bench_cached", kwargs={"name": name})

        standings = reverse("standings_season", kwargs={"slug": club.slug, "season_pk": season.pk})
        aggregate = reverse("bench_aggregate", kwargs={"club_pk": club.pk, "season_pk": season.pk})
        standings_floor = cached_floor(f"standings-{club.pk}", standings)
        out["standings (cached)"] = interleaved(lambda: ok(standings), lambda: ok(standings_floor), rounds)
        sizes["standings"] = page_bytes(browser.client, standings)
        out["standings (cold)"] = interleaved(lambda: ok(standings), lambda: ok(aggregate), rounds, before=cache.clear)
        all_time = reverse("standings_all_time", kwargs={"slug": club.slug})  # the first game in play
        all_time_floor = reverse("bench_aggregate_all_time", kwargs={"club_pk": club.pk, "game": games.in_play(club)[0]})
        out["all-time table (cold)"] = interleaved(lambda: ok(all_time), lambda: ok(all_time_floor),
                                                   max(3, rounds // 3), before=cache.clear)
        member = season_member(club, season)
        member_url = reverse("member_page", kwargs={"slug": club.slug, "member_pk": member.pk}) + f"?saison={season.pk}"
        # As members open it between club evenings (kept: its floor the same bytes from the
        # cache), and the first opening after a Partie finished (everything computed anew).
        floor_kwargs = {"club_pk": club.pk, "season_pk": season.pk, "member_pk": member.pk}
        member_cold = reverse("bench_member_cold", kwargs=floor_kwargs)
        member_floor = cached_floor(f"member-{member.pk}", member_url)
        out["member page (season)"] = interleaved(lambda: ok(member_url), lambda: ok(member_floor), rounds)
        out["member page (season, cold)"] = interleaved(lambda: ok(member_url), lambda: ok(member_cold),
                                                        max(3, rounds // 2), before=cache.clear)
        # The same page once the club rates its members (his figure, its chart, his partners).
        out["member page with ratings (season)"], rated = _with_ratings(club, member, member_url, browser, rounds)
        sizes["member page (ratings)" if rated else "member page"] = page_bytes(browser.client, member_url)
        archive = reverse("archive", kwargs={"slug": club.slug})
        archive_floor = reverse("bench_archive", kwargs={"club_pk": club.pk})
        out["archive page 1"] = interleaved(lambda: ok(archive), lambda: ok(archive_floor), rounds)
        sizes["archive page 1"] = page_bytes(browser.client, archive)

        match, names, nxt = _partie(club, 7, 60, seed=7)
        match_url = reverse("protocol:match", kwargs={"slug": club.slug, "pk": match.pk})
        poll = reverse("protocol:sheet", kwargs={"slug": club.slug, "pk": match.pk})
        for name, url in (("match", match_url), ("poll", poll)):
            response = ok(url)
            floors.keep_bytes(f"{name}-{match.pk}:{match.version}", response.content, response.get("ETag"))
        match_floor = reverse("bench_checked", kwargs={"pk": match.pk, "name": f"match-{match.pk}"})
        poll_floor = reverse("bench_checked", kwargs={"pk": match.pk, "name": f"poll-{match.pk}"})
        out["match page, 7 players, 60 Spiele"] = interleaved(lambda: ok(match_url), lambda: ok(match_floor), rounds)
        sizes["match page, 7 players, 60 Spiele"] = page_bytes(browser.client, match_url)
        out["match page, 7 players, 60 Spiele"]["html_kb"] = sizes["match page, 7 players, 60 Spiele"]["html"] / 1024
        # A changed state: the first phone to ask renders it (its kept fragment forgotten before
        # each round); the table's other phones and the members following it with the same
        # rights are sent those bytes (protocol.views.state_tag.shared_key).
        fragment = _fragment_key(user, poll)

        def forget_fragment():
            cache.delete(fragment)

        out["state poll (sheet fragment)"] = interleaved(lambda: ok(poll), lambda: ok(poll_floor), rounds,
                                                         before=forget_fragment)
        out["state poll, the table's other phones"] = interleaved(lambda: ok(poll), lambda: ok(poll_floor), rounds)
        sizes["state poll (sheet fragment)"] = page_bytes(browser.client, poll)
        # The phones at the table ask with the ETag they have: unchanged, a 304 against a bare
        # cached GET answering the same 304.
        seen = ok(poll)["ETag"]
        floors.keep_bytes(f"poll-unchanged-{match.pk}", ok(poll).content, seen)
        poll_cached = reverse("bench_cached", kwargs={"name": f"poll-unchanged-{match.pk}"})
        out["state poll, unchanged (304)"] = interleaved(lambda: unchanged(browser, poll, seen),
                                                         lambda: unchanged(browser, poll_cached, seen), rounds)
        form = GameForm.initial_from(nxt, list(nxt["results"]), names)
        form = {k: v for k, v in form.items() if v is not None and v is not False and v != ""}
        # The form the Protokollant opens before each Spiel, against its own bytes kept for the
        # Partie's version (the one-time id of the save and the CSRF token aside, the same page).
        # He opens it once per state: what the page keeps per state (the offline document) is
        # forgotten before each round; its inputs, kept by what they are made of, are those the
        # form of the Spiel before had (the same players, the same mode). His phone keeps the
        # document of this version (the match page his save landed on brought its newest entry)
        # and says so in its cookie: the page carries none.
        spiel_form = reverse("protocol:game_new", kwargs={"slug": club.slug, "pk": match.pk})
        browser.client.cookies[sync.KEPT_COOKIE] = f"{match.pk}.{match.version}"
        floors.keep_bytes(f"form-{match.pk}:{match.version}", ok(spiel_form).content)
        form_floor = reverse("bench_checked", kwargs={"pk": match.pk, "name": f"form-{match.pk}"})
        document = f"document:{engine_state.key(match)}"
        out["Spiel form, 7 players, Spiel 61"] = interleaved(lambda: ok(spiel_form), lambda: ok(form_floor), rounds,
                                                            before=lambda: cache.delete(document))
        sizes["Spiel form"] = page_bytes(browser.client, spiel_form)
        del browser.client.cookies[sync.KEPT_COOKIE]
        sizes["Spiel form, first opening"] = page_bytes(browser.client, spiel_form)  # the document with it
        preview = reverse("protocol:game_preview", kwargs={"slug": club.slug, "pk": match.pk})
        reading.page(match)  # kept, as the form's page left it
        floors.KEPT[match.pk] = reading.page(match)  # the kept state, behind the reading door
        feed = reverse("bench_feed", kwargs={"pk": match.pk})
        out["live preview"] = interleaved(lambda: browser.post(preview, form | {"version": match.version}),
                                          lambda: browser.post(feed, {"body": json.dumps(nxt)}), rounds)

        out["save Spiel 40"] = measure_save(club, browser, rounds)
    out["bytes"] = sizes
    return out


def _with_ratings(club, member, member_url, browser, rounds: int) -> tuple[dict, bool]:
    """The member page once the club's ratings are computed (league.ratings.ledger.rebuild, as
    the background work leaves them), against its own bytes from the cache."""
    from django.urls import reverse

    from bench import floors
    from league.ratings import ledger
    from league.ratings.models import Rating

    for game in ledger.games_of(club):
        ledger.rebuild(club, game)
    rated = Rating.objects.filter(member=member).exists()
    browser.get(member_url)
    response = browser.get(member_url)
    floors.keep_bytes(f"member-rated-{member.pk}", response.content)
    floor = reverse("bench_cached", kwargs={"name": f"member-rated-{member.pk}"})
    result = interleaved(lambda: browser.get(member_url), lambda: browser.get(floor), rounds)
    return result | {"rated": rated}, rated


def _fragment_key(user, poll: str) -> str:
    """The cache key the state poll keeps its rendered fragment under, for ``user``."""
    from django.test import RequestFactory
    from django.urls import resolve

    from protocol.views import state_tag

    request = RequestFactory().get(poll)
    request.user = user
    kwargs = resolve(poll).kwargs
    return state_tag.shared_key(request, state_tag.poll_facts(request, kwargs["slug"], kwargs["pk"]))


def measure_rebuild(prefix: str) -> dict:
    """The club's ratings computed from its first Partie (``manage.py rebuild_ratings``, the
    background pass over a history never rated): wall and CPU seconds (process and database
    backend), and both scaled to 10,000 Partien (the target: a federation's history in under a
    minute). No floor: the target is the user's minute, not a multiple of other work."""
    from league.models import Club
    from league.ratings import ledger

    club = Club.objects.get(slug=f"{prefix.lower()}-1")
    wall, cpu = time.perf_counter(), cpu_clock()
    rated = sum(ledger.rebuild(club, game) for game in ledger.games_of(club))
    wall, cpu = time.perf_counter() - wall, cpu_clock() - cpu
    scale = 10_000 / rated if rated else 0
    return {"partien": rated, "seconds": round(wall, 1), "cpu_seconds": round(cpu, 1),
            "per_10000_seconds": round(wall * scale, 1), "per_10000_cpu_seconds": round(cpu * scale, 1)}


def season_member(club, season):
    from protocol.models import Seat

    return (club.members.filter(pk__in=Seat.objects.filter(match__season=season).values("member"))
            .order_by("pk").first())


def measure_save(club, browser, rounds: int) -> dict:
    """The Spiel form's POST, answered with the match page itself (the phone's one request from
    the tap to the page: protocol.views.entries.game_new), against a one-row POST and its
    redirect; a fresh Partie of 39 Spiele for each save (Spiel 40 is saved). Before each
    save, untimed, the phone's way to it: the match page of Spiel 39 (where the save before
    landed) and the Spiel form, as its Protokollant opened them. So the engine's state of that
    version is kept (a Partie created with its Spiele keeps none), and this process wrote the
    sheet's rows of the 39 Spiele (protocol.sheet.kept_rows; another worker, which did not,
    writes all 40 rows on landing, as at a Partie's first page). The phone keeps the document
    of that version and says so (its cookie): the match page it lands on carries the newest
    entry for it."""
    from django.urls import reverse

    from protocol.games.chaotentrumpf.forms import GameForm
    from protocol.views import sync

    prepared = []
    for n in range(rounds + 1):
        match, names, nxt = _partie(club, 4, 39, seed=100 * n)
        data = GameForm.initial_from(nxt, list(nxt["results"]), names)
        data = {k: v for k, v in data.items() if v is not None and v is not False and v != ""}
        prepared.append((reverse("protocol:game_new", kwargs={"slug": club.slug, "pk": match.pk}),
                         data | {"version": match.version}, match.pk))
    one_row = reverse("bench_one_row")

    def before():  # untimed: the match page and the form of the next save, as the phone opened them
        if len(saved) == len(prepared) or len(saved) in opened:
            return
        opened.add(len(saved))
        url, data, pk = prepared[len(saved)]
        browser.client.cookies[sync.KEPT_COOKIE] = f"{pk}.{data['version']}"
        browser.get(url.removesuffix("spiel/"))
        browser.get(url)

    saved, opened = [], set()

    def save():
        url, data, pk = prepared[len(saved)]
        saved.append(pk)
        response = browser.post(url, data, follow=True, expect=(200,))
        assert not response.redirect_chain and response.get("Content-Location") == url.removesuffix("spiel/"), \
            "not saved"

    def floor():
        browser.post(one_row, {}, follow=True, expect=(200,))

    return interleaved(save, floor, rounds, budget=60, before=before)


def measure_check_protocol(rounds: int) -> dict:
    """``manage.py check_protocol`` of a 60-Spiel Partie against the engine-only process
    (``python -m protocol.rules check``, no Django): the least a check of the file costs is
    starting Python, importing the rules and running them. Both print the same answer (checked);
    timed as the CPU of each child process (``RUSAGE_CHILDREN``)."""
    import subprocess
    import sys

    from bench.measure import _long_partie

    names = ["Anna", "Bernd", "Carla", "Dieter"]
    _, events, _ = _long_partie(names, 60)
    doc = {"format": "protocol/1", "ruleset": "chaotentrumpf", "club": "Bench", "date": "2026-11-20",
           "players": names, "scorekeeper": names[0], "settings": {"limit": 5000}, "events": events}
    root = Path(__file__).resolve().parents[1]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "partie.json"
        path.write_text(json.dumps(doc))
        command = [sys.executable, "manage.py", "check_protocol", str(path)]
        engine = [sys.executable, "-m", "protocol.rules", "check", str(path)]

        def run(args):
            return subprocess.run(args, cwd=root, capture_output=True, text=True, check=True).stdout

        assert json.loads(run(command)) == json.loads(run(engine)), "check_protocol and the engine disagree"
        return interleaved(lambda: run(command), lambda: run(engine), rounds, budget=60, clock=children_cpu)


def measure_sheet(rounds: int) -> dict:
    """render_sheet of a 60-Spiel Partie vs WeasyPrint on the plain table of the same cells."""
    from bench.measure import sheet_pair

    render, plain, games = sheet_pair()
    return interleaved(render, plain, rounds, budget=60) | {"games": games}


def measure_xlsx(prefix: str, rounds: int) -> dict:
    """The season workbook against openpyxl writing the very same cells (read back from it,
    values and styles: see :func:`xlsx_cells`), checked cell for cell to be the same."""
    from league.models import Club
    from league.spreadsheets.exports import write_season

    club = Club.objects.get(slug=f"{prefix.lower()}-1")
    season = club.seasons.order_by("-start").first()
    with tempfile.TemporaryDirectory() as tmp:
        target, copy = Path(tmp) / "season.xlsx", Path(tmp) / "floor.xlsx"
        write_season(club, season, str(target))
        sheets = xlsx_cells(target)
        floor = lambda: write_cells(sheets, copy)  # noqa: E731
        floor()
        assert_same_cells(target, copy)
        result = interleaved(lambda: write_season(club, season, str(target)), floor, rounds, budget=90)
    result["rows"] = sum(len(rows) for rows in sheets[0].values())
    return result


def xlsx_cells(path) -> tuple[dict[str, list[list]], list]:
    """Each sheet's rows as the file holds them, and the styles they use: a cell without a
    style as its bare value, a styled cell as ``(value, n)``, ``styles[n]`` its number
    format, font, fill, alignment and quote prefix; a text openpyxl would take for a formula
    or an error as ``(value, None)`` (a text cell)."""
    import openpyxl
    from openpyxl.cell.cell import ERROR_CODES

    book = openpyxl.load_workbook(path, read_only=True)
    sheets, styles = {}, {}
    for ws in book.worksheets:
        rows = []
        for row in ws.iter_rows():
            values = []
            for c in row:
                value = c.value
                if isinstance(value, datetime.datetime) and value.time() == datetime.time():
                    value = value.date()  # the export writes dates, read back as datetimes
                if getattr(c, "has_style", False):  # not an EmptyCell nor a bare one
                    style = (c.number_format, c.font, c.fill, c.alignment, c.style_array.quotePrefix)
                    values.append((value, styles.setdefault(style, len(styles))))
                elif isinstance(value, str) and (value.startswith("=") or value in ERROR_CODES):
                    values.append((value, None))
                else:
                    values.append(value)
            while values and values[-1] is None:
                values.pop()
            rows.append(values)
        sheets[ws.title] = rows
    book.close()
    return sheets, list(styles)


def write_cells(cells: tuple[dict[str, list[list]], list], target) -> None:
    """The least openpyxl can do to write these cells (:func:`xlsx_cells`): write-only, bare
    values where a cell has no style, one cell object per column and style whose value is set
    for each row (a write-only row is written as it is appended), one style array per style."""
    import openpyxl
    from openpyxl.cell import WriteOnlyCell

    sheets, styles = cells
    out = openpyxl.Workbook(write_only=True)
    arrays: dict = {}
    for title, rows in sheets.items():
        ws = out.create_sheet(title)
        kept: dict = {}
        for row in rows:
            written = []
            for column, value in enumerate(row):
                if type(value) is tuple:
                    value, style = value
                    one = kept.get((column, style))
                    if one is None:
                        one = kept[(column, style)] = WriteOnlyCell(ws)
                        if style is None:
                            one.data_type = "s"
                        elif style in arrays:
                            one._style = arrays[style]
                        else:
                            one.number_format, one.font, one.fill, one.alignment, one.quotePrefix = styles[style]
                            arrays[style] = one._style
                    if style is None:
                        one._value = value
                    else:
                        one.value = value
                    value = one
                written.append(value)
            ws.append(written)
    out.save(target)


def assert_same_cells(path, other) -> None:
    """Two workbooks hold the same sheets and cells: every cell's value, data type, number
    format, font, fill, alignment and quote prefix (read side by side, row by row)."""
    from itertools import zip_longest

    import openpyxl

    def described(row):
        cells = [(c.value, c.data_type, c.number_format, c.font, c.fill, c.alignment, c.style_array.quotePrefix)
                 if getattr(c, "has_style", False) else (c.value, c.data_type) for c in row]
        while cells and cells[-1] == (None, "n"):
            cells.pop()  # read_only pads a row with empty cells up to the widest
        return cells

    books = [openpyxl.load_workbook(p, read_only=True) for p in (path, other)]
    try:
        assert [ws.title for ws in books[0].worksheets] == [ws.title for ws in books[1].worksheets]
        for ws, copy in zip(books[0].worksheets, books[1].worksheets, strict=True):
            for n, (row, copied) in enumerate(zip_longest(ws.iter_rows(), copy.iter_rows(), fillvalue=()), 1):
                assert described(row) == described(copied), (ws.title, n, described(row), described(copied))
    finally:
        for book in books:
            book.close()
