"""The league's reading pages: the table, a member's page and the archive of Partien.

Thin views: fetch the club with an explicit access check, compute with ``league.standings.ranking``
and ``league.standings.history``, render. The table follows ``can_view_standings`` (public if the
club chose so), the rest ``can_view_club_data``.
"""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe
from django_tables2 import RequestConfig

from league.models import Club, Season
from league.registry import access
from league.registry.access import require_club
from league.registry.statements import Statements
from league.standings import games, kept_page
from league.standings.filters import ArchiveFilter
from league.standings.provisional import kept_provisional, provisional_partien
from league.standings.ranking import RULE_TEXT, TOURNAMENT_RULES
from league.standings.sanctions import history_html
from league.standings.table_cache import (
    cached_member_partien,
    cached_rank_history,
    cached_sanctions,
    cached_standings,
    club_seasons,
    data_stamp,
    member_stamp,
)
from league.standings.tables import ArchiveTable, MemberPartienTable, StandingsTable, score
from protocol.confirmations import awaiting_count, with_confirmed_by_all
from protocol.models import Match
from protocol.rules import RULESETS
from protocol.sheet import chart

ALL_TIME = "alle"  # ?saison=alle on the member page
TABLE_PAGE = 50
CLUB_PAGE_ROWS = 10
MAX_PER_PAGE = 500  # ?per_page= beyond this is not a reading page any more
SANCTIONS_SHOWN = 10  # on a member's page; the earlier ones open on a tap


def paginate(request, table, per_page):
    """Sort and paginate ``table`` as the URL asks (``?sort=``, ``?page=``, ``?per_page=``).

    django-tables2 takes any whole number for ``per_page``; 0 or less makes its paginator
    fail (a 500). A number of rows outside 1..MAX_PER_PAGE is a page that does not exist.
    """
    wanted = request.GET.get(f"{table.prefix}{table.per_page_field}")
    if wanted is not None:
        try:
            valid = 1 <= int(wanted) <= MAX_PER_PAGE
        except ValueError:
            valid = True  # not a number: django-tables2 ignores it and shows the default
        if not valid:
            raise Http404(_("Rows per page must be a whole number from 1 to %(max)d.") % {"max": MAX_PER_PAGE})
    RequestConfig(request, paginate={"per_page": per_page}).configure(table)


# -- helpers the club page shares ----------------------------------------------------------

def default_season(seasons: list[Season], today=None) -> Season | None:
    """The season the table opens with: the one under way (the latest-starting, as
    ``Season.current_for``), else the last one that began, else the next one."""
    today = today or timezone.localdate()
    running = [s for s in seasons if s.start <= today <= s.end]
    begun = [s for s in seasons if s.start <= today]
    for candidates in (running, begun, seasons):
        if candidates:
            return max(candidates, key=lambda s: s.start)
    return None


def viewer_member_id(user, club: Club) -> int | None:
    """The viewer's own Member in this club (his row is highlighted), if any."""
    if not user.is_authenticated:
        return None
    if hasattr(club, "viewer_member"):  # read with the club (access.require_club)
        return club.viewer_member
    return club.members.filter(user=user).values_list("pk", flat=True).first()


def standings_table(request, club: Club, rows, *, compact_rule: str | None = None,
                    season: Season | None = None, **kwargs):
    """The table with member links for viewers who may open member pages; ``compact_rule``
    gives the club page's short version (the columns the rule ranks by). A tournament's
    rule (``compact_rule``, or ``season``'s) adds its score."""
    links = access.can_view_club_data(request.user, club)
    rule = compact_rule or (season.ranking_rule if season else None)
    table = StandingsTable(rows, club_slug=club.slug if links else None,
                           me=viewer_member_id(request.user, club),
                           tournament_rule=rule if rule in TOURNAMENT_RULES else None, **kwargs)
    if compact_rule:
        keep = {"points"} if compact_rule == Season.RankingRule.TOTAL else set()
        if compact_rule in TOURNAMENT_RULES:  # the score and the rounds played
            table.columns.hide("won")
            table.columns.hide("ppg")
        for name in StandingsTable.COMPACT:
            if name not in keep:
                table.columns.hide(name)
    elif season is not None and season.is_tournament and "tiebreaks" not in figures_of(season.ruleset):
        table.columns.hide("tiebreaks")  # a game without a Stechen
        table.columns.hide("tiebreaks_won")
    return table


def figures_of(game: str | None) -> tuple[str, ...]:
    """The figures of a table only some games have (``Ruleset.standings_figures``); all of
    them for a table of no one game."""
    if game is None:
        return tuple(figure for ruleset in RULESETS.values() for figure in ruleset.standings_figures)
    ruleset = RULESETS.get(game)
    return ruleset.standings_figures if ruleset is not None else ()


def rule_text(season: Season | None) -> str:
    return str(RULE_TEXT[season.ranking_rule if season else Season.RankingRule.WINS_THEN_PPG])


