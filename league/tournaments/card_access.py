"""A table card in a browser: opening its address (``/t/<code>/``) keeps the card in the
session, so that the phone goes on entering after a reload and sends what it typed offline;
every request then asks again whether the card still holds (the round not closed, the card not
reissued) and tells the access module (``access.table_card``) which table it opens.

A card opens its table's Partie alone, with the Protokollant's rights at that table
(``league.registry.access``); any other page refuses its holder with 403 and a German page that
says what the card opens, or why it no longer does. A signed-in member keeps his own rights.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from league.models import TableCard
from league.registry import access
from league.registry.statements import Statements
from league.tournaments import cards

SESSION_KEY = "table_card"


@dataclass
class HeldCard:
    """The card a browser holds, as it stands now."""

    card: TableCard
    refusal: str  # "" while it opens its table

    @property
    def words(self) -> dict:
        return {"table": self.card.table, "round": self.card.round.number, "season": self.card.round.season.name}

    @property
    def url(self) -> str:
        """The card's own address (it leads on to the table's Partie)."""
        code = cards.code_of(self.card)
        return cards.path(code) if code else "/"

    def grant(self) -> access.TableCardGrant:
        return access.TableCardGrant(
            self.card.round_id, self.card.table, refusal=self.refusal,
            elsewhere=_("This table card opens only the match of table %(table)s in round %(round)s "
                        "(%(season)s): to enter its games and penalties, end it and confirm its result. "
                        "For anything else, please log in.") % self.words)


def held_card(request) -> HeldCard | None:
    """The card the request's session holds, asked of the database now (None: none)."""
    if not hasattr(request, "session"):
        return None
    pk = request.session.get(SESSION_KEY)
    if pk is None:
        return None
    found = _CARD.objects(card=pk) if isinstance(pk, int) else []
    card = found[0] if found else None
    if card is None:  # its round was deleted
        request.session.pop(SESSION_KEY, None)
        return None
    return HeldCard(card, cards.refusal(card))


# Asked on every request of a card holder (every few seconds by each phone at a table): its SQL
# is written once per process.
_CARD = Statements(lambda card: (TableCard.objects.select_related("round", "round__season", "round__season__club")
                                 .filter(pk=card),), card=int)


class TableCardMiddleware:
    """Tells the access module the card this request holds (asked once, at the first
    question), and answers a card holder refused with the page that says why."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        held = cache(lambda: held_card(request))
        request.table_card = SimpleLazyObject(held)
        with access.table_card(lambda: (card.grant() if (card := held()) is not None else None)):
            return self.get_response(request)

    def process_exception(self, request, exception):
        if isinstance(exception, access.CardRefused):
            held = held_card(request)
            return render(request, "league/table_card.html", {
                "problem": exception.message, "held": held,
                "match": cards.table_match(held.card) if held is not None and not held.refusal else None,
            }, status=403)
        return None


@require_safe
def open_card(request, card):
    """The card's address: keeps the card in the session and opens its table's Partie (a page
    that says so while the secretary has not created it yet; a German page for a code that is
    no card, or a card that no longer holds)."""
    found = cards.find(card)
    if found.card is None:
        return render(request, "league/table_card.html", {
            "problem": _("There is no table card with this code. Please check the address on the card: "
                         "ten letters and digits, e.g. K7M2X-Q9PTA.")}, status=404)
    if found.refusal:
        return render(request, "league/table_card.html", {"problem": found.refusal}, status=403)
    if request.session.get(SESSION_KEY) != found.card.pk:
        request.session.cycle_key()  # a new right: a new session id, as at a login
        request.session[SESSION_KEY] = found.card.pk
    match = cards.table_match(found.card)
    held = HeldCard(found.card, "")
    if match is None:
        return render(request, "league/table_card.html", {"held": held, "waiting": True})
    messages.success(request, _("Table card of table %(table)s, round %(round)s: you can enter this table's "
                                "games and confirm its result.") % held.words)
    return redirect(match)
