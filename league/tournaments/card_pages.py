"""The secretary's table cards: the PDF of all the round's cards (four A6 cards on each A4
sheet, to cut), one table's card, and reissuing a card (the old one stops working).

Each card names the tournament, the round, the table and its players in their seats, and
carries the QR code (inline SVG, as an invitation's) and the short address of its code
(``league.tournaments.cards``).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from league.models import Round, TableCard
from league.registry import access
from league.registry.access import require_club
from league.registry.qr import qr_svg
from league.tournaments import cards
from league.tournaments.rounds import TableView, _round, round_tables
from protocol.confirmations import awaiting_agreement
from protocol.sheet import check


@dataclass
class PrintedCard:
    table: TableView
    card: TableCard
    code: str
    url: str  # the full address the QR code holds
    qr: str

    @property
    def address(self) -> str:
        """The address to type, without its scheme."""
        return self.url.split("://", 1)[-1]


def printed_cards(round_: Round, tables: list[TableView], site: str, user=None) -> list[PrintedCard]:
    """The valid card of each of ``tables`` (issued now where a table has none), ready to print."""
    issued = cards.cards_of(round_, [t.number for t in tables], user)
    printed = []
    for table in tables:
        card = issued[table.number]
        code = cards.code_of(card)
        if code is None:  # issued under a secret key the site no longer has: a new card
            card = cards.reissue(round_, table.number, user)
            code = cards.code_of(card)
        url = site.rstrip("/") + cards.path(code)
        printed.append(PrintedCard(table, card, code, url,
                                   qr_svg(url, _("QR code of the card of table %(n)s") % {"n": table.number})))
    return printed


def cards_pdf(round_: Round, printed: list[PrintedCard], *, sheet: bool) -> bytes:
    """The cards as a PDF: A6 cards four to an A4 sheet (``sheet``), or one A6 card."""
    from protocol.sheet import html_to_pdf  # WeasyPrint is loaded only when a PDF is asked for

    pages = [printed[i:i + cards.CARDS_PER_SHEET] for i in range(0, len(printed), cards.CARDS_PER_SHEET)] \
        if sheet else [printed]
    html = render_to_string("league/table_cards.html", {
        "round": round_, "season": round_.season, "club": round_.season.club, "pages": pages, "sheet": sheet,
        "positions": round_.season.format_positions_deals})
    return html_to_pdf(html)


def _open_round(request, club, round_pk) -> Round | None:
    round_ = _round(club, round_pk)
    if round_.closed_at is not None:
        messages.error(request, _("The round is closed: its table cards are no longer valid."))
        return None
    return round_


def _pdf(data: bytes, name: str) -> HttpResponse:
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{name}"'
    response["Cache-Control"] = "private, no-store"  # the cards open the tables
    return response


@require_safe
def round_cards_pdf(request, slug, round_pk):
    """All the round's cards, four to a sheet."""
    club = require_club(request, slug, access.can_manage_club)
    round_ = _open_round(request, club, round_pk)
    if round_ is None:
        return redirect("round", slug=club.slug, round_pk=round_pk)
    tables = round_tables(round_)
    if not tables:
        raise Http404("Diese Runde hat keine Tische.")
    printed = printed_cards(round_, tables, check.site_of(request), request.user)
    return _pdf(cards_pdf(round_, printed, sheet=True), f"tischkarten-{club.slug}-runde-{round_.number}.pdf")


def _table(round_: Round, table: int) -> TableView:
    found = next((t for t in round_tables(round_) if t.number == table), None)
    if found is None:
        raise Http404("Diesen Tisch gibt es in der Runde nicht.")
    return found


@require_safe
def table_card_pdf(request, slug, round_pk, table):
    """One table's card."""
    club = require_club(request, slug, access.can_manage_club)
    round_ = _open_round(request, club, round_pk)
    if round_ is None:
        return redirect("round", slug=club.slug, round_pk=round_pk)
    printed = printed_cards(round_, [_table(round_, table)], check.site_of(request), request.user)
    return _pdf(cards_pdf(round_, printed, sheet=False),
                f"tischkarte-{club.slug}-runde-{round_.number}-tisch-{table}.pdf")


@require_http_methods(["GET", "POST"])
def table_card_reissue(request, slug, round_pk, table):
    """Reissue a table's card (asked on a page of its own first): the old card stops working."""
    club = require_club(request, slug, access.can_manage_club)
    round_ = _open_round(request, club, round_pk)
    if round_ is None:
        return redirect("round", slug=club.slug, round_pk=round_pk)
    view = _table(round_, table)
    if request.method == "POST":
        card = cards.reissue(round_, table, request.user)
        messages.success(request, _("The card of table %(n)s was reissued (issue %(issue)s): the old card no "
                                    "longer works. Print the new one.") % {"n": table, "issue": card.generation})
        return redirect(round_)
    return render(request, "league/table_card_reissue.html", {
        "club": club, "season": round_.season, "round": round_, "table": view,
        "card": round_.cards.filter(table=table, replaced_at=None).first()})


@require_http_methods(["GET", "POST"])
def round_close(request, slug, round_pk):
    """Close the round (asked on a page of its own first): its table cards stop working; the
    members' and the secretary's rights stay as they are."""
    club = require_club(request, slug, access.can_manage_club)
    round_ = _round(club, round_pk)
    if request.method == "POST":
        if Round.objects.filter(pk=round_.pk, closed_at=None).update(closed_at=timezone.now()):
            messages.success(request, _("Round %(n)s is closed: its table cards no longer work.") % {"n": round_.number})
        else:
            messages.info(request, _("Round %(n)s was closed already.") % {"n": round_.number})
        return redirect(round_)
    tables = round_tables(round_)
    running = [t.number for t in tables if t.match is not None and t.match.status in ("running", "tiebreak")]
    awaiting = []
    if round_.season.needs_agreement:  # a card's phone can no longer give the second player's acceptance
        waits = set(awaiting_agreement(round_.matches.all()).values_list("table_number", flat=True))
        awaiting = [t.number for t in tables if t.number in waits]
    return render(request, "league/round_close.html", {
        "club": club, "season": round_.season, "round": round_, "running": running, "awaiting": awaiting,
        "unstarted": [t.number for t in tables if t.match is None]})
