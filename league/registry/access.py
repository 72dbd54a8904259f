"""Who may see and do what in a club. Views call these explicitly; nothing is implied.

Roles, strongest first: staff (site operators), Schriftführer (club.secretaries),
member (a Member of the club linked to the user account), everyone else.
The `require_*` variants raise PermissionDenied (HTTP 403) instead of returning False.
"""

from django.core.exceptions import PermissionDenied


def _roles(user, club) -> tuple[bool, bool]:
    """(secretary, member) of the club, asked of the database once per user object: a
    request's user lives for one request, and a page asks several questions."""
    known = user.__dict__.setdefault("_club_roles", {})
    if club.pk not in known:
        secretary = club.secretaries.filter(pk=user.pk).exists()
        known[club.pk] = (secretary, secretary or club.members.filter(user=user).exists())
    return known[club.pk]


def forget_roles(user) -> None:
    """After changing who is secretary or member, within the same request."""
    user.__dict__.pop("_club_roles", None)


def is_secretary(user, club):
    if not user.is_authenticated:
        return False
    return _roles(user, club)[0]


def is_member(user, club):
    """A linked Member of the club, or one of its secretaries."""
    if not user.is_authenticated:
        return False
    return _roles(user, club)[1]


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
