"""The member page's charts as inline SVG (matplotlib's SVG backend, no pyplot, no GUI).

Pure: each function takes numbers computed elsewhere (``league.standings.history``) and returns an
``<svg>`` element that scales with its container (a viewBox, no fixed size), marked as an
image with a short text for screen readers; the page lists the same numbers in a table.

The site's Content-Security-Policy allows no inline styles (``style-src 'self'``), so the
``style`` attributes and the ``<style>`` element matplotlib writes become SVG presentation
attributes (``fill="#fff"``), which the policy does not touch. The text takes the page's font.
"""

from __future__ import annotations

import datetime
import io
import re

from django.utils.html import escape

from protocol.chart import LINE, MUTED, chart_style

FELT, GOLD, COPPER = "#1a5c3c", "#f2b84b", "#9a4a12"

SIZE = (4.6, 2.8)  # inches; the SVG scales to its container, this sets the text's share
AXES = (0.13, 0.12, 0.84, 0.73)

# The sheet's chart style (protocol.chart), larger and in the page's font.
PAGE_STYLE = {"font__family": "sans-serif", "font__size": 11}


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


def _dates_axis(axes, dates, AutoDateLocator, DateFormatter):
    locator = AutoDateLocator(minticks=2, maxticks=7)
    axes.xaxis.set_major_locator(locator)
    axes.xaxis.set_major_formatter(DateFormatter("%d.%m."))
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
    svg = re.sub(r"\A.*?(?=<svg)", "", buffer.getvalue(), flags=re.S)  # no XML prolog
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
