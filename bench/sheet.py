"""How long the Spielprotokollblatt of a 60-Spiel Partie takes to render (``make bench``).

    python bench/sheet.py [--players 4] [--games 60] [--runs 7]

Simulates a realistic Partie (protocol.games.chaotentrumpf.simulation, fixed seed), cuts it after the 60th
Spiel and renders its sheet ``--runs`` times after one warm-up render (the first render
in a process also loads WeasyPrint, matplotlib and the fonts, as a web worker does once).
Prints the median wall-clock and CPU time. No database is used.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from io import BytesIO  # noqa: E402

from django.utils import translation  # noqa: E402
from pypdf import PdfReader  # noqa: E402

from protocol.games.chaotentrumpf.simulation import simulate_match  # noqa: E402
from protocol.rules import evaluate  # noqa: E402
from protocol.sheet import render_sheet  # noqa: E402

NAMES = ["Anna", "Bernd", "Carla", "Dieter", "Erika", "Fritz", "Gisela", "Heinz"]


def partie_of(players: int, games: int):
    """The first simulated Partie (seed 0, 1, ...) that lasts ``games`` Spiele, cut after the last."""
    for seed in range(1000):
        document = simulate_match(NAMES[:players], random.Random(seed), settings={"limit": 5000},
                                  club="1. CTV gegen alles!", date="2026-11-20", place="Nürtingen",
                                  max_events=2 * games)
        game_events = [i for i, event in enumerate(document["events"]) if "game" in event]
        if len(game_events) >= games:
            document["events"] = document["events"][: game_events[games - 1] + 1]
            evaluation = evaluate(document)
            assert evaluation.ok, evaluation.errors[:3]
            return evaluation.match
    raise SystemExit(f"no simulated Partie of {games} Spiele")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4, choices=range(2, 9))
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    match = partie_of(args.players, args.games)
    with translation.override("de"):
        pdf = render_sheet(match)  # warm-up
        wall, cpu = [], []
        for _ in range(args.runs):
            started, started_cpu = time.perf_counter(), time.process_time()
            pdf = render_sheet(match)
            wall.append(time.perf_counter() - started)
            cpu.append(time.process_time() - started_cpu)
    pages = len(PdfReader(BytesIO(pdf)).pages)
    print(f"sheet: {args.games} Spiele, {args.players} Spieler, {pages} Seiten, {len(pdf) // 1024} kB: "
          f"median {statistics.median(wall):.2f} s (CPU {statistics.median(cpu):.2f} s) over {args.runs} renders")


if __name__ == "__main__":
    main()
