"""The small vocabulary every ruleset speaks.

A *ruleset* turns a protocol document (the ``protocol/1`` JSON of one match, see
``shared/docs/protocol-format.md``) into an :class:`Evaluation`: either the match as the
rules compute it, or every :class:`RuleError` found in it. The site, the importer, the
check command and the printed sheet all go through :meth:`Ruleset.evaluate`; nothing else
knows a rule.

This package imports nothing of Django: it is the ground floor of the site.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:  # the engine is built on this module
    from .match import Engine, PenaltyRules


@dataclass(frozen=True)
class RuleError:
    """One thing wrong in a protocol.

    ``event`` is the index in the document's ``events`` (from 0), or None for the document
    as a whole (players, settings). ``player`` is None for an error of the whole event.
    ``field`` names the input that is wrong (``points``, ``trump``, ``settings.limit``).
    ``message`` is a German sentence for the Protokollant that names the article.
    """

    event: int | None
    player: str | None
    field: str | None
    message: str

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Evaluation:
    """What a ruleset answers for a document: ``errors`` or a computed ``match``."""

    errors: list[RuleError] = field(default_factory=list)
    match: Any = None

    @property
    def ok(self) -> bool:
        return not self.errors

    def errors_for(self, event: int | None) -> list[RuleError]:
        return [e for e in self.errors if e.event == event]

    def as_json(self) -> dict[str, Any]:
        if self.errors:
            return {"errors": [e.as_json() for e in self.errors]}
        return self.match.as_json()


@dataclass(frozen=True)
class Examples:
    """A game's own examples for the contract every game passes (tests/unit/test_match_engine.py):
    a game brings them with its rules, so that adding a game edits no test."""

    annulled_game: dict[str, Any]  # a Spiel body the game accepts as annulled, once its reason is added
    refused_game: dict[str, Any]  # a Spiel body the game refuses ...
    refused_field: str  # ... at this field ...
    refused_article: str  # ... citing this rule of its own
    # A Spiel recorded as points only (protocol/rules/scores.py), for Anna, Bernd, Carla, Dieter:
    # one the game accepts and one it refuses at "scores" citing ``refused_points_article``.
    # None: the game records nothing but points anyway (its full body is the points list).
    points_game: dict[str, Any] | None = None
    refused_points: dict[str, Any] | None = None
    refused_points_article: str = ""


class Ruleset(Protocol):
    """The interface each game offers the site (Chaotentrumpf, Doppelkopf, Tarot): everything
    the site asks of a ruleset, so that no page needs to know which game it shows.

    Every ruleset is a :class:`~.match.GameRules`, the plug of the match engine every game
    shares (protocol/rules/match.py).
    """

    key: str  # the ``ruleset`` value of the protocol format
    name: str  # what users read
    min_players: int  # the fewest and most players at the table (the envelope's check)
    max_players: int
    table_sizes: tuple[int, ...]  # the players at a tournament table, the preferred size first
    penalties: PenaltyRules  # what a Strafe may deduct, with the rule cited
    sanction_articles: dict[str, str]  # penalty / warning / disqualification -> article ("" none)
    articles: dict[str, str]  # the rule each kind of refusal cites (match.ARTICLE_KEYS), the game's own
    end_reasons: dict[str, str]  # the reasons of an ``end`` event and their labels
    # What the league asks, so that it never names a game:
    line_fields: tuple[str, ...]  # what a Spiel records per player (the season workbook reads each back from
    #                               a column of its Spiele sheet); () if the game records one body per deal
    standings_figures: tuple[str, ...]  # figures of a league table only this game has ("tiebreaks" ...)
    rule_variants: dict[str, str]  # the sets of rules a table may choose (settings "rules"): key -> name
    default_variant: str  # the one played when none is chosen ("" without variants)
    tournament_formats: dict[str, tuple[int, int]]  # a tournament's positions x deals ({}: free)
    position_minutes: dict[int, int]  # deals per position -> the minutes the rules give it ({}: no limit fixed)
    examples: Examples  # the game's own cases of the contract every game passes
    rating_results: str  # what one result of the rating is in this game (German; the page explaining it)
    rating_settles_after: int  # the contests (contests.py) a rating rests on before it is no longer provisional

    def default_settings(self, players: list[str]) -> dict[str, Any]:
        """The match settings the rules prescribe for these players."""

    def evaluate(self, document: dict[str, Any]) -> Evaluation:
        """Check a whole protocol document and, if it is valid, compute the match."""

    def start(self, document: dict[str, Any]) -> tuple[Engine | None, Problems]:
        """The engine of the document with its events fed, to feed more one at a time
        (``engine.feed(event)``, ``engine.finish()`` the match so far); None if the envelope
        or the settings are wrong. ``problems`` holds every error so far."""

    def article(self, key: str, settings: Any = None) -> str:
        """The rule this game's refusal of ``key`` cites (a key of ``articles`` or a sanction's
        kind), by the rules the match's ``settings`` choose where the game has several."""

    def ended_by_label(self, ended_by: str | None) -> str:
        """What ended a match (the computed match's ``ended_by`` key), as this game's rules
        name it: the archive and the spreadsheet say it so."""

    def contests(self, match: Any) -> list[Any]:
        """The results of a computed match a rating reads (protocol/rules/contests.py)."""


class Problems:
    """Collects the problems found while something is read, so that all of them are reported:
    the RuleErrors of a protocol document (:meth:`add`), and any other problem a reader places
    itself (:meth:`keep`; the season workbook's, at their cells: ``league.spreadsheets.workbook``).

    ``unread``: the places a reader could not read and left out of what it handed on, so
    that what is then missing there is not said twice (see :meth:`keep`).
    """

    def __init__(self) -> None:
        self.errors: list[Any] = []
        self.seen: set[Any] = set()
        self.unread: set[Any] = set()

    def add(self, event: int | None, player: str | None, field: str | None, message: str) -> None:
        self.errors.append(RuleError(event, player, field, message))

    def keep(self, problem: Any, identity: Any, *, place: Any = None) -> None:
        """Keep ``problem`` once per ``identity``; not at all if its ``place`` is one the
        reader could not read (it said so there already)."""
        if (place is not None and place in self.unread) or identity in self.seen:
            return
        self.seen.add(identity)
        self.errors.append(problem)

    def fork(self) -> Problems:
        """A copy to add to that leaves these problems as they are."""
        twin = Problems()
        twin.errors, twin.seen, twin.unread = list(self.errors), set(self.seen), set(self.unread)
        return twin

    def __bool__(self) -> bool:
        return bool(self.errors)

    def __len__(self) -> int:
        return len(self.errors)


def is_int(value: Any) -> bool:
    """True for a JSON integer (not a bool, not a float such as 3.0)."""
    return isinstance(value, int) and not isinstance(value, bool)
