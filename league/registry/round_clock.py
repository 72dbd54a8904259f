"""The round's clock as the round board and a table's Partie page show it (the secretary starts it:
league.tournaments.clock): the start and the duration the tournament or its rules give a round."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.utils import timezone

from league.models import Round


@dataclass
class Clock:
    started_at: datetime | None
    duration: timedelta

    @property
    def ends_at(self) -> datetime | None:
        return self.started_at + self.duration if self.started_at else None

    def seconds_left(self, now: datetime | None = None) -> int | None:
        """Whole seconds until the end (0 once it is over); None before the start."""
        if self.started_at is None:
            return None
        return max(0, int((self.ends_at - (now or timezone.now())).total_seconds()))

    @property
    def left_text(self) -> str:
        """The time left as the page shows it before its script counts (m:ss)."""
        left = self.seconds_left()
        return "" if left is None else f"{left // 60}:{left % 60:02d}"

    @property
    def minutes(self) -> int:
        return int(self.duration.total_seconds() // 60)


def clock_of(round_: Round | None) -> Clock | None:
    """The round's clock, or None where neither the tournament nor its rules limit the time."""
    if round_ is None:
        return None
    duration = round_.season.round_duration
    return Clock(round_.started_at, duration) if duration else None
