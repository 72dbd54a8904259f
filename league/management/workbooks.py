"""What the league's workbook imports on the command line share: the club and season named
there, the progress bar and the exit codes of a file that is refused before it is read."""

from contextlib import contextmanager

from django.core.management.base import CommandError
from django.db.models import Q
from django.utils.translation import gettext as _

from jobs.terminal import TerminalProgress
from league.models import Club, Season
from league.spreadsheets.archive import WorkbookTooLarge, WorkbookUnreadable


def club_and_season(club_name: str, season_name: str | None) -> tuple[Club, Season | None]:
    """The club of that name or short name and its season of that name (None for none asked);
    CommandError (exit 1) naming what the club lacks."""
    club = Club.objects.filter(Q(name=club_name) | Q(slug=club_name)).first()
    if club is None:
        raise CommandError(_("There is no club “%(name)s” (name or short name).") % {"name": club_name}, returncode=1)
    season = None
    if season_name:
        season = club.seasons.filter(name=season_name).first()
        if season is None:
            raise CommandError(_("The club “%(club)s” has no season “%(season)s”.")
                               % {"club": club.name, "season": season_name}, returncode=1)
    return club, season


@contextmanager
def reading(stderr, wanted: bool | None):
    """The progress bar on ``stderr`` (None without one; ``wanted`` None: when it is a
    terminal); a workbook that is too large exits 1, one that is no .xlsx exits 2."""
    shown = stderr.isatty() if wanted is None else wanted
    progress = TerminalProgress(stderr) if shown else None
    try:
        yield progress
    except WorkbookTooLarge as too_large:  # read, but larger than any season's: refused
        raise CommandError(str(too_large), returncode=1) from too_large
    except WorkbookUnreadable as unreadable:
        raise CommandError(str(unreadable), returncode=2) from unreadable
    finally:
        if progress:
            progress.finish()
