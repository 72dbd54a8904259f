"""Who may see and do what in a club and with its Partien: every decision of the site, in one
module of the registry (roles are registry facts). Views ask explicitly; nothing is implied.

Roles, strongest first: staff (site operators), Schriftführer (club.secretaries),
member (a Member of the club linked to the user account), everyone else.

With a Partie (``match``: anything with ``club``, ``status`` and ``scorekeeper_seat``; this
module imports nothing of ``protocol``):

- the club's Schriftführer (and staff) may do everything: create, record, correct at any
  time, change settings, annul whole Partien;
- the Protokollant of a Partie (the user linked to the scorekeeper's Member) records and
  corrects it while it runs (Art. 4a), and corrects it within the club's correction window
  after it finished, until a player confirms (``correction_window``);
- a member of the club may start a Partie in which he is the Protokollant (the table
  nominates him, Art. 4a), and reads everything of the club; he writes nothing else;
- a tournament table's card (league.tournaments.card_access, held by this browser's session)
  opens that table's Partie alone with the Protokollant's rights at the table: it records
  Spiele, Strafen and the end, corrects as he may, and confirms the result for any seat (the
  phone is handed round the table); never settings or the annulment of the Partie, never
  another page. Signed-in users keep their own rights beside it;
- everybody else sees nothing of a club's Partien.

Every view fetches what it shows through :func:`require_club` (here) or
``protocol.views.common.require_match``: a 404 for what does not exist, the login for an
anonymous visitor refused (:class:`LoginRequired`), 403 for everyone else refused.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.db.models import Exists, OuterRef, Subquery
from django.db.models.signals import m2m_changed, post_delete, post_save
from django.http import Http404
from django.utils.translation import gettext as _

from league.models import Club, Member
from league.registry import correction_window
from league.registry.statements import Statements


class LoginRequired(PermissionDenied):
    """Refused to an anonymous visitor: the site sends him to the login
    (``league.registry.middleware``) instead of answering 403."""


class CardRefused(PermissionDenied):
    """Refused to a visitor who holds a table's card and nothing else: 403 with ``message``, which
    says what the card opens or why it no longer does (league.tournaments.card_access)."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class MethodNotAllowed(Exception):
    """The page takes other methods (``methods``): 405, said only to who may see the page
    (``league.registry.middleware``)."""

    def __init__(self, methods):
        super().__init__(", ".join(methods))
        self.methods = list(methods)


# -- roles in a club -----------------------------------------------------------------------

# The answers of one request (``league.registry.middleware.RolesPerRequest``): a page asks
# several questions of the same roles, the database answers each once. Outside a request
# (None) every question goes to the database.
_answers: ContextVar[dict | None] = ContextVar("club_roles", default=None)


@contextmanager
def roles_per_request():
    """Remembers the roles asked within the block, and forgets them when it ends."""
    token = _answers.set({})
    try:
        yield
    finally:
        _answers.reset(token)


_CHANGED = "changed"  # in a request's answers: a role changed during it, the shared cache is not asked


def _forget_roles(**kwargs) -> None:
    """A role changed (a secretary added or removed, a Member linked): the request asks again."""
    known = _answers.get()
    if known is not None:
        known.clear()
        known[_CHANGED] = True


def _roles(user, club) -> tuple[bool, bool]:
    """(secretary, member) of the club: remembered for the request, and in the shared cache per
    the club's ``data_version`` as the request read it (every change of a role moves it:
    league.registry.versions), so that a page of a Partie does not ask them again."""
    known = _answers.get()
    if known is None or (user.pk, club.pk) not in known:
        shared = None
        if known is not None and _CHANGED not in known and not club._state.adding:  # a request, a club as stored
            shared = f"roles:{club.pk}.{club.data_version}:{user.pk}"
        roles = cache.get(shared) if shared else None
        if roles is None:
            secretary = club.secretaries.filter(pk=user.pk).exists()
            roles = (secretary, secretary or club.members.filter(user=user).exists())
            if shared:
                cache.set(shared, roles, 60 * 60)
        if known is None:
            return roles
        known[(user.pk, club.pk)] = roles
    return known[(user.pk, club.pk)]