def game_of(request, choices: list[str]) -> str | None:
    """The game an all-time view shows: ``?spiel=<key>`` among ``choices`` (404 for any
    other), else the first of them; None when there is none."""
    wanted = request.GET.get("spiel")
    if wanted is None:
        return choices[0] if choices else None
    if wanted not in choices:
        raise Http404(_("This club has no finished matches of that game."))
    return wanted


def game_pills(choices: list[str], chosen: str | None) -> list[dict]:
    """The game switch of an all-time view: one pill per game (none when there is one game)."""
    if len(choices) < 2:
        return []
    return [{"key": key, "name": games.name(key), "current": key == chosen} for key in choices]


def _season_of(seasons: list[Season], pk) -> Season:
    try:
        return next(s for s in seasons if s.pk == int(pk))
    except (StopIteration, TypeError, ValueError):
        raise Http404(_("This club has no such season.")) from None


# -- the table -----------------------------------------------------------------------------

@require_safe
def standings_page(request, slug, season_pk=None):
    """The table of a season: ``/tabelle/<pk>/``, ``/tabelle/?saison=<pk>``, or the season
    under way at ``/tabelle/``."""
    club = require_club(request, slug, access.can_view_standings)
    seasons = club_seasons(club)
    wanted = season_pk or request.GET.get("saison")
    season = _season_of(seasons, wanted) if wanted else default_season(seasons)
    if season is None:  # a club without seasons: all its Partien
        return _standings(request, club, seasons, None, all_time=True)
    return _standings(request, club, seasons, season)


@require_safe
def standings_all_time(request, slug):
    """The all-time table: every finished Partie of the club, whatever its season."""
    club = require_club(request, slug, access.can_view_standings)
    return _standings(request, club, club_seasons(club), None, all_time=True)


def _standings(request, club, seasons, season, all_time=False):
    """Kept (league.standings.kept_page) per state of the club's tables, the view of them (the
    viewer's row, the member links, sorting and page) and the Partien still provisional."""
    links = access.can_view_club_data(request.user, club)
    me = viewer_member_id(request.user, club)
    # All-time: of every game (which one it shows follows from the URL and the club's version).
    provisional = kept_provisional(club, season, games.of_season(season) if season else None)
    key = [club.pk, club.slug, club.name, club.data_version, season.pk if season else ALL_TIME,
           request.GET.urlencode(), me, links, provisional.key, provisional.until]
    content = kept_page.body(request, "league/includes/standings_body.html", key,
                             lambda: _standings_context(request, club, seasons, season, all_time, provisional))
    return render(request, "league/standings.html", {"club": club, "season": season, "all_time": all_time,
                                                     "content": content, "full_view": links})


def _standings_context(request, club, seasons, season, all_time, provisional) -> dict:
    """What the table's body shows, computed when it is not kept (``provisional``: of the
    season, or of every game for the all-time table, which shows one game's)."""
    in_play = games.in_play(club) if season is None else []
    game = game_of(request, in_play) if season is None else games.of_season(season)
    stamp = data_stamp(club, season, game)
    rows = cached_standings(club, season, stamp, game)
    table = standings_table(request, club, rows, season=season)
    paginate(request, table, TABLE_PAGE)
    me = next((row for row in rows if row.member.pk == table.me), None)
    return {
        "club": club,
        "season": season,
        "seasons": seasons,
        "all_time": all_time,
        "game": game,
        "game_name": games.name(game) if game else "",
        "game_pills": game_pills(in_play, game),
        "table": table,
        "rows": rows,
        "me": me,
        "rule_text": rule_text(season),
        "provisional": provisional if season is not None else provisional_partien(club, None, game),
        "awaiting": awaiting_count(season),
    }


# -- a member's page -------------------------------------------------------------------------

@require_safe
def member_page(request, slug, member_pk):
    """A member's season: his place and numbers, charts, his rating, his Partien, his Strafen.

    Kept (league.standings.kept_page) per state of the club's tables, of his own Partien and
    rating and of the Partien still provisional: between writes the page costs the club's and
    member's rows, the seasons, one query of the provisional Partien and one cache read."""
    club = require_club(request, slug, access.can_view_club_data)
    member = get_object_or_404(club.members, pk=member_pk)
    seasons = club_seasons(club)
    wanted = request.GET.get("saison")
    season = None if wanted == ALL_TIME else (_season_of(seasons, wanted) if wanted else default_season(seasons))
    mine = member_stamp(member, seasons)  # his own Partien, running ones too, and his sanctions
    is_me = member.user_id is not None and member.user_id == request.user.pk
    # Of every game: which one an all-time view shows follows from the URL and his Partien.
    provisional = kept_provisional(club, season, member=member, stamp=mine)
    # His rating moves his version too (league.ratings.ledger), a partner's new name the club's.
    key = [club.pk, club.slug, club.name, club.data_version, club.ratings_show_guests, mine,
           season.pk if season else ALL_TIME, request.GET.urlencode(), is_me, provisional.key]
    content = kept_page.body(request, "league/includes/member_body.html", key,
                             lambda: _member_context(request, club, member, seasons, season, mine, is_me, provisional))
    return render(request, "league/member.html", {"club": club, "member": member, "content": content})


