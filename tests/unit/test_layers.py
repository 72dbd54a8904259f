"""The layers of docs/architecture.md, read from the import statements (ast, no import runs;
imports inside functions count as well):

1. the pure part is the ground floor: ``protocol/rules`` (the engine), ``protocol/entry_form``
   (the entry form's fields read for it), the game registry ``protocol/games/__init__.py`` and
   each game's ``__init__``, ``rules`` and ``entry_form``; it imports the standard library and
   itself, never Django nor anything else of the site (it runs in the browser too);
2. ``league.models`` and ``league.registry`` are the registry, and ``jobs`` the background
   jobs' infrastructure (a job, its runner, progress and pages): the apps above register
   their own work with it, so it imports nothing of them;
3. the rest of ``protocol`` records Partien on the registry and the rules, never on the
   league's upper floor (standings, spreadsheets, tournaments, views), which reads them;
   ``config`` wires everything together and nothing imports it.

Within a layer there is no import cycle either: a top-level module of an app (``protocol.reading``,
``league.forms``, ``jobs.models``) and each deeper package (``protocol.documents``,
``league.registry``, ``protocol.games.tarot``) imports none that imports it back, directly or
round several others.
"""

import sys
from pathlib import Path

from tests.unit.imports import (
    GAMES,
    PROTOCOL,
    PURE,
    ROOT,
    import_graph,
    import_loops,
    imported_modules,
    is_pure,
    node_of,
    offences,
)

NOT_THE_SITE = ("tests", "bench")  # they may import anything

# Lowest first: a module imports its own layer and those before it, never one after it, so
# no import loop can run between two layers. ``jobs`` stands just above the registry: its
# pages ask the registry's access who may follow a job (who started it, the club's managers,
# staff), and the registry never imports jobs (``access.can_follow_job`` reads the job's
# fields only).
LAYERS = [
    ("the rules", PURE),
    ("the registry", ("league.models", "league.registry")),
    ("jobs", ("jobs",)),
    ("protocol", ("protocol",)),
    ("the league", ("league",)),
    ("config", ("config",)),
]


def pure_files() -> list[Path]:
    return [path for path in code_files() if is_pure(module_name(path))]


