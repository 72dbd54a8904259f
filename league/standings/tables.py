"""django-tables2 tables: they render rows computed elsewhere, never compute."""

from decimal import Decimal
from functools import cached_property, lru_cache

import django_tables2 as tables
from django.urls import reverse
from django.utils.formats import date_format, get_format, number_format
from django.utils.html import conditional_escape, escape, format_html
from django.utils.http import urlencode
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from league.models import Member
from league.registry import addresses
from league.standings.games import name as game_name
from protocol.confirmations import finality
from protocol.rules import RULESETS

NUM = {"th": {"class": "num"}, "td": {"class": "num"}}


class MemberTable(tables.Table):
    name = tables.Column(verbose_name=_("Name"))
    is_guest = tables.BooleanColumn(verbose_name=_("Guest"), yesno=(_("yes"), "–"))
    joined = tables.DateColumn(verbose_name=_("Member since"), format="SHORT_DATE_FORMAT")

    class Meta:
        model = Member
        fields = ("name", "is_guest", "joined")
        empty_text = _("No members yet.")


def member_url(slug, member_pk):
    return reverse("member_page", kwargs={"slug": slug, "member_pk": member_pk})


def number(value) -> str:
    """An integer as the league prints it: grouped, with a real minus sign ("3.528", "−540")."""
    return integers()(value)


def integers():
    """:func:`number` for the many cells of one table: the language's grouping and separator
    read once, not for every cell (Django's number_format asks for both each time)."""
    grouping, separator = get_format("NUMBER_GROUPING"), get_format("THOUSAND_SEPARATOR")
    if grouping != 3:  # another grouping than Python's own: Django's formatting
        return _grouped
    # Python groups by three as Django does with NUMBER_GROUPING 3: the same text.
    return lambda value: (f"{value:,}".replace(",", separator).replace("-", "\u2212") if type(value) is int
                          else _grouped(value))


def _grouped(value) -> str:
    return number_format(value, force_grouping=True).replace("-", "\u2212")


ZERO = mark_safe('<span class="zero">0</span>')  # many noughts in a table: quieter, so that the other numbers stand out


class NumberColumn(tables.Column):
    """A right-aligned integer, grouped and with a real minus sign as on the sheet
    ("3.528", "−540"); ``short`` is a shorter heading, the full one is its title."""

    def __init__(self, verbose_name, short=None, **kwargs):
        kwargs.setdefault("attrs", NUM)
        super().__init__(verbose_name=verbose_name, **kwargs)
        self.short = short

    @property
    def header(self):
        if self.short is None:
            return self.verbose_name
        return format_html('<abbr title="{}">{}</abbr>', self.verbose_name, self.short)

    def render(self, value):
        return ZERO if value == 0 else number(value)

    def writer(self):
        """:meth:`render` for every cell of one table (:func:`one_pass_body`)."""
        if type(self).render is not NumberColumn.render:  # a column that writes its own
            return self.render
        integer = integers()
        return lambda value: ZERO if value == 0 else integer(value)


_num = NumberColumn


def _cls(name: str) -> dict:
    """The same class on a column's heading and cells."""
    return {"th": {"class": name}, "td": {"class": name}}


def score(value) -> str:
    """A tournament score: TCG's with its one decimal ("41,6", "−6,3"), FFT's as an integer."""
    if isinstance(value, Decimal):
        return number_format(value, decimal_pos=1, force_grouping=True).replace("-", "\u2212")
    return number(value)


class ScoreColumn(NumberColumn):
    """The tournament score, the number a tournament ranks by (bold)."""

    def __init__(self, verbose_name, **kwargs):
        super().__init__(verbose_name, attrs={"th": {"class": "num standings__score"},
                                              "td": {"class": "num standings__score"}}, **kwargs)

    def render(self, value):
        return score(value)


class OnePassTable(tables.Table):
    """A table written by ``league/includes/one_pass_table.html``: its head by :meth:`head_html`,
    its rows by the table's ``body_html``; django-tables2's template writes the rest (the
    wrapper, the pagination)."""

    def head_html(self, request) -> str:
        """The ``<thead>`` as django-tables2's template (``django_tables2/table.html``) writes it
        for ``request`` (the page's), byte for byte: its loop over the columns, a sort link by
        ``querystring_replace`` each, was two fifths of the cold standings page's table."""
        if not self.show_header:
            return mark_safe("\n            \n            ")
        thead = self.attrs.get("thead")
        query = dict(request.GET)  # as querystring_replace: the URL's query, the sort replaced
        cells = []
        for column in self.columns:
            header = conditional_escape(column.header)
            if column.orderable:
                link = escape("?" + urlencode(query | {self.prefixed_order_by_field: column.order_by_alias.next},
                                              doseq=True))
                header = f'<a href="{link}">{header}</a>'
            cells.append(f"\n                        <th {column.attrs['th'].as_html()}>\n                            \n"
                         f"                                {header}\n                            \n"
                         "                        </th>\n                    ")
        return mark_safe(  # noqa: S308 - the headers are escaped, the attributes django-tables2's own
            f"\n            \n                <thead {thead.as_html() if hasattr(thead, 'as_html') else ''}>\n"
            f"                    <tr>\n                    {''.join(cells)}\n                    </tr>\n"
            "                </thead>\n            \n            ")


