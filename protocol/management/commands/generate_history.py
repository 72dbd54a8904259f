"""``python manage.py generate_history``: years of realistic club history in bulk (benchmark).

    manage.py generate_history --size club|federation [--seed 1] [--clubs N --seasons S --matches M]

Every Partie is dealt by the default game's simulation (``protocol.games``) (3-7 players, ~20-25 Spiele, some Stechen,
Strafen, Verwarnungen and annulled Spiele), so the rules engine accepts all of it. For speed
nothing goes through ``matches.create_match`` (one transaction and a dozen queries per
Partie): the Partien of a season are bulk-inserted, and their cache (status, winner,
ScoreLine, SanctionLine) comes from one evaluation per Partie through
``score_cache.cache_rows``, the code the service itself uses. Deterministic for a seed.

Sizes (``--clubs/--seasons/--matches`` override them):

- ``club``: 1 club, 10 seasons of 150 Partien (~1,500 Partien, ~160,000 Spiel lines);
- ``federation``: 1 club, 6 seasons of 1,550 Partien (~9,300 Partien, about one million
  per-player Spiel lines): the database 6x and a season 10x the club size.
"""

from __future__ import annotations

import datetime
import random
import time

from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction

from league.models import Club, Member, Season
from league.registry import versions
from protocol import games, score_cache
from protocol.models import Change, Event, Match, SanctionLine, ScoreLine, Seat
from protocol.rules import evaluate

SIZES = {
    "club": {"clubs": 1, "seasons": 10, "matches": 150},
    "federation": {"clubs": 1, "seasons": 6, "matches": 1550},
}
MEMBERS_PER_CLUB = 20
FIRST_NAMES = ["Anna", "Bernd", "Carla", "Dieter", "Erika", "Frank", "Gisela", "Hans", "Ingrid",
               "Jürgen", "Katrin", "Lothar", "Monika", "Norbert", "Olga", "Peter", "Renate",
               "Stefan", "Tanja", "Uwe", "Vera", "Walter"]
TABLE_SIZES = [3, 4, 4, 4, 5, 5, 5, 6, 6, 7]
PLACES = ["Vereinsheim", "Gasthaus Krone", "Gasthaus Adler", "bei Carla", "Sportheim"]
BATCH = 2000
LAST_YEAR = 2025

SIMULATION = games.plugin(games.DEFAULT).simulation  # deals a real table could play


class Command(BaseCommand):
    help = "Bulk-create realistic, engine-valid history (clubs x seasons x Partien) for the benchmark."

    def add_arguments(self, parser):
        parser.add_argument("--size", choices=sorted(SIZES), default="club")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--clubs", type=int)
        parser.add_argument("--seasons", type=int)
        parser.add_argument("--matches", type=int, help="Partien per club and season")
        parser.add_argument("--prefix", default="Bench", help="start of the generated clubs' names")

    def handle(self, *args, **options):
        size = dict(SIZES[options["size"]])
        for key in size:
            if options[key] is not None:
                size[key] = options[key]
        if min(size.values()) < 1:
            raise CommandError("--clubs, --seasons and --matches must be at least 1")
        started = time.perf_counter()
        counts = generate(seed=options["seed"], prefix=options["prefix"], **size)
        with connection.cursor() as cursor:  # fresh planner statistics after a bulk load
            cursor.execute("ANALYZE")
        self.stdout.write(
            f"{counts['clubs']} Vereine, {counts['seasons']} Saisons, {counts['matches']} Partien, "
            f"{counts['score_lines']} Spielzeilen in {time.perf_counter() - started:.1f} s")


def generate(*, clubs: int, seasons: int, matches: int, seed: int = 1, prefix: str = "Bench") -> dict[str, int]:
    """Create the history; returns how many clubs, seasons, matches and score lines."""
    rng = random.Random(seed)
    counts = {"clubs": 0, "seasons": 0, "matches": 0, "score_lines": 0}
    for c in range(clubs):
        with transaction.atomic():
            club = Club.objects.create(name=f"{prefix} {c + 1}", slug=f"{prefix.lower()}-{c + 1}",
                                       place="Nürtingen", standings_public=True)
            names = [_member_name(i) for i in range(MEMBERS_PER_CLUB)]
            members = {m.name: m for m in Member.objects.bulk_create(
                [Member(club=club, name=name, joined=datetime.date(1990 + i, 3, 1)) for i, name in enumerate(names)])}
        counts["clubs"] += 1
        for s in range(seasons):
            year = LAST_YEAR - seasons + 1 + s
            with transaction.atomic():
                season = Season.objects.create(club=club, name=str(year), start=datetime.date(year, 1, 1),
                                               end=datetime.date(year, 12, 31))
                counts["score_lines"] += _season(club, season, members, matches, rng)
            counts["seasons"] += 1
            counts["matches"] += matches
    return counts


def _member_name(i: int) -> str:
    first = FIRST_NAMES[i % len(FIRST_NAMES)]
    return first if i < len(FIRST_NAMES) else f"{first} {i // len(FIRST_NAMES) + 1}"


def _season(club: Club, season: Season, members: dict[str, Member], count: int, rng: random.Random) -> int:
    """``count`` Partien spread over the season's club evenings; returns the score lines made."""
    names = sorted(members)
    documents, rows = [], []
    for n in range(count):
        players = rng.sample(names, rng.choice(TABLE_SIZES))
        scorekeeper = rng.choice(players)
        settings = {"limit": 750} if len(players) > 4 and rng.random() < 0.4 else {}
        date = season.start + datetime.timedelta(days=(n * 365) // count)
        doc = SIMULATION.simulate_match(players, rng, scorekeeper=scorekeeper, settings=settings, max_events=200,
                             club=club.name, season=season.name, date=date.isoformat())
        documents.append(doc)
        rows.append(Match(club=club, season=season, date=date, place=rng.choice(PLACES), settings=settings))
    Match.objects.bulk_create(rows, batch_size=BATCH)
    seats, events, changes, score_lines, sanction_lines = [], [], [], [], []
    for match, doc in zip(rows, documents):
        ids = {name: members[name].pk for name in doc["players"]}
        seats += [Seat(match=match, position=i, member_id=ids[name], name=name,
                       is_scorekeeper=name == doc["scorekeeper"]) for i, name in enumerate(doc["players"])]
        events += [Event(match=match, position=i, kind=next(iter(e)), data=next(iter(e.values())))
                   for i, e in enumerate(doc["events"])]
        changes.append(Change(match=match, action=Change.Action.IMPORT_MATCH, reason="generate_history"))
        evaluation = evaluate(doc)
        if evaluation.errors:  # pragma: no cover - a simulated Partie is always valid
            raise CommandError(f"simulated Partie rejected: {evaluation.errors[:3]}")
        scores, sanctions = score_cache.cache_rows(match, evaluation, ids)
        score_lines += scores
        sanction_lines += sanctions
    Match.objects.bulk_update(rows, ["status", "winner", "ended_by", "game_count"], batch_size=BATCH)
    for model, objects in ((Seat, seats), (Event, events), (Change, changes),
                           (ScoreLine, score_lines), (SanctionLine, sanction_lines)):
        model.objects.bulk_create(objects, batch_size=BATCH)
    # Written in bulk, past the recording door: the kept pages' versions move here.
    versions.touch_club(club.pk)
    versions.touch_members(member.pk for member in members.values())
    return len(score_lines)
