"""A member's Strafen, Verwarnungen and Disqualifikationen of every season, as his page lists
them: repeated cases must be seen (SV 2, SV 3), so the list spans all seasons and grows with
his own record only.

:func:`sanction_history` reads them in one query (the Partie's date, status and season name,
nothing else of it) and :func:`history_html` writes the list in one pass: a hundred entries
through the template's loop took longer than the rest of the page.
"""

from __future__ import annotations

import datetime
from typing import NamedTuple

from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from league.models import Member
from league.registry import addresses
from league.standings.tables import short_date

BADGES = {"disqualification": " badge--danger", "penalty": " badge--accent", "warning": ""}


class Sanction(NamedTuple):
    """One line of the list: a sanction line (``protocol.models.SanctionLine``) with what the
    list shows of its Partie."""

    kind: str  # penalty, warning or disqualification
    points: int  # deducted (a Strafe)
    after_game: int
    reason: str
    match_id: int
    date: datetime.date
    status: str  # the Partie's: "annulled" is said
    season: str | None  # the Partie's season's name


def sanction_history(member: Member) -> list[Sanction]:
    """Every sanction line of ``member``, newest Partie first, then latest in the Partie."""
    # In his club's Partien: the join to them hashes only those (not every club's).
    return [Sanction(*row) for row in member.sanction_lines.filter(match__club_id=member.club_id).order_by("-match__date", "-match_id", "-after_game", "-id")
            .values_list("kind", "points", "after_game", "reason", "match_id", "match__date", "match__status",
                         "match__season__name")]


def history_html(sanctions: list[Sanction], club_slug: str) -> str:
    """The ``<li>`` items of the member page's sanction list (``sanction-history``)."""
    link = addresses.pattern("protocol:match", "pk", slug=club_slug)
    words = {"penalty": escape(_("penalty")), "warning": escape(_("warning")),
             "disqualification": escape(_("disqualification"))}
    annulled, after = escape(_("match annulled")), _("after game %(n)s")
    language = get_language()
    items = []
    for s in sanctions:
        points = f' <strong class="sanction-history__points">−{s.points}</strong>' if s.points else ""
        notes = escape(after % {"n": s.after_game})
        if s.season:
            notes += f" · {escape(s.season)}"
        if s.status == "annulled":
            notes += f" · {annulled}"
        items.append(
            f'<li class="sanction-history__item sanction-history__item--{s.kind}">'
            f'<p class="sanction-history__head"><span class="badge{BADGES.get(s.kind, "")}">{words.get(s.kind, "")}</span>'
            f'{points} <a href="{link.format(s.match_id)}">{short_date(s.date, language)}</a>'
            f' <span class="muted">{notes}</span></p>'
            f'<p class="sanction-history__reason">{escape(s.reason)}</p></li>')
    return mark_safe("".join(items))  # noqa: S308 - every text is escaped
