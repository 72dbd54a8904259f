"""A tournament: a season in tournament mode, its rounds, their seating and their matches.

The secretary turns a season into a tournament (the game, its rules, positions if they are fixed),
then for each round ticks the players present: :mod:`league.tournaments.seating` draws the tables,
avoiding the pairs of the earlier rounds; the seating plan is a page (printable) and a PDF;
"create the matches" opens one match per table (``protocol.matches.create_match``, North
keeping the sheet), which the tables then keep like any other. Members read the rounds and
the plans; the table ranks by the tournament's rule (``league.standings.ranking``).

Thin views: fetch with an access check, act, redirect. The draw is
:func:`draw_round` (the round's seed and the earlier rounds decide it, so the same round
is drawn the same way again).
"""

from __future__ import annotations

import random
import secrets
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal

from django.contrib import messages
from django.db import IntegrityError, transaction
from django.db.models import Count, Max, Sum
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods, require_safe

from league.models import Member, Round, Season, TableSeat
from league.registry import access
from league.registry.access import require_club
from league.standings.pages import standings_table
from league.standings.ranking import RULE_TEXT, standings, tcg_score
from league.standings.tables import number, score
from league.tournaments import cards, draws, seating
from league.tournaments.forms import RoundForm, TournamentForm
from protocol import matches, recording
from protocol.confirmations import awaiting_agreement, awaiting_count
from protocol.models import Match, SanctionLine, ScoreLine
from protocol.rules import RULESETS

COMPASS = [gettext_lazy("North"), gettext_lazy("East"), gettext_lazy("South"), gettext_lazy("West")]


# -- reading a round -------------------------------------------------------------------------

@dataclass
class SeatView:
    seat: TableSeat
    label: str
    points: int | None = None  # his total at the table (Strafen deducted), once it plays
    games: int = 0
    round_score: Decimal | None = None  # TCG: points / games x 100

    @property
    def member(self) -> Member:
        return self.seat.member

    @property
    def points_text(self) -> str:
        return number(self.points) if self.points is not None else "–"

    @property
    def round_score_text(self) -> str:
        return score(self.round_score) if self.round_score is not None else "–"


@dataclass
class TableView:
    number: int
    seats: list[SeatView] = field(default_factory=list)
    match: Match | None = None  # the match in play (or the last annulled one)
    repeats: list[tuple[str, str]] = field(default_factory=list)  # pairs who sat together before
    card: object = None  # the table's valid card (league.models.TableCard), for the secretary's page

    @property
    def north(self) -> Member:
        return self.seats[0].member


def seat_label(position: int, size: int) -> str:
    """North, East, South, West at a table of four (FFT-Regeln); seat numbers otherwise."""
    if size == len(COMPASS):
        return str(COMPASS[position])
    return _("Seat %(n)s") % {"n": position + 1}


