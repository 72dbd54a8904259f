"""The layers of docs/architecture.md, read from the import statements (ast, no import runs):

1. ``protocol/rules`` is the ground floor: it imports the standard library and itself, never
   Django nor anything else of the site;
2. ``league.models`` and ``league.registry`` are the registry: recording (the rest of
   ``protocol``) builds on them and on the rules, never on the league's upper floor
   (standings, spreadsheets, tournaments, views).
"""

import sys

from tests.unit.imports import PROTOCOL, ROOT, imported_modules, offences

RULES = PROTOCOL / "rules"


def test_protocol_imports_of_the_league_only_the_registry():
    def allowed(module):
        return not (module == "league" or module.startswith("league.")) or module == "league.models" \
            or module == "league.registry" or module.startswith("league.registry.")

    assert offences(PROTOCOL, allowed) == []


def test_the_rules_import_nothing_but_the_standard_library_and_themselves():
    def allowed(module):
        top = module.split(".")[0]
        return module == "protocol.rules" or module.startswith("protocol.rules.") or (
            top in sys.stdlib_module_names and top != "protocol")

    assert offences(RULES, allowed) == []


def test_the_walk_resolves_relative_imports():
    """The checker itself: ``from ..base import is_int`` in a game's folder is protocol.rules.base,
    so that a relative import climbing out of the rules (``from ... import models``) is seen."""
    found = [module for _line, module in imported_modules(RULES / "chaotentrumpf" / "game.py")]
    assert "protocol.rules.base" in found and "protocol.rules.chaotentrumpf.cards" in found


def test_the_league_names_no_game():
    """The league, its templates and the jobs ask the rules' Ruleset (protocol.rules.RULESETS)
    and never name a game: a fourth game touches none of them (migrations keep their history)."""
    from protocol.rules import RULESETS

    words = {word.casefold() for ruleset in RULESETS.values() for word in (ruleset.key, ruleset.name)}
    folders = [ROOT / "league", ROOT / "templates" / "league", ROOT / "jobs"]
    named = [f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
             for folder in folders for path in sorted(folder.rglob("*"))
             if path.suffix in (".py", ".html") and "migrations" not in path.parts
             for number, line in enumerate(path.read_text().splitlines(), 1)
             if any(word in line.casefold() for word in words) or "tallymatch" in line.casefold()]
    assert named == []


def test_the_entries_are_pure_like_the_rules():
    """protocol/entries runs in the browser too (Pyodide, the offline entry page): the standard
    library, the rules and itself, never Django."""
    def allowed(module):
        top = module.split(".")[0]
        return module.startswith(("protocol.rules", "protocol.entries")) or (
            top in sys.stdlib_module_names and top != "protocol")

    assert offences(PROTOCOL / "entries", allowed) == []