def _member_context(request, club, member, seasons, season, mine, is_me, provisional) -> dict:
    """What the member page's body shows, computed when it is not kept (``provisional``: his
    Partien still provisional of the season, or of every game for an all-time view)."""
    all_time = season is None
    played = games.ordered(member.seats.values_list("match__ruleset", flat=True).distinct()) if all_time else []
    game = game_of(request, played) if all_time else games.of_season(season)
    stamp = data_stamp(club, season, game)  # the table and the places over time: kept per stamp
    table = cached_standings(club, season, stamp, game)
    row = next((r for r in table if r.member.pk == member.pk), None)
    partien = cached_member_partien(member, season, game, mine)
    history = cached_rank_history(club, season, member, stamp, game) if row else []
    if season is None:  # the all-time view shows one game's
        provisional = provisional_partien(club, None, game, member=member)
    partien_table = MemberPartienTable(partien, club_slug=club.slug, provisional=provisional.matches,
                                       prefix="partien-")
    if not any(p.match.round_id for p in partien):
        partien_table.columns.hide("round")
    paginate(request, partien_table, 25)
    sanctions = cached_sanctions(member, mine)
    return {
        "club": club,
        "member": member,
        "seasons": seasons,
        "season": season,
        "all_time": all_time,
        "game": game,
        "game_name": games.name(game) if game else "",
        "game_pills": game_pills(played, game),
        "row": row,
        "table_size": len(table),
        "stats": _stats(row) if row else None,
        "tournament_rule": season.ranking_rule if season and season.ranking_rule in TOURNAMENT_RULES else None,
        "tournament_score": score(row.tournament_score) if row else None,
        # Tie-breaks and the trump bonus: only for a game that has them (Ruleset.standings_figures).
        "own_figures": figures_of(game) if game else figures_of(None),
        "partien_table": partien_table,
        "partien_count": len(partien),
        "ppg_chart": chart.points_per_game_chart(partien),
        "placement_chart": chart.placement_chart(history),
        "sanctions": sanctions,
        # The newest first; the earlier ones folded away below them.
        "sanctions_html": history_html(sanctions[:SANCTIONS_SHOWN], club.slug),
        "earlier_sanctions": max(0, len(sanctions) - SANCTIONS_SHOWN),
        "earlier_sanctions_html": history_html(sanctions[SANCTIONS_SHOWN:], club.slug),
        "earlier_from": SANCTIONS_SHOWN + 1,
        "is_me": is_me,
    }


def _stats(row) -> dict:
    """Shares (in per cent) and the average score per Spiel for the member page; None where
    there is nothing to divide. The trump rate counts the Spiele recorded with their facts:
    of one recorded as points only it is unknown whether he took the Trumpfwertung."""
    return {
        "win_rate": 100 * row.won / row.played if row.played else None,
        "average": row.points / row.games if row.games else None,
        "trump_rate": 100 * row.trump_bonuses / row.games_with_facts if row.games_with_facts else None,
    }


# -- the archive ----------------------------------------------------------------------------

def _written_statement(club):
    return (Match.objects.filter(club_id=club).order_by("-updated_at").values("updated_at")[:1],)


# When a Partie of the club was last written (protocol.recording sets it with every write):
# one seek of an index, written as SQL once per process.
_LAST_WRITTEN = Statements(_written_statement, club=int)


@require_safe
def archive(request, slug):
    """All Partien of the club, filtered by season, dates, member and status.

    Kept (league.standings.kept_page) per the last write to one of the club's Partien, the
    club's version (a deletion, a confirmation, a new name), the Partien still provisional and
    the filter asked."""
    club = require_club(request, slug, access.can_view_club_data)
    written = _LAST_WRITTEN.run(club=club.pk)[0]
    provisional = kept_provisional(club)
    key = [club.pk, club.slug, club.name, club.data_version, written[0]["updated_at"] if written else None,
           request.GET.urlencode(), provisional.key]
    content, notes = kept_page.kept(request, "league/includes/archive_body.html", key,
                                    lambda: _archive_context(request, club))
    chosen = next((s for s in club_seasons(club) if s.pk == notes["season"]), None) if notes.get("season") else None
    return render(request, "league/archive.html", {"club": club, "content": content, "chosen_season": chosen})


def _archive_context(request, club) -> dict:
    """What the archive's body shows, computed when it is not kept."""
    matches = with_confirmed_by_all(club.matches.select_related("season", "winner").prefetch_related("seats"))
    filters = ArchiveFilter(request.GET or None, queryset=matches, club=club)
    table = ArchiveTable(filters.qs, club_slug=club.slug)
    paginate(request, table, 25)
    chosen = filters.form.cleaned_data.get("saison") if filters.is_bound and filters.is_valid() else None
    return {"club": club, "filter": filters, "table": table, "notes": {"season": chosen.pk if chosen else None}}
