"""The site's modules and what they import, read from the import statements (ast, no import
runs): the layers' tests (docs/architecture.md)."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROTOCOL = ROOT / "protocol"
GAMES = PROTOCOL / "games"
PURE = ("protocol.rules", "protocol.entry_form")  # and the registry and each game's pure part: is_pure
GAME_PURE_PARTS = ("rules", "entry_form")


def is_pure(module: str) -> bool:
    """Whether a module is of the ground floor, the part the browser runs."""
    parts = module.split(".")
    if any(module == prefix or module.startswith(prefix + ".") for prefix in PURE) or module == "protocol.games":
        return True
    in_a_game = parts[:2] == ["protocol", "games"] and len(parts) >= 3 and (GAMES / parts[2]).is_dir()
    return in_a_game and (len(parts) == 3 or parts[3] in GAME_PURE_PARTS)


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in the file, relative ones resolved;
    ``from protocol import games`` is ``protocol.games`` when that is a module of the site."""
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module
            names = [f"{module}.{alias.name}" if not node.module or _is_module(f"{module}.{alias.name}") else module
                     for alias in node.names]
            found += [(node.lineno, name) for name in names]
    return found


def _is_module(name: str) -> bool:
    path = ROOT.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def offences(folder: Path, allowed) -> list[str]:
    return [f"{path.relative_to(ROOT)}:{line} imports {module}"
            for path in sorted(folder.rglob("*.py")) if "migrations" not in path.parts
            for line, module in imported_modules(path) if not allowed(module)]



# -- the import graph: no cycle between packages ---------------------------------------------

def node_of(module: str) -> str | None:
    """The node of the import graph a module of the site counts for: a top-level module of an
    app package is its own node (``protocol.reading``, ``league.models``), a deeper package is
    one node with all its modules (``protocol.documents``, ``protocol.games.tarot``); None for
    a name that is no module of the site (the standard library, Django)."""
    path = ROOT.joinpath(*module.split("."))
    if (path / "__init__.py").is_file():
        package = module
    elif path.with_suffix(".py").is_file():
        package = module.rpartition(".")[0]
    else:
        return None
    return module if "." not in package else package


def import_graph(files: list[Path]) -> dict[str, dict[str, list[str]]]:
    """node -> each node it imports -> the imports (``path:line imports module``). An import
    within one node (a package importing its own module) is no edge, nor is the parent package
    Python runs first: ``import protocol.documents.backup`` is an edge to protocol.documents only."""
    graph = {}
    for path in files:
        own = node_of(".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"))
        edges = graph.setdefault(own, {})
        for line, module in imported_modules(path):
            other = node_of(module)
            where = f"{path.relative_to(ROOT)}:{line} imports {module}"
            if other not in (None, own) and where not in edges.get(other, []):
                edges.setdefault(other, []).append(where)
    return graph


def import_loops(graph) -> list[list[str]]:
    """The groups of nodes that reach each other through the graph's edges (Tarjan's strongly
    connected components of more than one node): each node of a group lies on an import cycle
    with the others. Each group sorted, the groups in order."""
    index, low, stack, loops = {}, {}, [], []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in graph.get(node, ()):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:  # back to a node of the group still open
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:  # the first node of its group: the group is complete
            group = stack[stack.index(node):]
            del stack[stack.index(node):]
            if len(group) > 1:
                loops.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(loops)