def earlier_tables(season: Season, before: int) -> list[list[list[int]]]:
    """The tables (member ids) of the season's rounds numbered below ``before``: one query."""
    rounds: dict[int, dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    for round_number, table, member in (TableSeat.objects.filter(round__season=season, round__number__lt=before)
                                        .order_by("round__number", "table", "position")
                                        .values_list("round__number", "table", "member")):
        rounds[round_number][table].append(member)
    return [list(tables.values()) for _, tables in sorted(rounds.items())]


# The sets of rules a game may be played by, as the tournament page names them (else the
# ruleset's own name of them).
VARIANT_NAMES = {"tcg": gettext_lazy("TCG rules"), "ddv": gettext_lazy("DDV rules")}


def rules_name(season: Season) -> str:
    """The rules a tournament's tables play by, for a game with several sets ("" else)."""
    variants = RULESETS[season.ruleset].rule_variants if season.ruleset in RULESETS else {}
    if not variants:
        return ""
    chosen = season.game_settings.get("rules") or RULESETS[season.ruleset].default_variant
    return str(VARIANT_NAMES.get(chosen, variants.get(chosen, chosen)))


def table_sizes_for(season: Season) -> tuple[int, ...]:
    return seating.TABLE_SIZES.get(season.ruleset, seating.FOURS_AND_FIVES)


def draw_round(round_: Round, players: list[Member]) -> list[list[Member]]:
    """Seat ``players`` for the round (saved as TableSeats): the round's seed, the earlier
    rounds' pairs and off-size tables decide it."""
    earlier = earlier_tables(round_.season, round_.number)
    by_pk = {member.pk: member for member in players}
    tables = seating.draw(by_pk, random.Random(round_.seed), met=seating.meetings(earlier),
                          off_size=seating.off_size_seats(earlier), sizes=table_sizes_for(round_.season))
    TableSeat.objects.bulk_create([
        TableSeat(round=round_, table=number, position=position, member=by_pk[pk])
        for number, table in enumerate(tables, start=1) for position, pk in enumerate(table)])
    return [[by_pk[pk] for pk in table] for table in tables]


def redraw_round(round_: Round, players: list[Member]) -> draws.Draw:
    """Seat the round's ``players`` anew (saved as TableSeats) by the draw the round was drawn
    with (``Round.draw_kind``): at random by its (new) seed; by the standings as they stand now;
    the FFT rotation, which no seed changes, as the rotation seats this round."""
    season = round_.season
    kind = round_.draw_kind if round_.draw_kind in draws.KINDS else "random"
    if kind == "random":  # as round_new draws it: the seed decides the tables
        tables = [[m.pk for m in table] for table in draw_round(round_, players)]
        return draws.Draw(tables, 0, [], kind)
    ranking = [row.member.pk for row in standings(season.club, season)] if kind == "standings" else None
    result = draws.draw(kind, sorted(m.pk for m in players), round_.seed, earlier_tables(season, round_.number),
                        sizes=table_sizes_for(season), ranking=ranking, round_index=round_.number - 1)
    TableSeat.objects.bulk_create([
        TableSeat(round=round_, table=number, position=position, member_id=pk)
        for number, table in enumerate(result.tables, start=1) for position, pk in enumerate(table)])
    return result


def round_tables(round_: Round) -> list[TableView]:
    """The round's tables with their seats, matches, each player's points so far and the
    pairs who sat together in an earlier round: five queries, whatever the size."""
    seats = list(round_.seats.select_related("member"))
    tables: dict[int, TableView] = {}
    for seat in seats:
        tables.setdefault(seat.table, TableView(seat.table)).seats.append(seat)
    for table in tables.values():
        table.seats = [SeatView(s, seat_label(s.position, len(table.seats))) for s in table.seats]
    matches = list(round_.matches.order_by("table_number", "pk"))
    for match in matches:  # a match in play wins over an annulled one
        table = tables.get(match.table_number)
        if table is not None and (table.match is None or table.match.status == Match.Status.ANNULLED):
            table.match = match
    _add_points(tables.values(), round_.season)
    met = seating.meetings(earlier_tables(round_.season, round_.number))
    for table in tables.values():
        members = [s.member for s in table.seats]
        table.repeats = [(a.name, b.name) for i, a in enumerate(members) for b in members[i + 1:]
                         if met.get(seating.pair(a.pk, b.pk))]
    return [tables[n] for n in sorted(tables)]


def _add_points(tables, season: Season) -> None:
    """Each seat's points and games in its table's match (two grouped queries)."""
    matches = {t.match.pk: t for t in tables if t.match is not None}
    if not matches:
        return
    lines = {(r["match"], r["member"]): r for r in
             ScoreLine.objects.filter(match__in=list(matches), stage=0, annulled=False)
             .values("match", "member").annotate(scored=Sum("score"), games=Count("id"))}
    deducted = {(r["match"], r["member"]): r["points"] for r in
                SanctionLine.objects.filter(match__in=list(matches), stage=0)
                .values("match", "member").annotate(points=Sum("points"))}
    tcg = season.ranking_rule == Season.RankingRule.TCG
    for pk, table in matches.items():
        for seat in table.seats:
            key = (pk, seat.member.pk)
            line = lines.get(key, {})
            seat.points = line.get("scored", 0) - deducted.get(key, 0)
            seat.games = line.get("games", 0)
            if tcg and seat.games:
                seat.round_score = tcg_score([(seat.points, seat.games)])


def round_state(tables: list[TableView]) -> str:
    """drawn (no match yet), playing, or finished (every table's match finished)."""
    live = [t.match for t in tables if t.match is not None and t.match.status != Match.Status.ANNULLED]
    if not live:
        return "drawn"
    if len(live) == len(tables) and all(m.status == Match.Status.FINISHED for m in live):
        return "finished"
    return "playing"


# -- helpers -----------------------------------------------------------------------------------

def _season(club, season_pk) -> Season:
    return get_object_or_404(club.seasons, pk=season_pk)


def _round(club, round_pk) -> Round:
    return get_object_or_404(Round.objects.select_related("season", "season__club"),
                             pk=round_pk, season__club=club)


def _not_a_tournament(request, club, season):
    """Where a tournament page sends a season that is none: the secretary to its settings,
    everyone else to its table."""
    if access.can_manage_club(request.user, club):
        messages.info(request, _("“%(name)s” is not a tournament yet.") % {"name": season.name})
        return redirect("tournament_settings", slug=club.slug, season_pk=season.pk)
    return redirect("standings_season", slug=club.slug, season_pk=season.pk)


# -- the tournament ------------------------------------------------------------------------------

@require_http_methods(["GET", "POST"])
def tournament_settings(request, slug, season_pk):
    club = require_club(request, slug, access.can_manage_club)
    season = _season(club, season_pk)
    form = TournamentForm(request.POST if request.method == "POST" else None, instance=season)
    if form.is_valid():
        try:
            with transaction.atomic():
                form.save()
        except IntegrityError:
            form.add_error(None, _("Someone changed the same data at the same time. "
                                   "Please check the entries and save again."))
        else:
            messages.success(request, _("The season “%(name)s” was saved.") % {"name": season.name})
            if season.is_tournament:
                return redirect("tournament", slug=club.slug, season_pk=season.pk)
            return redirect("club_seasons", slug=club.slug)
    return render(request, "league/tournament_settings.html", {"club": club, "season": season, "form": form})


@require_safe
def tournament(request, slug, season_pk):
    """The tournament: its rounds with their state, and the table."""
    club = require_club(request, slug, access.can_view_club_data)
    season = _season(club, season_pk)
    if not season.is_tournament:
        return _not_a_tournament(request, club, season)
    rounds = list(season.rounds.annotate(players=Count("seats", distinct=True),
                                         tables=Count("seats__table", distinct=True)))
    states = defaultdict(list)
    for round_pk, status in Match.objects.filter(round__season=season).values_list("round", "status"):
        states[round_pk].append(status)
    for r in rounds:
        live = [s for s in states[r.pk] if s != Match.Status.ANNULLED]
        r.state = ("drawn" if not live else "finished" if len(live) >= r.tables
                   and all(s == Match.Status.FINISHED for s in live) else "playing")
    rows = standings(club, season)
    table = standings_table(request, club, rows, compact_rule=season.ranking_rule, orderable=False)
    context = {
        "club": club, "season": season, "rounds": rounds, "table": table, "rows": rows,
        "rule_text": RULE_TEXT[season.ranking_rule],
        "can_manage": access.can_manage_club(request.user, club),
        "positions": season.format_positions_deals,
        "rules_name": rules_name(season),
        "awaiting": awaiting_count(season),
        "all_drawn": bool(season.format_positions_deals and len(rounds) >= season.format_positions_deals[0]),
        "last_drawn": bool(rounds) and rounds[-1].state == "drawn",  # its matches first, then the next draw
    }
    return render(request, "league/tournament.html", context)


# -- a round -------------------------------------------------------------------------------------

def draw_refusal(season: Season) -> str | None:
    """Why the next round may not be drawn yet (None: it may): a table of the last round still
    plays, or waits for a second player's acceptance ("two at the table agree"). Asked by
    every way to draw a round."""
    last = season.rounds.order_by("-number").first()
    if last is None:
        return None
    if round_state(round_tables(last)) != "finished":
        return _("Every table of the last round must be finished before the next round is drawn.")
    awaiting = awaiting_agreement(last.matches.all()).count() if season.needs_agreement else 0
    if awaiting:
        return ngettext(
            "%(n)s table of the last round awaits confirmation by a second player before the next round is drawn.",
            "%(n)s tables of the last round await confirmation by a second player before the next round is drawn.",
            awaiting) % {"n": awaiting}
    return None


@require_http_methods(["GET", "POST"])
def round_new(request, slug, season_pk):
    """Tick the players present, draw the tables."""
    club = require_club(request, slug, access.can_manage_club)
    season = _season(club, season_pk)
    if not season.is_tournament:
        return _not_a_tournament(request, club, season)
    last = season.rounds.order_by("-number").first()
    today = timezone.localdate()
    initial = {
        "date": last.date if last else (today if season.start <= today <= season.end else season.start),
        # those ticked present at the door (league.tournaments.attendance), else the last round's
        "players": list(season.attendances.values_list("member", flat=True))
        or (list(last.seats.values_list("member", flat=True)) if last
            else list(club.members.filter(active=True).values_list("pk", flat=True))),
    }
    form = RoundForm(request.POST if request.method == "POST" else None, initial=initial, season=season)
    refused = draw_refusal(season)  # said on the form, asked again as it is sent
    if form.is_valid() and refused:
        form.add_error(None, refused)
    elif form.is_valid():
        with transaction.atomic():
            Season.objects.select_for_update().get(pk=season.pk)  # one number per round
            number = (season.rounds.aggregate(n=Max("number"))["n"] or 0) + 1
            round_ = Round.objects.create(season=season, number=number, date=form.cleaned_data["date"],
                                          seed=secrets.randbits(48), created_by=request.user)
            tables = draw_round(round_, list(form.cleaned_data["players"]))
        messages.success(request, ngettext("Round %(round)s is drawn: %(n)s table.",
                                           "Round %(round)s is drawn: %(n)s tables.", len(tables))
                         % {"round": number, "n": len(tables)})
        return redirect(round_)
    context = {"club": club, "season": season, "form": form, "number": (last.number + 1) if last else 1,
               "sizes": table_sizes_for(season), "refused": refused}
    return render(request, "league/round_new.html", context)


@require_safe
def round_page(request, slug, round_pk):
    """The seating plan of a round, its tables' matches and points; printable."""
    club = require_club(request, slug, access.can_view_club_data)
    round_ = _round(club, round_pk)
    tables = round_tables(round_)
    season = round_.season
    context = {
        "club": club, "season": season, "round": round_, "tables": tables, "state": round_state(tables),
        "can_manage": access.can_manage_club(request.user, club),
        "repeats": sum(len(t.repeats) for t in tables),
        "players": sum(len(t.seats) for t in tables),
        "positions": season.format_positions_deals,
        "tcg": season.ranking_rule == Season.RankingRule.TCG,
        "to_create": [t.number for t in tables if t.match is None or t.match.status == Match.Status.ANNULLED],
        "is_last": not season.rounds.filter(number__gt=round_.number).exists(),
        "sitting_out": list(club.members.filter(pk__in=round_.sitting_out).values_list("name", flat=True)),
    }
    if context["can_manage"]:  # each table's card: its issue, and when it was reissued
        valid = {card.table: card for card in round_.cards.filter(replaced_at=None)}
        for table in tables:
            table.card = valid.get(table.number)
    return render(request, "league/round.html", context)


@require_safe
def round_pdf(request, slug, round_pk):
    """The seating plan as a PDF, one line per player and a block per table."""
    club = require_club(request, slug, access.can_view_club_data)
    from protocol.sheet import html_to_pdf  # WeasyPrint is loaded only when a PDF is asked for

    round_ = _round(club, round_pk)
    tables = round_tables(round_)
    html = render_to_string("league/round_sheet.html", {
        "club": club, "season": round_.season, "round": round_, "tables": tables,
        "positions": round_.season.format_positions_deals, "printed_at": timezone.localtime()})
    response = HttpResponse(html_to_pdf(html), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="sitzplan-{club.slug}-runde-{round_.number}.pdf"'
    response["Cache-Control"] = "private, no-store"
    return response


def _unplayed(request, round_) -> bool:
    """True while no table of the round has a match; else says so."""
    if round_.matches.exists():
        messages.error(request, _("The matches of this round are created; its seating stays as it is."))
        return False
    return True


def seating_of(round_: Round) -> list[list[int]]:
    """The round's tables as drawn: each a list of member ids in seat order."""
    tables: dict[int, list[int]] = defaultdict(list)
    for table, member in round_.seats.order_by("table", "position").values_list("table", "member"):
        tables[table].append(member)
    return [tables[n] for n in sorted(tables)]


REDRAWN = {
    "random": gettext_lazy("Round %(round)s is drawn anew."),
    "standings": gettext_lazy("Round %(round)s is drawn anew by the standings as they stand now."),
    "rotation": gettext_lazy("Round %(round)s is drawn anew by the FFT rotation."),
}


def round_redraw(request, slug, round_pk):
    """Draw the same players anew by the round's draw (a new seed), while no match is created;
    the table cards are withdrawn only if a table changed."""
    club = require_club(request, slug, access.can_manage_club, methods=("POST",))
    round_ = _round(club, round_pk)
    with transaction.atomic():
        round_ = Round.objects.select_for_update().get(pk=round_.pk)
        players = [seat.member for seat in round_.seats.select_related("member")]
        if not players:
            messages.error(request, _("This round has no players to draw."))
        elif _unplayed(request, round_):
            before = seating_of(round_)
            round_.seats.all().delete()
            round_.seed = secrets.randbits(48)
            round_.save(update_fields=["seed"])
            result = redraw_round(round_, players)
            words = {"round": round_.number}
            if result.tables == before:  # the rotation, or standings that did not move: the cards still hold
                messages.success(request, _("Round %(round)s is drawn anew: every table is seated as before.")
                                 % words)
            else:
                cards.withdraw(round_)  # the cards printed name the players of the old draw
                messages.success(request, REDRAWN.get(result.kind, REDRAWN["random"]) % words)
    return redirect(round_)


def round_delete(request, slug, round_pk):
    """Take back the last round's draw (another choice of players), while no match is created."""
    club = require_club(request, slug, access.can_manage_club, methods=("POST",))
    round_ = _round(club, round_pk)
    season = round_.season
    if season.rounds.filter(number__gt=round_.number).exists():
        messages.error(request, _("Only the last round can be deleted."))
        return redirect(round_)
    with transaction.atomic():
        round_ = Round.objects.select_for_update().get(pk=round_.pk)
        if not _unplayed(request, round_):
            return redirect(round_)
        round_.delete()
    messages.success(request, _("The draw of round %(round)s was deleted.") % {"round": round_.number})
    return redirect("tournament", slug=club.slug, season_pk=season.pk)


def round_start(request, slug, round_pk):
    """One match per table that has none in play: the season's game and rules, the seating
    of the plan, North keeping the sheet."""
    club = require_club(request, slug, access.can_manage_club, methods=("POST",))
    round_ = _round(club, round_pk)
    season = round_.season
    created = 0
    try:
        with transaction.atomic():
            round_ = Round.objects.select_for_update().get(pk=round_.pk)
            for table in round_tables(round_):
                if table.match is not None and table.match.status != Match.Status.ANNULLED:
                    continue
                members = [s.member for s in table.seats]
                matches.create_match(
                    club=club, date=round_.date, members=members, scorekeeper=members[0],
                    settings=dict(season.game_settings), season=season, place=club.place,
                    ruleset=season.ruleset, user=request.user, round=round_, table_number=table.number)
                created += 1
    except recording.RuleViolation as refused:
        messages.error(request, _("The rules refuse these matches: %(errors)s") % {"errors": refused})
        return redirect(round_)
    except IntegrityError:
        messages.error(request, _("The matches were created at the same time on another device."))
        return redirect(round_)
    if created:
        messages.success(request, ngettext("%(n)s match created: the tables can start.",
                                           "%(n)s matches created: the tables can start.", created) % {"n": created})
    else:
        messages.info(request, _("Every table has its match already."))
    return redirect(round_)