class StandingsTable(OnePassTable):
    """The league table: rows are ``league.standings.ranking.Standing``.

    ``club_slug``: the member names link to the member pages (only for viewers who may
    see them; else None). ``me``: the viewer's own Member id, whose row is highlighted.
    ``tournament_rule``: "tcg" or "fft" shows the tournament score (else it is hidden).
    """

    rank = tables.Column(verbose_name=_("Rank"), attrs=NUM)
    name = tables.Column(verbose_name=_("Member"), attrs={"th": {"class": "standings__name"},
                                                        "td": {"class": "standings__name"}})
    tournament_score = ScoreColumn(_("Tournament score"))
    played = _num(_("Matches"))
    won = _num(pgettext_lazy("matches", "Won"))
    games = _num(_("Games"))
    points = _num(pgettext_lazy("score", "Points"))
    ppg = _num(_("Points per game × 100"), short=_("Pts./game ×100"))
    tiebreaks = _num(_("Tie-breaks"))
    tiebreaks_won = _num(_("Tie-breaks won"), short=_("Tie-br. won"))
    penalties = _num(_("Penalties"))
    penalty_points = _num(_("Penalty points"), short=_("Pen. pts."))
    warnings = _num(_("Warnings"), short=_("Warn."))
    disqualifications = _num(_("Disqualifications"), short=_("Disq."))

    COMPACT = ("games", "points", "tiebreaks", "tiebreaks_won", "penalties", "penalty_points",
               "warnings", "disqualifications")

    class Meta:
        attrs = {"class": "data-table standings"}
        row_attrs = {"class": lambda record, table: table.row_class(record)}
        empty_text = _("No finished matches yet.")
        order_by = ("rank",)
        template_name = "league/includes/one_pass_table.html"  # its body: body_html

    def body_html(self) -> str:
        """The rows as django-tables2 writes them, in one pass: its cell by cell rendering
        through the template was two thirds of a cold standings page."""
        return one_pass_body(self, {"rank": lambda record, value: f"{value}.", "name": self.render_name})

    def row_class(self, record) -> str:
        return "is-me" if record.member.pk == self.me else ""

    def __init__(self, data, *, club_slug=None, me=None, tournament_rule=None, **kwargs):
        super().__init__(data, **kwargs)
        self.club_slug, self.me = club_slug, me
        if tournament_rule is None:
            self.columns.hide("tournament_score")
        else:
            self.columns["tournament_score"].column.verbose_name = TOURNAMENT_SCORE_NAMES[tournament_rule]

    def render_rank(self, value):
        return f"{value}."

    @cached_property
    def _member_url(self) -> str:
        return addresses.pattern("member_page", "member_pk", slug=self.club_slug)

    def render_name(self, record, value):
        name = format_html('<a href="{}">{}</a>', self._member_url.format(record.member.pk), value) \
            if self.club_slug else value
        if record.member.pk == self.me:
            return format_html('{} <span class="badge badge--me">{}</span>', name, _("you"))
        return name


TOURNAMENT_SCORE_NAMES = {"tcg": _("TCG score"), "fft": _("FFT score")}