def layer_of(module: str) -> int | None:
    """The index in ``LAYERS`` of a module of the site (the pure part first, then the longest
    prefix decides), None for anything else (the standard library, Django, other packages)."""
    if is_pure(module):
        return 0
    best = None
    for index, (_name, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and (best is None or len(prefix) > best[1]):
                best = (index, len(prefix))
    return best and best[0]


def code_files() -> list[Path]:
    """Every module of every package of the site (config, jobs, league, protocol, and any new one)."""
    packages = sorted(p.parent for p in ROOT.glob("*/__init__.py") if p.parent.name not in NOT_THE_SITE)
    return [path for package in packages for path in sorted(package.rglob("*.py")) if "migrations" not in path.parts]


def module_name(path: Path) -> str:
    name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
    return name.removesuffix(".__init__")


def in_registry(module: str) -> bool:
    return module in ("league.models", "league.registry") or module.startswith("league.registry.")


def test_protocol_imports_of_the_league_only_the_registry():
    def allowed(module):
        return not (module == "league" or module.startswith("league.")) or in_registry(module)

    assert offences(PROTOCOL, allowed) == []


def test_jobs_import_nothing_of_protocol_nor_of_the_leagues_upper_floor():
    """jobs/ is infrastructure: the sheet's and the backup's work live in protocol, the
    spreadsheets' in the league, and each registers itself (``jobs.work.register``)."""
    def allowed(module):
        top = module.split(".")[0]
        return top not in ("protocol", "league", "config") or in_registry(module)

    assert offences(ROOT / "jobs", allowed) == []


def test_each_layer_imports_only_its_own_and_those_below():
    """rules -> registry -> jobs -> protocol -> league -> config, never back: so there is no
    import cycle between them, not even through an import inside a function. A package of the
    site that has no layer yet is named too."""
    found = []
    for path in code_files():
        own = layer_of(module_name(path))
        if own is None:
            found.append(f"{path.relative_to(ROOT)} has no layer in LAYERS")
            continue
        for line, module in imported_modules(path):
            other = layer_of(module)
            if other is not None and other > own:
                found.append(f"{path.relative_to(ROOT)}:{line} ({LAYERS[own][0]}) imports {module} "
                             f"({LAYERS[other][0]})")
    assert found == []


def test_no_import_cycle_between_packages():
    """Each top-level module of an app and each deeper package is a node (``node_of``); no two
    of them import each other, not even round several others nor from inside a function: each
    package builds on those below it. A loop is named with the imports that close it."""
    graph = import_graph(code_files())
    found = [" <-> ".join(loop) + ": " + "; ".join(
        where for node in loop for other, imports in sorted(graph[node].items()) if other in loop for where in imports)
        for loop in import_loops(graph)]
    assert found == []


def test_the_loop_finder_finds_each_loop_and_no_other():
    """The checker itself, on a graph made by hand and on the site's names."""
    graph = {"a": {"b"}, "b": {"a", "c"}, "c": {"d"}, "d": {"e"}, "e": {"c", "g"}, "f": {"a"}, "g": set()}
    assert import_loops(graph) == [["a", "b"], ["c", "d", "e"]]  # b -> c leads into a loop, not back
    assert import_loops(graph | {"e": {"a"}}) == [["a", "b", "c", "d", "e"]]  # now it leads back
    assert import_loops({"a": {"b"}, "b": {"c"}, "d": {"a"}}) == []  # "c": a module of no node
    assert import_loops({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a", "c"}}) == [["a", "b", "c"]]
    assert node_of("protocol.reading") == "protocol.reading" and node_of("protocol") == "protocol"
    assert node_of("protocol.documents.backup") == node_of("protocol.documents") == "protocol.documents"
    assert node_of("protocol.games.tarot.plugin") == node_of("protocol.games.tarot") == "protocol.games.tarot"
    assert node_of("protocol.games.tarot.rules.deal") == "protocol.games.tarot.rules"
    assert node_of("django.db") is None and node_of("protocol.reading.document") is None
    # a package's own module is no edge; the parents Python runs first are none either
    edges = import_graph([PROTOCOL / "documents" / "background.py"])["protocol.documents"]
    assert set(edges) == {"jobs.housekeeping", "jobs.models", "jobs.tasks", "jobs.work"}
    assert edges["jobs.tasks"] == ["protocol/documents/background.py:17 imports jobs.tasks"]


def test_the_pure_part_imports_nothing_but_the_standard_library_and_itself():
    """The engine, the entry form's mapping, the registry and each game's rules and entry
    mapping run in the browser too (Pyodide, the offline entry page): never Django."""
    def allowed(module):
        top = module.split(".")[0]
        return is_pure(module) or (top in sys.stdlib_module_names and top != "protocol")

    files = pure_files()
    assert {PROTOCOL / "games" / "__init__.py", GAMES / "tarot" / "entry_form.py",
            GAMES / "chaotentrumpf" / "rules" / "partie.py", PROTOCOL / "rules" / "match.py"} <= set(files)
    assert not {GAMES / "base.py", GAMES / "tarot" / "plugin.py", GAMES / "tarot" / "forms.py"} & set(files)
    found = [f"{path.relative_to(ROOT)}:{line} imports {module}"
             for path in files for line, module in imported_modules(path) if not allowed(module)]
    assert found == []


def test_the_walk_resolves_relative_imports():
    """The checker itself: ``from .cards import POINTS`` in a game's rules is
    protocol.games.chaotentrumpf.rules.cards, so that a relative import climbing out of the
    pure part (``from ... import models``) is seen."""
    found = [module for _line, module in imported_modules(GAMES / "chaotentrumpf" / "rules" / "game.py")]
    assert "protocol.rules.base" in found and "protocol.games.chaotentrumpf.rules.cards" in found
    # ``from protocol import games`` names the package it takes, not protocol's own __init__
    found = [module for _line, module in imported_modules(PROTOCOL / "sheet" / "background.py")]
    assert "protocol.games" in found and "jobs.work" in found and "protocol" not in found
    assert layer_of("league.registry.access") == layer_of("league.models") < layer_of("jobs") \
        < layer_of("protocol.sheet") < layer_of("league.standings")
    assert layer_of("protocol.games.tarot.rules.deal") == layer_of("protocol.games") == 0 < layer_of(
        "protocol.games.tarot.plugin") == layer_of("protocol.games.base")


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
