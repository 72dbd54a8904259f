"""Signing the sheet: each player confirms the result of a finished Partie.

On paper the players sign the Spielprotokollblatt at the end; here each one taps "confirm"
after seeing the final sheet:

- a member with a login confirms his own seat on his own phone;
- a guest (or a member without a login) confirms on the Protokollant's phone: the Protokollant
  shows him the final sheet and taps for him;
- at a tournament table, the phone that opened the table's card is handed round: each player
  confirms there (``access.holds_card``; Bridgemate's "North enters, East accepts").

A confirmation holds the match's ``version`` it was given for. Once a player confirmed, only
the secretary may correct the Partie (``league.registry.access.can_correct``); his correction raises
the version, so the confirmations given before it stand for the earlier result and are shown
as such, with the correction that followed them.

Once every player confirmed the result as it stands, it is final even while the club's
correction window is still open (:func:`finality`, ``league.registry.correction_window``).

"Two at the table agree" (``Season.two_agree``, a tournament's choice): a finished table counts
in the tournament's standings and on its live board only once a player other than its
Protokollant confirmed the result as it stands (:func:`agreed`): North enters, East accepts. A
later correction raises the version and needs a new acceptance. Such an acceptance changes what
the club's table shows, so it moves the club's version (league.registry.versions).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef

from league.registry import access, correction_window
from league.registry.versions import touch_club, touch_members
from protocol.models import Change, Confirmation, Match, Seat


class NotConfirmable(Exception):
    """The Partie is not finished: there is no final result to confirm yet."""


def is_signable(match: Match) -> bool:
    """Only a finished Partie has a final sheet to confirm (an annulled one counts for nothing)."""
    return match.status == Match.Status.FINISHED


def may_confirm(user, match: Match, seat: Seat) -> bool:
    """The player himself on his login; for a seat without a login (a guest), the Protokollant;
    any seat on the phone holding the table's card."""
    if not is_signable(match):
        return False
    if access.holds_card(match):
        return True
    if not user.is_authenticated:
        return False
    if seat.member.user_id is not None:
        return seat.member.user_id == user.pk
    return access.is_scorekeeper(user, match)


def confirm(match: Match, seat: Seat, *, user) -> Confirmation:
    """Record that the player of ``seat`` confirms the result as it stands now (idempotent)."""
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match.pk)
        if not is_signable(match):
            raise NotConfirmable
        try:
            with transaction.atomic():
                given = Confirmation.objects.create(match=match, seat=seat, version=match.version,
                                                    by=user if user.is_authenticated else None)
        except IntegrityError:  # a second tap, or the other device was quicker: confirmed once
            return Confirmation.objects.get(seat=seat, version=match.version)
        own = user.is_authenticated and seat.member.user_id == user.pk
        Change.objects.create(match=match, action=Change.Action.CONFIRM, user=user if user.is_authenticated else None,
                              after={"player": seat.name, "on_own_device": own}
                              | ({"table_card": True} if not own and access.holds_card(match) else {}))
        # Confirmed by all, a Partie is no longer provisional (league.standings.provisional); in a
        # season that needs agreement the table may count now: the kept pages ask again.
        touch_club(match.club_id)
        touch_members(match.seats.values_list("member_id", flat=True))
    return given


def agreed() -> Exists:
    """True for a Partie whose result as it stands is confirmed by a player other than its
    Protokollant ("two at the table agree")."""
    return Exists(Confirmation.objects.filter(match=OuterRef("pk"), version=OuterRef("version"),
                                              seat__is_scorekeeper=False))


def awaiting_agreement(matches):
    """The finished Partien of ``matches`` (a queryset) that no second player accepted yet."""
    return matches.filter(status=Match.Status.FINISHED).exclude(agreed())


def awaits_agreement(match: Match, signed: list[Signature]) -> bool:
    """The finished Partie's result does not count yet: its tournament wants a second player's
    acceptance and no player but the Protokollant confirmed it as it stands (``signed``)."""
    if not is_signable(match) or match.season_id is None or not match.season.needs_agreement:
        return False
    return not any(line.current is not None and not line.seat.is_scorekeeper for line in signed)


def awaiting_count(season) -> int:
    """How many finished tables of ``season`` its standings leave out until a second player
    accepts them (0 where every finished one counts)."""
    if season is None or not season.needs_agreement:
        return 0
    return awaiting_agreement(Match.objects.filter(season=season)).count()


def counted_in(season):
    """The Partien of ``season`` its standings count, or None where every finished one counts
    (a tournament without "two at the table agree")."""
    if season is None or not season.needs_agreement:
        return None
    return Match.objects.filter(season=season, status=Match.Status.FINISHED).filter(agreed()).values("pk")


