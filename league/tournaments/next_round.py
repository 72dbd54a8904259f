"""The next round of a tournament, drawn from the players present (league.tournaments.attendance).

The secretary chooses the draw (``league.tournaments.draws``: random avoiding the pairs of the
whole event, by the standings, or the FFT rotation); the round's seed decides the random one,
so the same round is drawn the same way again. Who sits out (the count fits no tables of the
game's sizes) is kept on the round and named on its pages; the next draw seats them first.
A round is drawn only when every table of the one before is done.
"""

from __future__ import annotations

import secrets

from django.contrib import messages
from django.db import transaction
from django.db.models import Max
from django.shortcuts import get_object_or_404, redirect
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from league.models import Round, Season, TableSeat
from league.registry import access
from league.registry.access import require_club
from league.standings.ranking import standings
from league.tournaments import draws
from league.tournaments.attendance import present_ids
from league.tournaments.rounds import _not_a_tournament, draw_refusal, earlier_tables, table_sizes_for


def draw_next(season: Season, kind: str, user) -> tuple[Round, draws.Draw]:
    """Draw and save the next round from the players present (in a transaction, the season locked)."""
    Season.objects.select_for_update().get(pk=season.pk)  # one number per round
    number = (season.rounds.aggregate(n=Max("number"))["n"] or 0) + 1
    earlier = earlier_tables(season, number)
    sat_out = draws.sat_out_counts(season.rounds.values_list("sitting_out", flat=True))
    ranking = [row.member.pk for row in standings(season.club, season)] if kind == "standings" else None
    last = season.rounds.order_by("-number").first()
    round_ = Round(season=season, number=number, date=last.date if last else timezone.localdate(),
                   seed=secrets.randbits(48), created_by=user, draw_kind=kind)
    result = draws.draw(kind, sorted(present_ids(season)), round_.seed, earlier, sizes=table_sizes_for(season),
                        ranking=ranking, round_index=number - 1, sat_out=sat_out)
    round_.draw_kind, round_.sitting_out = result.kind, list(result.sitting_out)
    round_.save()
    TableSeat.objects.bulk_create([
        TableSeat(round=round_, table=table, position=position, member_id=pk)
        for table, players in enumerate(result.tables, start=1) for position, pk in enumerate(players)])
    return round_, result


def round_draw_next(request, slug, season_pk):
    """"Nächste Runde auslosen": the players present, the draw chosen."""
    club = require_club(request, slug, access.can_manage_club, methods=("POST",))
    season = get_object_or_404(club.seasons, pk=season_pk)
    if not season.is_tournament:
        return _not_a_tournament(request, club, season)
    kind = request.POST.get("kind", "random")
    if kind not in draws.KINDS:
        messages.error(request, _("Please choose how the tables are drawn."))
    elif refused := draw_refusal(season):
        messages.error(request, refused)
    elif len(present_ids(season)) < min(table_sizes_for(season)):
        messages.error(request, _("Too few players are present for one table (at least %(n)s).")
                       % {"n": min(table_sizes_for(season))})
    else:
        with transaction.atomic():
            round_, result = draw_next(season, kind, request.user)
        messages.success(request, ngettext(
            "Round %(round)s is drawn: %(n)s table, %(repeats)s repeated pairs the draw could not avoid.",
            "Round %(round)s is drawn: %(n)s tables, %(repeats)s repeated pairs the draw could not avoid.",
            len(result.tables)) % {"round": round_.number, "n": len(result.tables), "repeats": result.repeats})
        # The seating plan: where its Partien are created and its table cards printed, next.
        return redirect("round", slug=club.slug, round_pk=round_.pk)
    return redirect("attendance", slug=club.slug, season_pk=season.pk)
