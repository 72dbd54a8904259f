"""Growth: the queries and the time of every page from a club's size to a federation's
(README "Performance").

    python bench/growth.py [--federation-matches 1550] [--keep PATH] [--postgres URL] [--rounds 7]

A throw-away SQLite database (or ``--keep PATH`` to keep it): ``generate_history`` makes the
**club** (10 seasons x 150 Partien, ~1,500) and the queries of each page are counted for its
latest season; then the **federation** is added as a second club (6 seasons x 1,550 Partien,
~9,300; ``--federation-matches`` makes its seasons smaller) and the same pages are counted
again, for the club (whose pages must not grow with the other club's data) and for the
federation's club (a season of 1,550 Partien). Query counts do not depend on the machine's
load; each page's time is the median of ``--rounds`` requests (cold pages with the cache
emptied before each), with the machine's load average beside it. ``--postgres URL`` generates
into a throw-away PostgreSQL database next to the one URL names instead of SQLite. Prints a
table and writes ``bench/growth.json``.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bench" / "growth.json"


def count(fn) -> int:
    from django.db import connection

    queries = []
    with connection.execute_wrapper(lambda execute, sql, *rest: (queries.append(sql), execute(sql, *rest))[1]):
        fn()
    return len(queries)


def timed(fn, rounds: int, before=None) -> float:
    """The median time of ``fn()`` in milliseconds, ``before()`` untimed ahead of each call."""
    import statistics

    times = []
    for _ in range(rounds):
        if before:
            before()
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return round(statistics.median(times) * 1000, 1)


def pages(prefix: str, rounds: int) -> dict[str, dict]:
    """The queries and median time of each page of the club ``<prefix>-1`` (its latest season),
    signed in as its secretary, the tables' cache emptied first (cold) where the page keeps one."""
    from django.core.cache import cache
    from django.test.utils import override_settings
    from django.urls import reverse

    from bench import honest
    from league.models import Club
    from league.spreadsheets.exports import write_season

    club = Club.objects.get(slug=f"{prefix.lower()}-1")
    season = club.seasons.order_by("-start").first()
    out: dict[str, dict] = {}
    with override_settings(DEBUG=False):
        browser = honest.SignedIn(honest._secretary(club, f"growth-{prefix.lower()}"))
        browser.get("/")  # the session's first write and the CSRF cookie are not the pages'
        match, names, nxt = honest._partie(club, 7, 60, seed=7)
        member = honest.season_member(club, season)
        urls = {
            "standings (cold)": reverse("standings_season", kwargs={"slug": club.slug, "season_pk": season.pk}),
            "all-time table (cold)": reverse("standings_all_time", kwargs={"slug": club.slug}),
            "member page (season)": reverse("member_page", kwargs={"slug": club.slug, "member_pk": member.pk})
            + f"?saison={season.pk}",
            "member page (season, cold)": reverse("member_page", kwargs={"slug": club.slug, "member_pk": member.pk})
            + f"?saison={season.pk}",
            "archive page 1": reverse("archive", kwargs={"slug": club.slug}),
            "match page, 7 players, 60 Spiele": reverse("protocol:match", kwargs={"slug": club.slug, "pk": match.pk}),
            "state poll": reverse("protocol:sheet", kwargs={"slug": club.slug, "pk": match.pk}),
        }
        for name, url in urls.items():
            browser.get(url)  # the match's engine state kept, as when the page is read again
            cold = cache.clear if "cold" in name else None
            if cold:
                cold()
            out[name] = {"queries": count(lambda url=url: browser.get(url)),
                         "ms": timed(lambda url=url: browser.get(url), rounds, cold)}
        cache.clear()
        standings = urls["standings (cold)"]
        browser.get(standings)
        out["standings (cached)"] = {"queries": count(lambda: browser.get(standings)),
                                     "ms": timed(lambda: browser.get(standings), rounds)}
        with tempfile.TemporaryDirectory() as tmp:
            write = lambda: write_season(club, season, str(Path(tmp) / "s.xlsx"))  # noqa: E731
            out["season xlsx"] = {"queries": count(write), "ms": timed(write, max(1, rounds // 3))}
    return out


def settle() -> None:
    """After a bulk load, the database's own background work done before anything is timed:
    PostgreSQL vacuums the new rows and writes the dirty pages out (autovacuum and the
    checkpointer ran beside the first timings of a 9,300-Partien load and slowed even the
    pages that read one Partie); SQLite has nothing of the kind."""
    from django.db import connection

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("VACUUM (ANALYZE)")
            cursor.execute("CHECKPOINT")


def child(url: str, federation_matches: int, cache_dir: str, rounds: int) -> None:
    os.environ["DATABASE_URL"] = url
    os.environ["CACHE_URL"] = f"file://{cache_dir}"  # its own: cache.clear() must not empty another's
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ["ALLOWED_HOSTS"] = "127.0.0.1,localhost,testserver"
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    from protocol.models import Match

    call_command("migrate", verbosity=0)
    quiet = {"verbosity": 0, "stdout": open(os.devnull, "w")}  # noqa: SIM115
    result: dict = {}
    started = time.perf_counter()
    call_command("generate_history", "--size", "club", "--prefix", "Club", "--seed", "1", **quiet)
    settle()
    result["club"] = {"partien": Match.objects.count(), "pages": pages("Club", rounds), "load": _load()}
    call_command("generate_history", "--size", "federation", "--matches", str(federation_matches),
                 "--prefix", "Verband", "--seed", "1", **quiet)
    settle()
    result["club, federation beside it"] = {"partien": Match.objects.count(), "pages": pages("Club", rounds),
                                            "load": _load()}
    season = Match.objects.filter(club__slug="verband-1").values("season").order_by("-season__start").first()
    result["federation"] = {"partien": Match.objects.filter(club__slug="verband-1").count(),
                            "season_partien": Match.objects.filter(season=season["season"]).count(),
                            "pages": pages("Verband", rounds), "load": _load()}
    result["seconds"] = round(time.perf_counter() - started)
    result["when"] = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
    result["database"] = "postgresql" if url.startswith("postgres") else "sqlite"
    OUT.write_text(json.dumps(result, indent=2))
    sizes = [k for k in result if isinstance(result[k], dict)]
    print(f"queries / median ms ({result['database']}, {rounds} rounds)")
    print(f"{'page':36}" + "".join(f"{k:>30}" for k in sizes))
    for name in result["club"]["pages"]:
        print(f"{name:36}" + "".join(f"{result[k]['pages'][name]['queries']:>20} / {result[k]['pages'][name]['ms']:>6}"
                                     for k in sizes))
    print("Partien:" + " " * 28 + "".join(f"{result[k]['partien']:>30}" for k in sizes))
    print("load average:" + " " * 23 + "".join(f"{result[k]['load']:>30}" for k in sizes))


def _load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--federation-matches", type=int, default=1550)
    parser.add_argument("--keep", help="the SQLite file to generate into (kept)")
    parser.add_argument("--postgres", metavar="URL", help="generate into a throw-away PostgreSQL database instead")
    parser.add_argument("--rounds", type=int, default=7, help="requests per page for its median time")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        if args.postgres:
            sys.path.insert(0, str(ROOT))
            from bench.run import _throwaway_postgres

            url, drop = _throwaway_postgres(args.postgres)
            try:
                child(url, args.federation_matches, f"{tmp}/cache", args.rounds)
            finally:
                from django.db import connections

                connections.close_all()
                drop()
            return
        database = Path(args.keep).resolve() if args.keep else Path(tmp) / "growth.sqlite3"
        child(f"sqlite:///{database}", args.federation_matches, f"{tmp}/cache", args.rounds)


if __name__ == "__main__":
    main()
