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
