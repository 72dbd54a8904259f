"""Who may see and do what in a club. Views call these explicitly; nothing is implied.

Roles, strongest first: staff (site operators), Schriftführer (club.secretaries),
member (a Member of the club linked to the user account), everyone else.
The `require_*` variants raise PermissionDenied (HTTP 403) instead of returning False.
"""

from django.core.exceptions import PermissionDenied


def is_secretary(user, club):
    if not user.is_authenticated:
        return False
    return club.secretaries.filter(pk=user.pk).exists()


def is_member(user, club):
    """A linked Member of the club, or one of its secretaries."""
    if not user.is_authenticated:
        return False
    return club.members.filter(user=user).exists() or is_secretary(user, club)


def can_manage_club(user, club):
    """Record matches, edit members and seasons: the club's secretaries, and staff."""
    return user.is_authenticated and (user.is_staff or is_secretary(user, club))


def can_view_club_data(user, club):
    """Members' pages: matches, protocols, member lists. Never public."""
    return user.is_authenticated and (user.is_staff or is_member(user, club))


def can_view_standings(user, club):
    """The standings: like club data, and for anyone when the club made them public."""
    return club.standings_public or can_view_club_data(user, club)


def require_secretary(user, club):
    if not is_secretary(user, club):
        raise PermissionDenied


def require_manage_club(user, club):
    if not can_manage_club(user, club):
        raise PermissionDenied


def require_club_data(user, club):
    if not can_view_club_data(user, club):
        raise PermissionDenied


def require_standings(user, club):
    if not can_view_standings(user, club):
        raise PermissionDenied
