"""The running totals of a Partie as an SVG chart, for the printed Spielprotokollblatt.

Pure: reads the totals the rules engine derived (``Match.games[].totals``) and draws
them with matplotlib's SVG backend (no GUI, no pyplot state shared between requests).
Only the Partie itself (stage 0) is drawn; a Stechen starts from 0 with its own
Obergrenze and has its own table on the sheet. ``totals_svg`` draws the same chart for
any match with running totals (the Doppelkopf list), with or without an Obergrenze.
"""

from __future__ import annotations

import contextlib
import io
import re
import threading

from protocol.rules.chaotentrumpf.partie import Match

# Okabe-Ito (colour-blind safe) first, then darker tones; the seat order picks the colour,
# so a player has the same colour on every sheet of the Partie.
PLAYER_COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#B8860B", "#56B4E9",
                  "#1B2420", "#8C564B", "#7F7F7F", "#6A3D9A")
# A second cue for black-and-white printers.
PLAYER_MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*", "h", "<")
INK, MUTED, LINE, LIMIT = "#1b2420", "#52605a", "#d9dcd4", "#a61b1b"


def running_totals_svg(match: Match, *, width_mm: float = 180, height_mm: float = 62,
                       limit_label: str = "Obergrenze", games_label: str = "Spiel") -> str:
    """An ``<svg>`` element (no XML prolog) of each player's Partie total per Spiel.

    The x axis is the Spiel number (0 = the start), the Obergrenze is a dashed line.
    Annulled Spiele keep the total they had; Strafen show in the next Spiel's total and,
    after the last Spiel, in a final point.
    """
    games = [g for g in match.games if g.stage == 0]
    return totals_svg(match.players, [g.number for g in games], [g.totals for g in games], match.totals,
                      winner=match.winner, limit=match.settings.limit, limit_label=limit_label,
                      games_label=games_label, width_mm=width_mm, height_mm=height_mm)


def totals_svg(players: list[str], numbers: list[int], totals_after: list[dict[str, int]],
               finals: dict[str, int], *, winner: str | None = None, limit: int | None = None,
               limit_label: str = "", games_label: str = "Spiel", width_mm: float = 180,
               height_mm: float = 62) -> str:
    """The chart of any match that keeps running totals (Chaotentrumpf, Doppelkopf, Tarot).

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