class MemberPartienTable(OnePassTable):
    """One member's Partien: rows are ``league.standings.history.PartieResult``; ``club_slug`` builds
    the links."""

    # The classes place each cell on a phone (site.css): date, place and points on the first
    # line, the others (and the round) on their own lines below, the games and the points per
    # game left to wider screens.
    date = tables.Column(verbose_name=_("Date"), accessor="match__date", attrs=_cls("partien__date"))
    round = tables.Column(verbose_name=_("Round"), accessor="match__round_number", orderable=False,
                          attrs=_cls("partien__round"))
    others = tables.Column(verbose_name=_("Against"), orderable=False, attrs=_cls("partien__others"))
    place = tables.Column(verbose_name=pgettext_lazy("in a match", "Place"), attrs=_cls("num partien__place"))
    total = _num(pgettext_lazy("score", "Points"), attrs=_cls("num partien__total"))
    games = _num(_("Games"), attrs=_cls("num partien__more"))
    ppg = _num(_("Points per game × 100"), short=_("Pts./game ×100"), attrs=_cls("num partien__more"))

    class Meta:
        attrs = {"class": "data-table partien"}
        row_attrs = {"class": lambda record, table: table.row_class(record)}
        empty_text = _("No matches in this season.")
        template_name = "league/includes/one_pass_table.html"  # its body: body_html

    def __init__(self, data, *, club_slug, provisional=frozenset(), **kwargs):
        super().__init__(data, **kwargs)
        self.club_slug = club_slug
        self.provisional = provisional  # the ids of the Partien still provisional

    def body_html(self) -> str:
        """The page's rows as django-tables2 writes them, in one pass (:func:`one_pass_body`):
        its cell by cell template was a fifth of the member page."""
        def own(render):
            return lambda record, value: conditional_escape(render(record=record, value=value))

        return one_pass_body(self, {"date": own(self.render_date), "others": own(self.render_others),
                                    "round": own(self.render_round), "place": own(self.render_place)})

    def row_class(self, record) -> str:
        return "" if record.counted else "is-uncounted"

    @cached_property
    def _match_url(self) -> str:
        return addresses.pattern("protocol:match", "pk", slug=self.club_slug)

    def render_date(self, record, value):
        return format_html('<a href="{}">{}</a>', self._match_url.format(record.match.pk),
                           short_date(value, get_language()))

    def render_others(self, value, record=None):
        return ", ".join(value)

    def render_round(self, record, value):
        return _("%(round)s, table %(table)s") % {"round": value, "table": record.match.table_number}

    def render_place(self, record, value):
        if record.match.status == "annulled":
            return format_html('<span class="badge badge--danger">{}</span>', _("annulled"))
        if record.match.status in ("running", "tiebreak"):
            return format_html('{}. <span class="badge badge--accent">{}</span>', value, _("running"))
        if record.won:
            place = format_html('<span class="badge badge--win">{}</span>', _("Winner"))
        else:
            place = format_html("{}. <span class=\"muted\">/ {}</span>", value, record.players)
        if record.match.pk in self.provisional:
            return format_html("{} {}", place, provisional_badge())
        return place


def provisional_badge() -> str:
    """The mark of a provisional Partie in a list (``league.registry.correction_window``)."""
    return format_html('<span class="badge badge--accent">{}</span>', _("provisional"))


@lru_cache(maxsize=4096)
def short_date(value, language: str) -> str:
    """``value`` in the language's short date format: Django's formatting, a tenth of a
    millisecond a date, done once per date and language (the archive's rows)."""
    return date_format(value, "SHORT_DATE_FORMAT")


def one_pass_body(table: tables.Table, cells: dict) -> str:
    """``table``'s rows as django-tables2's template writes them (``<tr class="even">``, each
    visible column's ``<td>`` with its attributes, "—" for no value), in one pass: ``cells``
    names the columns written by ``cells[name](record, value)``; a :class:`NumberColumn`
    writes itself; any other column is django-tables2's own cell. A table with a
    ``row_class(record)`` (its ``Meta.row_attrs`` the same class) has it asked directly: the
    library's row attributes inspect the function's signature for every row."""
    columns = []
    for bound in table.columns:
        write = cells.get(bound.name)
        if write is None and isinstance(bound.column, NumberColumn):
            render = bound.column.writer()
            write = lambda record, value, render=render: render(value)  # noqa: E731
        accessor = str(bound.accessor)
        plain = "__" not in accessor and "." not in accessor
        columns.append((bound, f"<td {bound.attrs['td'].as_html()}>", write, accessor if plain else None))
    row_class = getattr(table, "row_class", None)
    out = []
    for row in table.paginated_rows:
        record = row.record
        cells_html = []
        for bound, td, write, attribute in columns:
            if write is None:
                cell = conditional_escape(row.get_cell(bound.name))
            else:
                value = getattr(record, attribute) if attribute else bound.accessor.resolve(record, quiet=True)
                cell = bound.default if value in bound.column.empty_values else write(record, value)
            cells_html.append(f"{td}{cell}</td>")
        if row_class is None:
            attrs = row.attrs.as_html()
        else:  # as BoundRow.attrs writes it: the record's class, then even or odd
            named = row_class(record)
            attrs = f'class="{escape(named)} {row.get_even_odd_css_class()}"' if named else \
                f'class="{row.get_even_odd_css_class()}"'
        out.append(f"<tr {attrs}>{''.join(cells_html)}</tr>")
    if not out and table.empty_text:
        out.append(f'<tr><td colspan="{len(table.columns)}">{conditional_escape(table.empty_text)}</td></tr>')
    return mark_safe("".join(out))  # noqa: S308 - every cell is escaped or the columns' own HTML