def remember_roles(user, club, *, secretary: bool, member: bool) -> None:
    """The roles of ``user`` in ``club`` as another statement read them (the state poll's, in
    one with the match: protocol.views.state_tag): the rest of the request asks no more."""
    known = _answers.get()
    if known is not None:
        known[(user.pk, club.pk)] = (secretary, secretary or member)


m2m_changed.connect(_forget_roles, sender=Club.secretaries.through, dispatch_uid="access.secretaries")
post_save.connect(_forget_roles, sender=Member, dispatch_uid="access.member_saved")
post_delete.connect(_forget_roles, sender=Member, dispatch_uid="access.member_deleted")


def is_signed_in(user, club=None) -> bool:
    """Anyone with an account (what a page asks before looking further, e.g. a job's page)."""
    return user.is_authenticated


def is_secretary(user, club) -> bool:
    if not user.is_authenticated:
        return False
    return _roles(user, club)[0]


def is_member(user, club) -> bool:
    """A linked Member of the club, or one of its secretaries."""
    if not user.is_authenticated:
        return False
    return _roles(user, club)[1]


def can_manage_club(user, club) -> bool:
    """Record matches, edit members and seasons: the club's secretaries, and staff."""
    return user.is_authenticated and (user.is_staff or is_secretary(user, club))


def can_view_club_data(user, club) -> bool:
    """Members' pages: matches, protocols, member lists. Never public."""
    return user.is_authenticated and (user.is_staff or is_member(user, club))


def can_view_standings(user, club) -> bool:
    """The standings: like club data, and for anyone when the club made them public."""
    return club.standings_public or can_view_club_data(user, club)


def can_follow_job(user, job) -> bool:
    """A background job's page and result: who started it, and the club's managers; a job for
    the whole site (no club: a backup) staff only."""
    if job.club_id is None:
        return can_operate_site(user)
    return user.is_authenticated and (job.started_by_id == user.pk or can_manage_club(user, job.club))


def can_operate_site(user) -> bool:
    """The site's own pages (backups): its operators, the staff."""
    return user.is_authenticated and user.is_staff


# -- a table's card ---------------------------------------------------------------------------

@dataclass(frozen=True)
class TableCardGrant:
    """The table card this request's browser holds: the round and table it opens; ``refusal``
    says why it no longer does ("" while it does); ``elsewhere`` what a page it does not open
    says."""

    round_id: int
    table: int
    refusal: str = ""
    elsewhere: str = ""


# The card of the request (``league.tournaments.card_access.TableCardMiddleware``): a function
# asked at the first question, so that a request that asks none reads no session.
_table_card: ContextVar[Callable[[], TableCardGrant | None] | None] = ContextVar("table_card", default=None)


@contextmanager
def table_card(grant: Callable[[], TableCardGrant | None]):
    """Within the block, ``grant()`` is the card the request holds (None: none)."""
    token = _table_card.set(grant)
    try:
        yield
    finally:
        _table_card.reset(token)


def card_grant() -> TableCardGrant | None:
    ask = _table_card.get()
    return ask() if ask is not None else None


def holds_card(match) -> bool:
    """The request holds the valid card of ``match``'s table (its round and table number)."""
    grant = card_grant()
    return (grant is not None and not grant.refusal and getattr(match, "round_id", None) == grant.round_id
            and getattr(match, "table_number", None) == grant.table)


# -- a Partie --------------------------------------------------------------------------------

def is_scorekeeper(user, match) -> bool:
    if not user.is_authenticated:
        return False
    seat = match.scorekeeper_seat
    return seat is not None and seat.member.user_id == user.pk


def can_create_match(user, club) -> bool:
    """Start a Partie: the club's members (as its Protokollant, Art. 4a) and managers."""
    return can_view_club_data(user, club)


def can_view_match(user, match) -> bool:
    return can_view_club_data(user, match.club) or holds_card(match)


