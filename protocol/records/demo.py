"""The demo club that ``make run`` shows a newcomer: members, a season, real-looking Partien.

Every Partie is dealt by the default game's simulation (``protocol.games``) and saved through
``protocol.matches`` and ``protocol.recording``, so the demo is checked by the rules engine like
any protocol a club would enter.
"""

from __future__ import annotations

import datetime
import random

from django.contrib.auth import get_user_model
from django.db import transaction

from league.models import Club, Member, Season
from protocol import games, matches
from protocol.documents.transfer import finished_on_its_date

CLUB_NAME = "1. CTV gegen alles!"
PASSWORD = "trumpfbuch"
MEMBERS = ["Anna", "Bernd", "Carla", "Dieter", "Erika", "Frank", "Gisela", "Hans",
           "Ingrid", "Jürgen", "Katrin", "Lothar"]
LOGINS = {"schriftfuehrer": None, "anna": "Anna", "bernd": "Bernd"}  # username -> member
PLACES = ["Nürtingen, Vereinsheim", "Nürtingen, Gasthaus Krone", "Oberensingen, bei Carla"]

SIMULATION = games.plugin(games.DEFAULT).simulation  # deals a real table could play


def demo_exists() -> bool:
    return Club.objects.filter(name=CLUB_NAME).exists()


@transaction.atomic
def load_demo(seed: int = 1987, today: datetime.date | None = None, finished: int = 12) -> Club:
    rng = random.Random(seed)
    today = today or datetime.date.today()
    User = get_user_model()
    club = Club.objects.create(name=CLUB_NAME, slug="ctv-gegen-alles", place="Nürtingen", standings_public=True)
    members = {name: Member.objects.create(club=club, name=name, joined=datetime.date(1987 + i, 5, 2))
               for i, name in enumerate(MEMBERS)}
    users = {}
    for username, member in LOGINS.items():
        user = User.objects.filter(username=username).first() or User.objects.create_user(username, password=PASSWORD)
        users[username] = user
        if member:
            members[member].user = user
            members[member].save(update_fields=["user"])
    club.secretaries.add(users["schriftfuehrer"])
    season = Season.objects.create(club=club, name=str(today.year), start=datetime.date(today.year, 1, 1),
                                   end=datetime.date(today.year, 12, 31))
    evenings = _club_evenings(season.start, today, finished + 1)
    for number, date in enumerate(evenings):
        running = number == len(evenings) - 1
        names = rng.sample(MEMBERS, rng.choice([3, 4, 4, 4, 5, 5, 6]))
        if running:
            names = ["Anna", "Bernd", "Carla", "Dieter", "Erika"]
        settings = {"limit": 750} if len(names) > 4 and rng.random() < 0.5 else {}
        scorekeeper = rng.choice(names)
        doc = SIMULATION.simulate_match(names, rng, scorekeeper=scorekeeper, settings=settings,
                             stop_after=14 if running else None, max_events=120)
        for attempt in range(500):  # one evening of the demo went to a Stechen (Art. 17b)
            if number != 3 or _has_stechen(doc):
                break
            doc = SIMULATION.simulate_match(names, random.Random(seed + attempt), scorekeeper=scorekeeper,
                                 settings=settings, max_events=120)
        match = matches.create_match(
            club=club, season=season, date=date, place=rng.choice(PLACES),
            members=[members[n] for n in names], scorekeeper=members[scorekeeper],
            settings=settings, events=doc["events"], user=users["schriftfuehrer"],
            reason="Demo-Daten")
        finished_on_its_date(match)  # an earlier evening's Partie is final, as it would be by now
    return club


def _has_stechen(doc) -> bool:
    from protocol.rules import evaluate
    return bool(evaluate(doc).match.tiebreaks)


def _club_evenings(start: datetime.date, today: datetime.date, count: int) -> list[datetime.date]:
    """The finished Partien on every second Friday before today, the running one tonight:
    today, whatever the weekday (the demo shows a club evening under way).

    >>> _club_evenings(datetime.date(2026, 1, 1), datetime.date(2026, 11, 24), 3)
    [datetime.date(2026, 11, 6), datetime.date(2026, 11, 20), datetime.date(2026, 11, 24)]
    """
    friday = today - datetime.timedelta(days=(today.weekday() - 4) % 7 or 7)  # the last one before today
    finished = [friday - datetime.timedelta(weeks=2 * i) for i in range(count - 1)]
    return sorted(d for d in finished if d >= start) + [today]
