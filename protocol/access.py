"""Who may do what with a Partie. Views call these explicitly; nothing is implied.

- The club's Schriftführer (and staff) may do everything: create, record, correct at any
  time, change settings, annul whole Partien.
- The Protokollant of a Partie (the user linked to the scorekeeper's Member) records and
  corrects it while it runs (Art. 4a).
- A member of the club may start a Partie in which he is the Protokollant (the table
  nominates him, Art. 4a), and reads everything of the club; he writes nothing else.
- Everybody else sees nothing of a club's Partien.
"""

from django.core.exceptions import PermissionDenied

from league.registry import access as league_access


def is_scorekeeper(user, match) -> bool:
    if not user.is_authenticated:
        return False
    seat = match.scorekeeper_seat
    return seat is not None and seat.member.user_id == user.pk


def can_view(user, match) -> bool:
    return league_access.can_view_club_data(user, match.club)


def can_record(user, match) -> bool:
    """Add Spiele, Strafen and the end while the Partie runs."""
    if match.status in ("finished", "annulled"):
        return league_access.can_manage_club(user, match.club) and match.status == "finished"
    return league_access.can_manage_club(user, match.club) or is_scorekeeper(user, match)


def can_correct(user, match) -> bool:
    """Correct or remove an earlier entry: the secretary always, the Protokollant while it runs."""
    if league_access.can_manage_club(user, match.club):
        return True
    return match.status in ("running", "tiebreak") and is_scorekeeper(user, match)


def can_manage(user, match) -> bool:
    """Change settings, annul the whole Partie: the secretary only."""
    return league_access.can_manage_club(user, match.club)


def can_create_match(user, club) -> bool:
    return league_access.can_view_club_data(user, club)


def require(allowed: bool) -> None:
    if not allowed:
        raise PermissionDenied
