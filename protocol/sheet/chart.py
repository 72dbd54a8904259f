"""Every chart of the site, as SVG: the running totals of a printed sheet, a member's season.

Pure: each function takes numbers computed elsewhere (the rules engine's running totals,
``league.history``'s seasons) and draws them with matplotlib's SVG backend (no GUI, no
pyplot state shared between requests), under one style (:func:`chart_style`).

- :func:`sheet_chart`: a match's running totals for its printed sheet (a data: URL), the
  Obergrenze dashed where the game has one; only the match itself (stage 0) is drawn, a
  Stechen starts from 0 with its own Obergrenze and has its own table on the sheet; kept
  like the member page's charts (:func:`kept`), under what it draws;
- :func:`points_per_game_chart`, :func:`placement_chart`, :func:`rating_chart`: the member page's season
  and his rating, as an
  ``<svg>`` that scales with its container (a viewBox, no fixed size), marked as an image
  with a short text for screen readers; the page lists the same numbers in a table. Drawing
  one costs matplotlib 30-50 ms, so each is kept in the shared cache under a hash of what it
  draws (the points, the labels, the language's date format): the same numbers give the
  same picture, and new numbers a new key, so a kept chart is never stale (:func:`kept`).

The site's Content-Security-Policy allows no inline styles (``style-src 'self'``), so on
the pages the ``style`` attributes and the ``<style>`` element matplotlib writes become SVG
presentation attributes (``fill="#fff"``), which the policy does not touch.
"""

from __future__ import annotations

import base64
import contextlib
import datetime
import hashlib
import io
import re
import threading

from django.core.cache import cache
from django.utils.formats import date_format, get_format
from django.utils.html import escape
from django.utils.translation import get_language
from django.utils.translation import gettext as _

CHART_MIN_GAMES = 2  # one game is no course worth a chart
# Okabe-Ito (colour-blind safe) first, then darker tones; the seat order picks the colour,
# so a player has the same colour on every sheet of the Partie.
PLAYER_COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#B8860B", "#56B4E9",
                  "#1B2420", "#8C564B", "#7F7F7F", "#6A3D9A")
# A second cue for black-and-white printers.
PLAYER_MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*", "h", "<")
INK, MUTED, LINE, LIMIT = "#1b2420", "#52605a", "#d9dcd4", "#a61b1b"


def sheet_chart(match, *, width_mm: float, height_mm: float) -> str:
    """A match's running totals as a data: URL of an SVG for its printed sheet, or "" when
    there is no course to draw (fewer than two games). The players in seating order: each
    line has the colour of his seat, as on the table; the game's Obergrenze, if any, dashed."""
    games = [g for g in match.games if g.stage == 0]
    if len(games) < CHART_MIN_GAMES:
        return ""
    labels = {"limit_label": _("Upper limit"), "games_label": _("Game")}
    # Everything the picture shows: a sheet printed again (the same version, or a later one
    # whose Partie already ended) draws nothing anew (matplotlib: 50-80 ms a sheet).
    drawn = (match.players, [(g.number, sorted(g.totals.items())) for g in games], sorted(match.totals.items()),
             match.winner, match.stages[0].limit, width_mm, height_mm, sorted(labels.items()))
    return kept("sheet", drawn, lambda: "data:image/svg+xml;base64," + base64.b64encode(_for_print(
        running_totals_svg(match, width_mm=width_mm, height_mm=height_mm, **labels)).encode("utf-8")).decode("ascii"))


def _for_print(svg: str) -> str:
    """The same picture in fewer nodes for WeasyPrint, which draws the sheet's chart anew for
    every PDF: no metadata; matplotlib's one CSS rule (``*{stroke-linejoin: round;
    stroke-linecap: butt}``) and every ``style`` as presentation attributes (WeasyPrint parsed
    each ``style`` as CSS at every drawing); the groups that carry nothing but an id unwrapped
    (nothing refers to them). Checked pixel for pixel against matplotlib's own SVG."""
    from xml.etree import ElementTree

    svg_ns, xlink_ns = "http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink"
    ElementTree.register_namespace("", svg_ns)
    ElementTree.register_namespace("xlink", xlink_ns)
    root = ElementTree.fromstring(svg)
    group, metadata, defs = f"{{{svg_ns}}}g", f"{{{svg_ns}}}metadata", f"{{{svg_ns}}}defs"

    def lean(parent):
        children = []
        for child in parent:
            if child.tag == metadata:
                continue
            if child.tag == defs and len(child) == 1 and child[0].tag == f"{{{svg_ns}}}style":
                continue
            lean(child)
            if child.tag == group and set(child.attrib) <= {"id"}:
                children.extend(child)
            else:
                children.append(child)
        parent[:] = children
        for element in children:
            for name, value in _declarations(element.attrib.pop("style", "")):
                element.set(name, value)

    lean(root)
    root.set("stroke-linejoin", "round")
    root.set("stroke-linecap", "butt")
    return ElementTree.tostring(root, encoding="unicode")


