"""Paper for the tournament day: each round's results list and the final ranking, as PDFs.

The results list names, per table, its players with their points in the round (Strafen
deducted; under TCG also the round's score) and the table's state: still playing,
finished, or confirmed by all its players. The final ranking is the tournament's table by
its rule (TCG or FFT, ``league.standings.ranking``): rank, name, rounds played, score. Both
read the totals the engine derived (``league.tournaments.rounds.round_tables``,
``league.standings.ranking.standings``); nothing is computed here. The seating plan and the
table cards have their own modules (``rounds``, ``card_pages``); the season's workbook
carries the same ranking as its table sheet (``league.spreadsheets.exports``).

Members read both where they may read the standings (``access.can_view_standings``).
"""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.utils import timezone
from django.views.decorators.http import require_safe

from league.models import Club, Round, Season
from league.registry import access
from league.registry.access import require_club
from league.standings.ranking import RULE_TEXT, standings
from league.standings.tables import score
from league.tournaments.rounds import TableView, _round, _season, round_tables
from protocol.confirmations import with_confirmed_by_all
from protocol.models import Match


def table_state(match: Match | None, confirmed: bool) -> str:
    """waiting (no match yet), playing, finished, or confirmed (finished and signed by every player)."""
    if match is None or match.status == Match.Status.ANNULLED:
        return "waiting"
    if match.status == Match.Status.FINISHED:
        return "confirmed" if confirmed else "finished"
    return "playing"


def round_results(round_: Round) -> list[TableView]:
    """The round's tables with each player's points and the table's ``state``."""
    tables = round_tables(round_)
    pks = [t.match.pk for t in tables if t.match is not None]
    confirmed = dict(with_confirmed_by_all(Match.objects.filter(pk__in=pks)).values_list("pk", "confirmed_by_all"))
    for table in tables:
        table.state = table_state(table.match, confirmed.get(table.match.pk if table.match else None, False))
    return tables


def _pdf(template: str, context: dict) -> bytes:
    from protocol.sheet import html_to_pdf  # WeasyPrint is loaded only when a PDF is asked for

    return html_to_pdf(render_to_string(template, {**context, "printed_at": timezone.localtime()}))


def results_pdf(round_: Round) -> bytes:
    """The round's results list, a block per table."""
    season = round_.season
    return _pdf("league/round_results_sheet.html", {
        "club": season.club, "season": season, "round": round_, "tables": round_results(round_),
        "tcg": season.ranking_rule == Season.RankingRule.TCG})


def ranking_pdf(club: Club, season: Season) -> bytes:
    """The tournament's final ranking by its rule."""
    return _pdf("league/ranking_sheet.html", {
        "club": club, "season": season, "rows": [(row, score(row.tournament_score)) for row in standings(club, season)],
        "rounds": season.rounds.count(), "rule": season.ranking_rule, "rule_text": RULE_TEXT[season.ranking_rule]})


def _download(data: bytes, name: str) -> HttpResponse:
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{name}"'
    response["Cache-Control"] = "private, no-store"
    return response


@require_safe
def round_results_view(request, slug, round_pk):
    club = require_club(request, slug, access.can_view_standings)
    round_ = _round(club, round_pk)
    return _download(results_pdf(round_), f"ergebnisse-{club.slug}-runde-{round_.number}.pdf")


@require_safe
def ranking_view(request, slug, season_pk):
    club = require_club(request, slug, access.can_view_standings)
    season = _season(club, season_pk)
    if not season.is_tournament:  # a league's table is its standings page
        return redirect("standings_season", slug=club.slug, season_pk=season.pk)
    return _download(ranking_pdf(club, season), f"rangliste-{club.slug}-{season.pk}.pdf")