def can_record(user, match) -> bool:
    """Add Spiele, Strafen and the end while the Partie runs (a finished one: the secretary)."""
    if match.status in ("finished", "annulled"):
        return can_manage_club(user, match.club) and match.status == "finished"
    return can_manage_club(user, match.club) or is_scorekeeper(user, match) or holds_card(match)


def can_correct(user, match) -> bool:
    """Correct or remove an earlier entry: the secretary always; the Protokollant while it runs
    and, once it finished, while the club's correction window is open (the result is
    provisional, ``correction_window``), as long as no player has confirmed a result (after a
    confirmation, or once the result is final: the secretary only)."""
    if can_manage_club(user, match.club):
        return True
    open_to_him = match.status in ("running", "tiebreak") or correction_window.is_open(match)
    return (open_to_him and (is_scorekeeper(user, match) or holds_card(match))
            and not match.confirmations.exists())


def can_send_entries(user, match) -> bool:
    """Send entries typed offline (the phone's queue): who records them, and who may correct
    the Partie (a correction is all he may send then: the endpoint asks again per entry)."""
    return can_record(user, match) or can_correct(user, match)


def can_manage_match(user, match) -> bool:
    """Change settings, annul the whole Partie: the secretary only."""
    return can_manage_club(user, match.club)


# -- the one way a view asks -------------------------------------------------------------------

def require(user, allowed: bool) -> None:
    """Nothing if ``allowed``; else the login for an anonymous visitor (a table card's holder:
    403 saying what his card opens), 403 for everyone else."""
    if not allowed:
        if not user.is_authenticated and (grant := card_grant()) is not None:
            raise CardRefused(grant.refusal or grant.elsewhere)
        raise LoginRequired if not user.is_authenticated else PermissionDenied


def require_method(request, methods) -> None:
    """405 unless the request's method is one of ``methods``. The views that take POST only
    ask it after the access check, so that a refused visitor is refused (403, the login)
    whatever the method, and learns nothing of the page."""
    if methods is not None and request.method not in methods:
        raise MethodNotAllowed(methods)


def _club_statement(slug, user):
    clubs = Club.objects.filter(slug=slug)
    if user is not None:
        clubs = clubs.annotate(
            viewer_secretary=Exists(Club.secretaries.through.objects.filter(club_id=OuterRef("pk"), user_id=user)),
            viewer_member=Subquery(Member.objects.filter(club_id=OuterRef("pk"), user_id=user).values("pk")[:1]))
    return (clubs,)


# Written as SQL once per process: building it cost more than running it, on every club's page.
_CLUB = Statements(_club_statement, slug=str, user=int)


def require_club(request, slug: str, allowed: Callable | None = None, *, methods=None) -> Club:
    """The club of ``slug`` (404 if there is none), if ``allowed(user, club)`` admits the
    request's user (see :func:`require`), asked with one of ``methods`` (if given). Read with
    the viewer's roles in one statement; ``club.viewer_member`` is his own Member's pk (None:
    he has none in this club, or nobody is signed in)."""
    user = request.user
    found = _CLUB.instances(Club, slug=slug, user=user.pk if user.is_authenticated else None)
    if not found:
        raise Http404(_("There is no such club."))
    club = found[0]
    if user.is_authenticated:  # his roles, read with the club: the checks ask no more
        remember_roles(user, club, secretary=bool(club.viewer_secretary), member=club.viewer_member is not None)
    else:
        club.viewer_member = None
    if allowed is not None:
        require(request.user, allowed(request.user, club))
    require_method(request, methods)
    return club


def require_club_locked(request, club: Club, allowed: Callable) -> Club:
    """The club again, locked until the transaction ends, if ``allowed(user, club)`` still
    admits the request's user: asked of the database again, since another request may have
    changed the roles before the lock was taken."""
    club = Club.objects.select_for_update().get(pk=club.pk)
    _forget_roles()
    require(request.user, allowed(request.user, club))
    return club
