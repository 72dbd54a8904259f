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


def interleaved(figure, floor, rounds: int, budget: float = 20.0, before=None) -> dict:
    """Time ``figure`` and ``floor`` alternately (the order flips every round), after one
    warm-up each; fewer rounds (at least three) once ``budget`` seconds are spent. ``before``
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
            t = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - t)
        if n >= 2 and time.perf_counter() - started > budget:
            break
    fig, flo = statistics.median(times["figure"]), statistics.median(times["floor"])
    return {"figure": fig, "floor": flo, "ratio": fig / flo if flo else None, "rounds": len(times["figure"]),
            "figure_spread": spread(times["figure"]), "floor_spread": spread(times["floor"])}


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


def measure_pages(prefix: str, rounds: int) -> dict:
    """Every page a user waits for against its floor, interleaved (see the module docstring)."""
    from django.conf import settings
    from django.core.cache import cache
    from django.test.utils import override_settings
    from django.urls import reverse

    from league.models import Club
    from league.standings import games
    from protocol.games.chaotentrumpf.forms import GameForm

    club = Club.objects.get(slug=f"{prefix.lower()}-1")
    season = club.seasons.order_by("-start").first()
    user = _secretary(club, f"bench-{prefix.lower()}")
    out: dict = {}
    with override_settings(DEBUG=False, ROOT_URLCONF="bench.floor_urls"):
        assert not settings.DEBUG
        browser = SignedIn(user)
        ok = browser.get

        standings = reverse("standings_season", kwargs={"slug": club.slug, "season_pk": season.pk})
        stamp = reverse("bench_stamp", kwargs={"club_pk": club.pk, "season_pk": season.pk})
        aggregate = reverse("bench_aggregate", kwargs={"club_pk": club.pk, "season_pk": season.pk})
        out["standings (cached)"] = interleaved(lambda: ok(standings), lambda: ok(stamp), rounds)
        out["standings (cold)"] = interleaved(lambda: ok(standings), lambda: ok(aggregate), rounds, before=cache.clear)
        all_time = reverse("standings_all_time", kwargs={"slug": club.slug})  # the first game in play
        all_time_floor = reverse("bench_aggregate_all_time", kwargs={"club_pk": club.pk, "game": games.in_play(club)[0]})
        out["all-time table (cold)"] = interleaved(lambda: ok(all_time), lambda: ok(all_time_floor),
                                                   max(3, rounds // 3), before=cache.clear)
        member = season_member(club, season)
        member_url = reverse("member_page", kwargs={"slug": club.slug, "member_pk": member.pk}) + f"?saison={season.pk}"
        # As members open it between club evenings (the table, the places over time and the
        # charts kept for the data's stamp, his Partien and sanctions for his own), and the
        # first opening after a Partie finished (everything computed anew).
        floor_kwargs = {"club_pk": club.pk, "season_pk": season.pk, "member_pk": member.pk}
        member_floor, member_cold = reverse("bench_member", kwargs=floor_kwargs), reverse("bench_member_cold", kwargs=floor_kwargs)
        out["member page (season)"] = interleaved(lambda: ok(member_url), lambda: ok(member_floor), rounds)
        out["member page (season, cold)"] = interleaved(lambda: ok(member_url), lambda: ok(member_cold),
                                                        max(3, rounds // 2), before=cache.clear)
        archive = reverse("archive", kwargs={"slug": club.slug})
        archive_floor = reverse("bench_archive", kwargs={"club_pk": club.pk})
        out["archive page 1"] = interleaved(lambda: ok(archive), lambda: ok(archive_floor), rounds)

        match, names, nxt = _partie(club, 7, 60, seed=7)
        match_url = reverse("protocol:match", kwargs={"slug": club.slug, "pk": match.pk})
        engine = reverse("bench_engine", kwargs={"pk": match.pk})
        out["match page, 7 players, 60 Spiele"] = interleaved(lambda: ok(match_url), lambda: ok(engine), rounds)
        out["match page, 7 players, 60 Spiele"]["html_kb"] = len(ok(match_url).content) / 1024
        poll = reverse("protocol:sheet", kwargs={"slug": club.slug, "pk": match.pk})
        out["state poll (sheet fragment)"] = interleaved(lambda: ok(poll), lambda: ok(engine), rounds)
        # The phones at the table ask with the ETag they have: unchanged, a 304 against a bare GET.
        seen = ok(poll)["ETag"]
        bare = reverse("bench_bare")
        out["state poll, unchanged (304)"] = interleaved(lambda: unchanged(browser, poll, seen), lambda: ok(bare),
                                                         rounds)
        form = GameForm.initial_from(nxt, list(nxt["results"]), names)
        form = {k: v for k, v in form.items() if v is not None and v is not False and v != ""}
        preview = reverse("protocol:game_preview", kwargs={"slug": club.slug, "pk": match.pk})
        feed = reverse("bench_feed", kwargs={"pk": match.pk})
        out["live preview"] = interleaved(lambda: browser.post(preview, form | {"version": match.version}),
                                          lambda: browser.post(feed, {"body": json.dumps(nxt)}), rounds)

        out["save Spiel 40 + redirect"] = measure_save(club, browser, rounds)
    return out


def season_member(club, season):
    from protocol.models import Seat

    return (club.members.filter(pk__in=Seat.objects.filter(match__season=season).values("member"))
            .order_by("pk").first())


def measure_save(club, browser, rounds: int) -> dict:
    """The Spiel form's POST and the match page it redirects to, against a one-row POST and
    its redirect; a fresh Partie of 39 Spiele for each save (Spiel 40 is saved). Each Partie
    is read once first, as the scorekeeper's device did when it showed the form (the engine's
    state kept for its version: a Partie created with its Spiele keeps none)."""
    from django.urls import reverse

    from protocol import reading
    from protocol.games.chaotentrumpf.forms import GameForm

    prepared = []
    for n in range(rounds + 1):
        match, names, nxt = _partie(club, 4, 39, seed=100 * n)
        reading.page(match, just_fetched=True)
        data = GameForm.initial_from(nxt, list(nxt["results"]), names)
        data = {k: v for k, v in data.items() if v is not None and v is not False and v != ""}
        prepared.append((reverse("protocol:game_new", kwargs={"slug": club.slug, "pk": match.pk}),
                         data | {"version": match.version}))
    saves = iter(prepared)
    one_row = reverse("bench_one_row")

    def save():
        url, data = next(saves)
        response = browser.post(url, data, follow=True, expect=(200,))
        assert response.redirect_chain and response.redirect_chain[-1][1] == 302, "not saved"

    return interleaved(save, lambda: browser.post(one_row, {}, follow=True, expect=(200,)), rounds, budget=60)


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
