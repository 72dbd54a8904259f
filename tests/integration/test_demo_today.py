"""The demo that ``make run`` loads: the Partie running tonight is dated today, whatever the weekday."""

import datetime

from protocol.models import Match
from protocol.records.demo import load_demo


def test_the_demo_partie_running_tonight_is_dated_today(db):
    tuesday = datetime.date(2026, 11, 24)
    load_demo(seed=3, today=tuesday)
    (running,) = Match.objects.filter(status=Match.Status.RUNNING)
    assert running.date == tuesday
    finished = list(Match.objects.filter(status=Match.Status.FINISHED).values_list("date", flat=True))
    assert len(finished) == 12 and all(d.weekday() == 4 and d < tuesday for d in finished)  # club evenings: Fridays