@dataclass
class Signature:
    """One player's line of signatures: his confirmation of the result now, and earlier ones."""

    seat: Seat
    current: Confirmation | None = None
    earlier: list[Confirmation] = field(default_factory=list)
    may_confirm: bool = False
    keeper_user_id: int | None = None  # the account of the match's Protokollant, if he has one

    @property
    def on_own_device(self) -> bool:
        return self.current is not None and self.current.by_id is not None \
            and self.current.by_id == self.seat.member.user_id

    @property
    def given_by(self) -> str:
        """Where the current confirmation was given, as the page says it: "" on the player's own
        login, "card" on a phone that opened the table's card (no account), "scorekeeper" on
        the Protokollant's login (his phone going round), else the name of the account it was
        given on (the secretary's)."""
        if self.current is None or self.on_own_device:
            return ""
        by = self.current.by
        if by is None:
            return "card"
        return "scorekeeper" if by.pk == self.keeper_user_id else (by.get_full_name() or by.get_username())


def signatures(match: Match, user=None) -> list[Signature]:
    """Every seat in seating order with its confirmations; ``may_confirm`` for ``user``."""
    seats = list(match.seats.select_related("member"))
    keeper = next((seat.member.user_id for seat in seats if seat.is_scorekeeper), None)
    lines = {seat.pk: Signature(seat, keeper_user_id=keeper) for seat in seats}
    for given in match.confirmations.select_related("by"):
        line = lines.get(given.seat_id)
        if line is None:
            continue
        if given.version == match.version:
            line.current = given
        else:
            line.earlier.append(given)
    if user is not None:
        for line in lines.values():
            line.may_confirm = line.current is None and may_confirm(user, match, line.seat)
    return [lines[seat.pk] for seat in seats]


def signatures_for_page(match: Match, user, confirmed: bool | None = None) -> list[Signature]:
    """The signatures a match page shows: once the Partie is over, or once anybody confirmed
    (a correction may have reopened it: the earlier confirmations stay visible). ``confirmed``:
    whether anybody did, where the page read it already."""
    if is_signable(match) or (match.confirmations.exists() if confirmed is None else confirmed):
        return signatures(match, user)
    return []


def corrections_after_confirmation(match: Match) -> list[Change]:
    """The corrections made after the first confirmation (by the secretary: nobody else may)."""
    first = match.confirmations.order_by("at").first()
    if first is None:
        return []
    return list(match.changes.filter(at__gt=first.at).exclude(action=Change.Action.CONFIRM)
                .select_related("user").order_by("at", "id"))


def confirmed_names(match: Match) -> dict[str, Confirmation]:
    """Player name -> his confirmation of the result as it stands (for the printed sheet)."""
    return {c.seat.name: c for c in match.confirmations.filter(version=match.version).select_related("seat")}


def confirmed_by_all(match: Match) -> bool:
    """Whether every seat confirmed the result as it stands (the match's current version)."""
    return not match.seats.exclude(confirmations__version=match.version).exists()


def _a_seat_unconfirmed() -> Exists:
    """True for a Partie with a seat that has not confirmed its current version."""
    current = Confirmation.objects.filter(seat=OuterRef("pk"), version=OuterRef(OuterRef("version")))
    return Exists(Seat.objects.filter(match=OuterRef("pk")).exclude(Exists(current)))


def with_confirmed_by_all(matches):
    """``matches`` (a queryset) with ``confirmed_by_all`` on each, as :func:`confirmed_by_all`
    says it, in the same statement (a list of Partien asks :func:`finality` of each)."""
    return matches.annotate(confirmed_by_all=~_a_seat_unconfirmed())


def not_confirmed_by_all(matches):
    """The Partien of ``matches`` (a queryset) that some player has not confirmed as they stand."""
    return matches.filter(_a_seat_unconfirmed())


def finality(match: Match, signed: list[Signature] | None = None) -> str | None:
    """Provisional or final (``correction_window``) for a finished Partie, None for another.
    Every seat's confirmation is read from ``signed`` (the page's :func:`signatures`), the
    annotation of :func:`with_confirmed_by_all`, or asked."""
    if match.status != Match.Status.FINISHED:
        return None
    if signed is not None:
        confirmed = bool(signed) and all(line.current is not None for line in signed)
    elif hasattr(match, "confirmed_by_all"):
        confirmed = match.confirmed_by_all
    else:
        confirmed = not correction_window.is_open(match) or confirmed_by_all(match)
    return correction_window.finality(match, confirmed_by_all=confirmed)
