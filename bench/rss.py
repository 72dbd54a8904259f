"""Peak memory of the season's workbook by RSS, in a process of its own (``bench/measure.py``).

    python bench/rss.py DATABASE_URL CLUB_SLUG

Sets Django up, reads the club and its latest season, notes the process's resident memory,
writes the workbook to a temporary file and prints, as JSON, the resident memory before and
the process's peak (``resource.getrusage``: ``ru_maxrss``) in MB. tracemalloc (measure.py)
sees only Python's allocations; RSS also sees openpyxl's and the database driver's buffers.
"""

from __future__ import annotations

import json
import os
import resource
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def resident_mb() -> float:
    """The process's resident memory now (Linux: /proc/self/statm, in pages)."""
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def main(url: str, slug: str) -> None:
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from league.models import Club
    from league.spreadsheets.exports import write_season

    club = Club.objects.get(slug=slug)
    season = club.seasons.order_by("-start").first()
    before = resident_mb()
    with tempfile.TemporaryDirectory() as tmp:
        write_season(club, season, str(Path(tmp) / "season.xlsx"))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kB on Linux
    print(json.dumps({"rss_before_mb": round(before, 1), "rss_peak_mb": round(peak, 1),
                      "rss_growth_mb": round(peak - before, 1)}))


if __name__ == "__main__":
    main(*sys.argv[1:3])
