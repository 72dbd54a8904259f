"""The match page's sheet and "Games in detail" as compact HTML, written in one pass.

The sheet of 7 players and 60 Spiele has some 500 cells; a template loop with its tags,
filters and indentation took three quarters of the page's time and wrote ~190 kB.
Here each row is one f-string with the same classes the stylesheet knows (``.sheet`` in
static/css/site.css), every text from the rows escaped, no whitespace between tags.
:mod:`protocol.sheet.fragments` keeps what these return per match version.

Vocabulary: ``rows`` are :func:`protocol.sheet.rows.sheet_rows`' rows; ``links`` are the
:class:`EntryLinks` of the buttons of one entry (correct, annul, remove) where the user may
correct, else None.
"""

from __future__ import annotations

from html import escape as _escape

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import trans_real

from league.registry import addresses
from protocol.rules import words
from protocol.rules.vocabulary import number, signed


def in_active_language():
    """A block in which the engine's texts are translated by the active language's catalogue,
    looked up once: Django's ``gettext`` finds it again for each text, a third of what the
    sheet and "Games in detail" of 60 Spiele cost to write."""
    return words.translating(trans_real.catalog().gettext)


def escape(value) -> str:
    """``value`` as HTML text: ``str()`` first (an engine Text is translated so), then
    escaped like Django's ``escape``, without its lazy-string wrapper (a third of the time)."""
    return _escape(str(value))


class EntryLinks:
    """The addresses of the buttons of the entry at a position (``protocol:entry_correct``,
    ``game_annul``, ``entry_remove``): reversed once per process, not once per entry, and written
    relative to the match page (``eintrag/3/korrigieren/``), the one page that shows them."""

    NAMES = ("entry_correct", "game_annul", "entry_remove")

    def __init__(self, slug: str, pk: int):
        page = addresses.of_match("protocol:match", slug, pk)
        self.patterns = {}
        for name in self.NAMES:
            path = addresses.of_match(f"protocol:{name}", slug, pk, position=True)
            self.patterns[name] = path.removeprefix(page) if page.endswith("/") else path
        self.words = {"entry_correct": escape(_("Correct")), "game_annul": escape(_("Annul game")),
                      "entry_remove": escape(_("Remove"))}

    def buttons(self, position: int, names=NAMES) -> str:
        return "".join(f'<a href="{self.patterns[name].format(position)}">{self.words[name]}</a>' for name in names)


def _cell(cell) -> str:
    """A player's cell of a game row: the score (``<small>``) over the running total (``<b>``)."""
    if not cell.playing:
        return ""  # the caller writes the "does not play" cell, its words translated once
    if cell.score is None:
        inner = "–"
    else:
        score = "–" if cell.sits_out else signed(cell.score)
        classes = " ".join(("neg",) * (cell.score < 0) + ("bonus",) * cell.bonus)
        small = f'<small class="{classes}">' if classes else "<small>"
        total = '<b class="neg">' if cell.total is not None and cell.total < 0 else "<b>"
        inner = f"{small}{score}</small>{total}{number(cell.total)}</b>"
    if cell.sits_out:
        return f'<td class="sits-out" title="{escape(_("deals and sits out"))}">{inner}</td>'
    return f"<td>{inner}</td>"


def sheet_table(computed, plugin, body: str) -> SafeString:
    """The sheet: a head with one column per player, the rows of its entries (``body``, as
    :func:`sheet_body` writes them), the match's totals."""
    players = computed.players
    span = len(players) + 1
    style = f" {plugin.sheet_style}" if plugin.sheet_style else ""
    out = [f'<div class="sheet-wrap"><table class="sheet{style}"><caption class="visually-hidden">'
           f'{escape(_("Score sheet: one row per game, one column per player with score and running total"))}</caption>'
           f'<thead><tr><th scope="col">{escape(_("Game"))} <span class="sheet-sub">{escape(plugin.sheet_heading)}</span></th>']
    disqualified = f' <span class="badge badge--danger" title="{escape(_("disqualified"))}">D</span>'
    for player in players:
        name = escape(player)
        winner = " is-winner" if player == computed.winner else ""
        out.append(f'<th scope="col" class="num{winner}" title="{name}">{name}'
                   f'{disqualified if player in computed.disqualified else ""}</th>')
    out.append("</tr></thead><tbody>")
    out.append(body)
    if not body:
        out.append(f'<tr><td colspan="{span}" class="empty">{escape(plugin.empty_sheet(computed))}</td></tr>')
    out.append(f'</tbody><tfoot><tr class="sheet-total"><th scope="row">{escape(_("Match total"))}</th>')
    for player in players:
        total = computed.totals.get(player)
        classes = ("num" + (" neg" if total is not None and total < 0 else "")
                   + (" is-winner" if player == computed.winner else ""))
        out.append(f'<td class="{classes}">{number(total)}</td>')
    out.append("</tr></tfoot></table></div>")
    return mark_safe("".join(out))  # noqa: S308 - every text above is escaped