def _text(value) -> str:
    """A cell's value as django-tables2 writes it: escaped, "—" when empty."""
    return conditional_escape(value) if value not in (None, "") else "—"


def _archive_cells(name: str) -> dict:
    return {"th": {"class": f"archive__{name}"}, "td": {"class": f"archive__{name}"}}


ARCHIVE_CELLS = ("date", "game", "season", "place", "players", "winner", "end")


class ArchiveTable(OnePassTable):
    """All Partien of a club: a ``Match`` queryset with ``seats``, ``season`` and ``winner``
    fetched and ``confirmed_by_all`` (``protocol.confirmations.with_confirmed_by_all``);
    ``club_slug`` builds the links."""

    # Each column's cells carry its name (site.css: which wrap, which a phone leaves out).
    date = tables.Column(verbose_name=_("Date"), attrs=_archive_cells("date"))
    game = tables.Column(verbose_name=pgettext_lazy("card game", "Game"), accessor="ruleset", attrs=_archive_cells("game"))
    season = tables.Column(verbose_name=_("Season"), accessor="season__name", order_by=("season__start",),
                           attrs=_archive_cells("season"))
    place = tables.Column(verbose_name=_("Place"), attrs=_archive_cells("place"))
    players = tables.Column(verbose_name=_("Players"), accessor="pk", orderable=False, attrs=_archive_cells("players"))
    winner = tables.Column(verbose_name=_("Winner"), accessor="winner__name", order_by=("winner__name",),
                           attrs=_archive_cells("winner"))
    ended_by = tables.Column(verbose_name=_("End"), order_by=("status", "ended_by"), empty_values=(),
                             attrs=_archive_cells("end"))
    game_count = _num(_("Games"))
    files = tables.Column(verbose_name=_("Files"), accessor="pk", orderable=False, empty_values=(),
                          attrs=_archive_cells("files"))

    class Meta:
        attrs = {"class": "data-table archive"}
        empty_text = _("No matches match these filters.")
        order_by = ("-date",)
        template_name = "league/includes/one_pass_table.html"  # its body: body_html

    def __init__(self, data, *, club_slug, **kwargs):
        super().__init__(data, **kwargs)
        self.club_slug = club_slug

    def body_html(self) -> str:
        """The page's rows as django-tables2 writes them (``<tr class="even">``, a ``<td>`` per
        column, "—" for no value), in one pass over the page's Partien, each link reversed once
        per page: the library's cell by cell rendering through the template was nine tenths of
        the archive's time."""
        urls, language = self._urls, get_language()
        count = self.columns["game_count"].column
        badges = {"annulled": f'<span class="badge badge--danger">{escape(_("annulled"))}</span>'}
        rows = []
        for n, row in enumerate(self.paginated_rows):
            match = row.record
            if match.status not in badges and match.status in ("running", "tiebreak"):
                badges[match.status] = f'<span class="badge badge--accent">{escape(match.get_status_display())}</span>'
            ruleset = RULESETS.get(match.ruleset)  # each game names its own ends, with its own articles
            end = badges.get(match.status) or _text(ruleset.ended_by_label(match.ended_by) if ruleset else match.ended_by)
            if finality(match) == "provisional":  # within the club's correction window
                end = f"{end} {provisional_badge()}"
            files = f'<a href="{urls["protocol:pdf"].format(match.pk)}">PDF</a> · ' if urls["protocol:pdf"] else ""
            cells = (f'<a href="{urls["protocol:match"].format(match.pk)}">{short_date(match.date, language)}</a>',
                     game_name(match.ruleset), _text(match.season.name if match.season_id else None),
                     _text(match.place), ", ".join(escape(seat.name) for seat in match.seats.all()),
                     _text(match.winner.name if match.winner_id else None), end)
            rows.append(f'<tr class="{"odd" if n % 2 else "even"}">'
                        + "".join(f'<td class="archive__{name}">{cell}</td>'
                                  for name, cell in zip(ARCHIVE_CELLS, cells, strict=True))
                        + f'<td class="num">{count.render(match.game_count)}</td>'
                        + f'<td class="archive__files">{files}<a href="{urls["export_match"].format(match.pk)}" '
                          f'download>xlsx</a></td></tr>')
        if not rows and self.empty_text:
            rows.append(f'<tr><td colspan="{len(self.columns)}">{conditional_escape(self.empty_text)}</td></tr>')
        return mark_safe("".join(rows))  # noqa: S308 - every cell is escaped

    @cached_property
    def _urls(self) -> dict[str, str]:
        """The addresses of a Partie's links, reversed once per table (``{}`` its pk; "" a
        page that does not exist)."""
        return {name: addresses.pattern(name, "pk", optional=True, slug=self.club_slug)
                for name in ("protocol:match", "protocol:pdf", "export_match")}