def _declarations(style: str) -> list[tuple[str, str]]:
    """``"fill: #fff; stroke-width: 0.8"`` -> ``[("fill", "#fff"), ("stroke-width", "0.8")]``."""
    pairs = (part.split(":", 1) for part in style.split(";") if ":" in part)
    return [(name.strip(), value.strip()) for name, value in pairs]


def running_totals_svg(match, *, width_mm: float = 180, height_mm: float = 62,
                       limit_label: str = "Obergrenze", games_label: str = "Spiel") -> str:
    """An ``<svg>`` element (no XML prolog) of each player's Partie total per Spiel.

    The x axis is the Spiel number (0 = the start), the Obergrenze is a dashed line.
    Annulled Spiele keep the total they had; Strafen show in the next Spiel's total and,
    after the last Spiel, in a final point.
    """
    games = [g for g in match.games if g.stage == 0]
    return totals_svg(match.players, [g.number for g in games], [g.totals for g in games], match.totals,
                      winner=match.winner, limit=match.stages[0].limit, limit_label=limit_label,
                      games_label=games_label, width_mm=width_mm, height_mm=height_mm)


def totals_svg(players: list[str], numbers: list[int], totals_after: list[dict[str, int]],
               finals: dict[str, int], *, winner: str | None = None, limit: int | None = None,
               limit_label: str = "", games_label: str = "Spiel", width_mm: float = 180,
               height_mm: float = 62) -> str:
    """The chart of any match that keeps running totals (every game).

    ``numbers`` are the games' numbers, ``totals_after`` each game's running totals,
    ``finals`` the totals at the end (a Strafe after the last game makes a final point);
    ``limit`` draws the Obergrenze, if the game has one. The winner's line is the boldest.
    """
    from matplotlib.figure import Figure

    numbers = [0] + list(numbers)
    with chart_style():
        figure = Figure(figsize=(width_mm / 25.4, height_mm / 25.4))
        axes = figure.add_axes((0.07, 0.17, 0.915, 0.69))
        lowest, highest = 0, limit if limit is not None else 0
        every = max(1, len(numbers) // 8)  # a few markers: enough for a grey print, cheap to draw
        for seat, player in enumerate(players):
            totals = [0] + [t.get(player, 0) for t in totals_after]
            xs = list(numbers)
            final = finals[player]
            if totals_after and final != totals[-1]:  # a Strafe after the last Spiel
                xs.append(numbers[-1] + 0.5)
                totals.append(final)
            lowest, highest = min(lowest, *totals), max(highest, *totals)
            is_winner = player == winner
            axes.plot(xs, totals, label=player, color=PLAYER_COLOURS[seat % len(PLAYER_COLOURS)],
                      linewidth=2.0 if is_winner else 1.2, marker=PLAYER_MARKERS[seat % len(PLAYER_MARKERS)],
                      markersize=3.2, markevery=every, zorder=3 if is_winner else 2)
        if limit is not None:
            axes.axhline(limit, color=LIMIT, linewidth=1.0, linestyle=(0, (5, 3)), zorder=1)
            axes.annotate(f"{limit_label} {limit}", xy=(0, limit), xycoords=("axes fraction", "data"),
                          xytext=(3, 2), textcoords="offset points", color=LIMIT, fontsize=7,
                          ha="left", va="bottom")
        axes.axhline(0, color=MUTED, linewidth=0.6, zorder=1)
        span = highest - lowest or 1
        axes.set_ylim(lowest - 0.05 * span, highest + 0.08 * span)
        axes.set_xlim(0, max(numbers[-1] + (0.5 if len(numbers) > 1 else 1), 1))
        axes.set_xlabel(games_label, labelpad=1)
        axes.xaxis.get_major_locator().set_params(integer=True)
        axes.grid(axis="y", color=LINE, linewidth=0.5)
        for side in ("top", "right"):
            axes.spines[side].set_visible(False)
        axes.legend(loc="lower left", bbox_to_anchor=(0, 1.02), ncols=min(len(players), 10),
                    frameon=False, fontsize=7.5, handlelength=2.4, columnspacing=1.6, borderaxespad=0)
        buffer = io.StringIO()
        figure.savefig(buffer, format="svg", metadata={"Date": None})
    return _strip_prolog(buffer.getvalue())


_RC_LOCK = threading.Lock()
CHART_STYLE = {
    "svg.fonttype": "none",  # text stays text, set in the sheet's own (embedded) font
    "svg.hashsalt": "trumpfbuch",  # the same Partie gives the same SVG
    "font.family": "DejaVu Sans",
    "font.size": 7,
    "text.color": INK,
    "axes.labelcolor": MUTED,
    "axes.edgecolor": MUTED,
    "axes.linewidth": 0.6,
    "xtick.color": MUTED,
    "ytick.color": MUTED,
    "xtick.major.width": 0.6,
    "ytick.major.width": 0.6,
    "axes.formatter.use_locale": False,
}


@contextlib.contextmanager
def chart_style(**overrides):
    """matplotlib's settings for the site's charts; rcParams are global, so one chart at a
    time per process draws under them (the lock)."""
    from matplotlib import rc_context
    with _RC_LOCK, rc_context(CHART_STYLE | {k.replace("__", "."): v for k, v in overrides.items()}):
        yield


def _strip_prolog(svg: str) -> str:
    """The ``<svg>`` element alone, to sit inside the HTML of the sheet."""
    return re.sub(r"\A.*?(?=<svg)", "", svg, flags=re.S)


# -- a member's season on his page ------------------------------------------------------------

FELT, GOLD, COPPER = "#1a5c3c", "#f2b84b", "#9a4a12"

SIZE = (4.6, 2.8)  # inches; the SVG scales to its container, this sets the text's share
AXES = (0.13, 0.12, 0.84, 0.73)

# The sheet's chart style, larger and in the page's font.
PAGE_STYLE = {"font__family": "sans-serif", "font__size": 11}


CHART_TIMEOUT = 24 * 60 * 60  # a chart nobody opened for a day leaves the cache


def kept(kind: str, data, draw) -> str:
    """``draw()``, kept in the shared cache under a hash of ``kind`` and ``data`` (everything
    the picture shows, labels included) and of the language the axis writes its days in; a
    release that draws otherwise has a cache prefix of its own (config.caches)."""
    language = (get_language() or "", get_format("MONTH_DAY_FORMAT"))
    digest = hashlib.blake2b(repr((kind, language, data)).encode(), digest_size=16).hexdigest()
    return cache.get_or_set(f"chart:{kind}:{digest}", draw, CHART_TIMEOUT)


def points_per_game_chart(partien) -> str:
    """A member's points per game in each counted match of the season (dots) and his running
    average (line); ``partien``: ``league.history``'s rows (match, counted, games, total)."""
    counted = sorted((p for p in partien if p.counted and p.games), key=lambda p: (p.match.date, p.match.pk))
    points, total, games = [], 0, 0
    for p in counted:
        total += p.total
        games += p.games
        points.append((p.match.date, p.total / p.games, total / games))
    labels = {"label": _("Points per game in each match, and the average of the season so far"),
              "partie_label": _("in the match"), "average_label": _("Average so far")}
    return kept("ppg", (points, sorted(labels.items())), lambda: points_per_game_svg(points, **labels))


def placement_chart(history) -> str:
    """A member's place in the table after each club evening (``league.history.rank_history``)."""
    places = [(h.date, h.rank, h.of) for h in history]
    labels = {"label": _("Place in the table after each club evening"), "rank_label": _("Rank")}
    return kept("placement", (places, sorted(labels.items())), lambda: placement_svg(places, **labels))


def points_per_game_svg(points: list[tuple[datetime.date, float, float]], *, label: str,
                        partie_label: str, average_label: str) -> str:
    """Points per Spiel of each Partie (dots) and the season's running average (line).

    ``points``: (date, points per Spiel in that Partie, average of the season so far).
    """
    if not points:
        return ""
    from matplotlib.dates import AutoDateLocator, DateFormatter
    from matplotlib.figure import Figure

    dates = [p[0] for p in points]
    with chart_style(**PAGE_STYLE):
        figure = Figure(figsize=SIZE)
        axes = figure.add_axes(AXES)
        axes.axhline(0, color=MUTED, linewidth=0.6, zorder=1)
        axes.scatter(dates, [p[1] for p in points], s=22, color=GOLD, edgecolors=COPPER, linewidths=0.8,
                     label=partie_label, zorder=3)
        axes.plot(dates, [p[2] for p in points], color=FELT, linewidth=2.0, label=average_label, zorder=2,
                  drawstyle="steps-post" if len(points) > 1 else "default")
        _dates_axis(axes, dates, AutoDateLocator, DateFormatter)
        axes.grid(axis="y", color=LINE, linewidth=0.5)
        axes.legend(loc="lower left", bbox_to_anchor=(0, 1.02), ncols=2, frameon=False, borderaxespad=0,
                    fontsize=10, handletextpad=0.4, columnspacing=1.2)
        return _svg(figure, label)


def rating_chart(steps) -> str:
    """A member's rating after each rated Partie (``league.ratings``: (date, the figure shown));
    nothing for fewer than two."""
    points = [(date, figure) for date, figure in steps]
    if len(points) < CHART_MIN_GAMES:
        return ""
    labels = {"label": _("Rating after each rated match"), "rating_label": _("Rating")}
    return kept("rating", (points, sorted(labels.items())), lambda: rating_svg(points, **labels))


def rating_svg(points: list[tuple[datetime.date, int]], *, label: str, rating_label: str) -> str:
    """The rating shown after each rated Partie, a line with a dot per Partie."""
    if not points:
        return ""
    from matplotlib import dates as mdates
    from matplotlib.figure import Figure

    days, values = [p[0] for p in points], [p[1] for p in points]
    with chart_style(**PAGE_STYLE):
        axes = Figure(figsize=SIZE).add_axes(AXES)
        axes.plot(days, values, color=FELT, linewidth=2.0, marker="o", markersize=3, markerfacecolor=GOLD,
                  markeredgecolor=COPPER, zorder=3)
        axes.set_ylabel(rating_label)
        _dates_axis(axes, days, mdates.AutoDateLocator, mdates.DateFormatter)
        axes.grid(axis="y", color=LINE, linewidth=0.5)
        return _svg(axes.figure, label)


def placement_svg(history: list[tuple[datetime.date, int, int]], *, label: str, rank_label: str) -> str:
    """The place in the table after each club evening, first place on top; the y axis
    reaches down to the largest table of the season.

    ``history``: (date, place, members in the table that day).
    """
    if not history:
        return ""
    from matplotlib.dates import AutoDateLocator, DateFormatter
    from matplotlib.figure import Figure

    dates = [h[0] for h in history]
    worst = max(h[2] for h in history)
    with chart_style(**PAGE_STYLE):
        figure = Figure(figsize=SIZE)
        axes = figure.add_axes(AXES)
        axes.plot(dates, [h[1] for h in history], color=FELT, linewidth=2.0, marker="o", markersize=4,
                  markerfacecolor=GOLD, markeredgecolor=COPPER, drawstyle="steps-post", zorder=3)
        axes.set_ylim(worst + 0.5, 0.5)  # first place on top
        step = -(-worst // 6)  # at most six ticks, first place always among them
        axes.set_yticks(range(1, worst + 1, step))
        axes.yaxis.set_major_formatter(lambda value, _pos: f"{int(value)}.")
        axes.set_ylabel(rank_label)
        _dates_axis(axes, dates, AutoDateLocator, DateFormatter)
        axes.grid(axis="y", color=LINE, linewidth=0.5)
        return _svg(figure, label)


def _day_in_language(value, _pos=None) -> str:
    """A tick of the dates axis as the active language writes a day: "20. Nov" / "Nov 20"
    (Django's MONTH_DAY_FORMAT with the month abbreviated, so both fit beside six others)."""
    from matplotlib.dates import num2date

    pattern = get_format("MONTH_DAY_FORMAT").replace("F", "M")  # M: the month in three letters
    return date_format(num2date(value).date(), pattern)


def _dates_axis(axes, dates, AutoDateLocator, DateFormatter):
    locator = AutoDateLocator(minticks=2, maxticks=7)
    axes.xaxis.set_major_locator(locator)
    axes.xaxis.set_major_formatter(_day_in_language)
    # Matplotlib's own 5 % margin (one day alone gets a week on both sides), but never past
    # the years it can draw: a Partie stored before dates were checked (9999-12-31, see
    # protocol/rules/dates.py) must not break the page.
    first, last = min(dates), max(dates)
    pad = (last - first) / 20 if last > first else datetime.timedelta(days=7)
    axes.set_xlim(first - pad if first - datetime.date.min > pad else datetime.date.min,
                  last + pad if datetime.date.max - last > pad else datetime.date.max)
    for side in ("top", "right"):
        axes.spines[side].set_visible(False)


def _svg(figure, label: str) -> str:
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", metadata={"Date": None})
    svg = _strip_prolog(buffer.getvalue())
    svg = re.sub(r"<metadata>.*?</metadata>|<style[^>]*>.*?</style>", "", svg, flags=re.S)
    svg = re.sub(r'style="([^"]*)"', _attributes, svg)
    # Scale with the page (the viewBox stays), and tell screen readers what it shows.
    svg = re.sub(r'<svg([^>]*?) width="[^"]*" height="[^"]*"',
                 lambda m: (f'<svg{m.group(1)} role="img" aria-label="{escape(label)}" class="chart__svg" '
                            'stroke-linejoin="round" stroke-linecap="butt"'),
                 svg, count=1)
    return svg


def _attributes(match) -> str:
    """``style="fill: #fff; stroke-width: 0.8"`` -> ``fill="#fff" stroke-width="0.8"``."""
    pairs = (part.split(":", 1) for part in match.group(1).split(";") if ":" in part)
    return " ".join(f'{name.strip()}="{escape(value.strip())}"' for name, value in pairs
                    if name.strip() != "font-family")  # the page's font