def sheet_body(rows, span: int) -> str:
    """The sheet's rows (``span``: its columns, the players and the first), each alone:
    one entry's rows are the same whatever follows them (protocol.sheet.kept_rows)."""
    off = f'<td class="off" aria-label="{escape(_("does not play"))}"></td>'
    out = []
    for row in rows:
        if row.kind == "game":
            classes = ("is-annulled" if row.annulled else "") + (" is-stechen" if row.stage else "")
            dealer = f' <span class="sheet-dealer">{escape(row.dealer)}</span>' if row.dealer else ""
            inverted = ' <span class="inverted">↺</span>' if row.inversions else ""  # named in the details
            classes = f' class="{classes.strip()}"' if classes else ""
            out.append(f'<tr{classes}><th scope="row"><a href="#spiel-{row.number}">{row.number}</a>'
                       f'{dealer} <small>{escape(row.description)}{inverted}</small></th>')
            out.extend(_cell(cell) if cell.playing else off for cell in row.cells)
            out.append("</tr>")
        elif row.kind == "sanction":
            out.append(f'<tr class="is-penalty"><th scope="row"><small>{escape(row.text)}</small></th>')
            out.extend(f'<td><small class="neg">{signed(cell.score)}</small></td>'
                       if cell.playing and cell.score else "<td></td>" for cell in row.cells)
            out.append("</tr>")
        else:
            stechen = " is-stechen-start" if row.kind == "stechen" else ""
            out.append(f'<tr class="sheet-note{stechen}"><td colspan="{span}">{escape(row.text)}</td></tr>')
    return "".join(out)


def game_summary(row, words: str) -> str:
    """A game's ``<summary>``: "Spiel 12 · ``words``", and the badge of an annulled game
    (``words`` is HTML, escaped by the caller)."""
    badge = f' <span class="badge badge--danger">{escape(_("annulled"))}</span>' if row.annulled else ""
    return f'<summary>{escape(_("Game %(n)s") % {"n": row.number})} · {words}{badge}</summary>'


def entry_actions(row, links: EntryLinks | None) -> str:
    """The buttons of one game in "Games in detail": correct, annul (unless it is), remove."""
    if links is None:
        return ""
    names = ("entry_correct", "entry_remove") if row.annulled else EntryLinks.NAMES
    return links.buttons(row.position, names)  # right in the <details> (.game-details > details > a)


def entry_lines(rows, links: EntryLinks | None) -> str:
    """The sanctions and the end under "Games in detail", each with its buttons."""
    if links is None:
        return ""
    out = []
    for row in rows:
        if row.kind == "sanction":
            out.append(f'<p class="sanction-line entry-buttons">{escape(row.text)} '
                       f'{links.buttons(row.position, ("entry_correct", "entry_remove"))}</p>')
        elif row.kind == "end":
            out.append(f'<p class="sanction-line entry-buttons">{escape(row.text)} '
                       f'{links.buttons(row.position, ("entry_remove",))}</p>')
    return "".join(out)


def dealt_details(computed, rows, links: EntryLinks | None) -> list[str]:
    """Each game of a game with a dealer in "Games in detail": in a few words, how it scored."""
    dealer_word, players = escape(_("Dealer")), [escape(p) for p in computed.players]
    out = []
    for row in rows:
        if row.kind != "game":
            continue
        out.append(f'<details id="spiel-{row.number}">{game_summary(row, escape(row.description))}')
        if row.dealer:
            out.append(f"<p>{dealer_word}: {escape(row.dealer)}</p>")
        if row.annulled:
            out.append(f"<p>{escape(row.text)}</p>")
        out.append(f'<p class="game-detail__explanation">{escape(row.explanation or "–")}</p><ul class="game-detail__scores">')
        out.extend(f'<li><span>{name}</span> <strong class="num{" neg" if cell.score is not None and cell.score < 0 else ""}">'
                   f"{signed(cell.score)}</strong></li>"
                   for name, cell in zip(players, row.cells) if cell.playing and not cell.sits_out)
        out.append(f"</ul>{entry_actions(row, links)}</details>")
    return out
