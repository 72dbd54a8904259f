"""Pyodide's standard library, trimmed to what the browser runs: the modules listed in
``stdlib.txt`` beside this file, taken from Pyodide's ``python_stdlib.zip``, as bytecode.

    python protocol/offline/stdlib.py node_modules/pyodide/python_stdlib.zip static/vendor/pyodide/python_stdlib.zip

(the Makefile's ``vendor`` rule). Pyodide ships its whole standard library (2.5 MB, deflated,
so not compressible on the wire); the rules import a small part of it. The list holds every
module the pure code the rules pack ships imports (protocol/offline/pack.py), followed through
the standard library's own imports (:func:`closure`), plus what Pyodide itself imports to start
and to unpack the rules pack (seen in ``sys.modules`` of the browser), each by its dotted name;
tests/unit/test_offline_pack.py checks that it still covers the pure code.

The trimmed zip is deterministic: members in sorted order, one fixed timestamp, fixed
permissions, stored (not deflated: the server's Brotli packs the sources far better than one
deflate stream per file, and zipimport reads them without inflating).

The browser gets each module compiled (:func:`compile_zip`, ``.pyc`` in place of ``.py``): Pyodide
imports nearly every listed module while it starts, and compiling their sources took the phone
longer than anything else after the last byte came (a second and more; the bytecode costs 0.3 MB
more on the wire, a third of a second on 4G). Only Pyodide's own Python writes the bytecode its
Python reads, so :func:`compiled` hands the trimmed sources to ``bytecode.mjs``, which runs
:func:`compile_zip` in Pyodide from ``node_modules`` (node, which npm brings): hash-based
``.pyc`` (PEP 552, not checked against a source: the zip holds none), in the same deterministic
zip, whose comment names the sources' SHA-256 (tests/unit/test_offline_pack.py compares it).

Standard library only, runs without Django (the vendor rule runs it before the venv exists).
"""

from __future__ import annotations

import ast
import hashlib
import io
import re
import subprocess
import sys
import tempfile
import tokenize
import zipfile
from pathlib import Path

LISTED = Path(__file__).with_name("stdlib.txt")
BYTECODE = Path(__file__).with_name("bytecode.mjs")
SOURCES = "sources sha256 "  # the compiled zip's comment: this, then the sources' digest (hex)
FIXED_TIME = (1980, 1, 1, 0, 0, 0)  # the zip format's earliest date, as the rules pack's
# Beside the modules, files the modules read at run time (none of the listed modules needs one yet).
DATA = ()
KEEP_DOCSTRINGS = ("_pyodide/", "pyodide/")  # Pyodide reads its own docstrings (_pyodide.docstring)
# A statement of another Python than this one (3.14 syntax read by 3.11): its imports by text.
IMPORT = re.compile(r"^[ \t]*import[ \t]+([\w., \t]+)", re.MULTILINE)
FROM = re.compile(r"^[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#;]+)", re.MULTILINE)


def listed(path: Path = LISTED) -> list[str]:
    """The dotted names of stdlib.txt (comments and blank lines left out)."""
    lines = (line.split("#")[0].strip() for line in path.read_text("utf-8").splitlines())
    return [line for line in lines if line]


def module_files(archive: zipfile.ZipFile) -> dict[str, str]:
    """Dotted module name -> its member in the zip (a package: its ``__init__.py``)."""
    found = {}
    for name in archive.namelist():
        if not name.endswith(".py"):
            continue
        dotted = name[:-3].replace("/", ".")
        found[dotted.removesuffix(".__init__")] = name
    return found


def imports(source: bytes, module: str, is_package: bool, *, in_functions: bool = True) -> set[str]:
    """The modules ``source`` imports, dotted and absolute; ``from a import b`` gives ``a`` and
    ``a.b`` (b may be a module). ``in_functions=False``: only those importing it runs (not the
    imports inside a function's body, nor under ``if TYPE_CHECKING``)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return _imports_by_text(source.decode("utf-8", "replace"), module, is_package, in_functions)
    found = set()
    for node in _statements(tree, in_functions):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node.module or "", node.level, module, is_package)
            if base:
                found.add(base)
                found.update(f"{base}.{alias.name}" for alias in node.names if alias.name != "*")
    return found


def _statements(node: ast.AST, in_functions: bool):
    for child in ast.iter_child_nodes(node):
        if not in_functions and isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        if not in_functions and isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
            yield from (s for other in child.orelse for s in [other, *_statements(other, in_functions)])
            continue
        yield child
        yield from _statements(child, in_functions)


def _imports_by_text(text: str, module: str, is_package: bool, in_functions: bool) -> set[str]:
    """As :func:`imports`, read line by line: a function's body is what is indented under a
    ``def`` (strings are not told apart: at worst a module too many)."""
    if not in_functions:
        kept, functions = [], []  # the indentation of each enclosing def
        for line in text.splitlines():
            stripped = line.lstrip()
            if not stripped or stripped.startswith("#"):
                kept.append("")
                continue
            indent = len(line) - len(stripped)
            while functions and indent <= functions[-1]:
                functions.pop()
            kept.append("" if functions else line)
            if re.match(r"(async\s+)?def\s", stripped):
                functions.append(indent)
        text = "\n".join(kept)
    found = set()
    for match in IMPORT.finditer(text):
        for part in match.group(1).split(","):
            name = part.split(" as ")[0].strip()
            if name:
                found.add(name.split()[0])
    for match in FROM.finditer(text):
        dots = len(match.group(1)) - len(match.group(1).lstrip("."))
        base = _absolute(match.group(1).lstrip("."), dots, module, is_package)
        if not base:
            continue
        found.add(base)
        for part in match.group(2).strip("()").split(","):
            name = part.split(" as ")[0].strip()
            if name.isidentifier():
                found.add(f"{base}.{name}")
    return found


def _absolute(name: str, level: int, module: str, is_package: bool) -> str:
    if not level:
        return name
    parts = module.split(".") if is_package else module.split(".")[:-1]
    parts = parts[: len(parts) - (level - 1)] if level > 1 else parts
    return ".".join(parts + ([name] if name else []))


def with_parents(names: set[str]) -> set[str]:
    """Importing ``a.b.c`` runs ``a`` and ``a.b`` first."""
    return {".".join(name.split(".")[:depth]) for name in names for depth in range(1, name.count(".") + 2)}


def closure(roots: set[str], archive: zipfile.ZipFile) -> set[str]:
    """The modules of the zip that importing ``roots`` runs: their parents and, through the
    import statements their import runs, what those import (names the zip has not, such as the
    modules built into Pyodide or the rules' own, are left out). An import inside a function runs
    when it is called: the rules' calls are the browser's test (tests/browser), what Pyodide runs
    is in the list from its ``sys.modules``."""
    files = module_files(archive)
    seen: set[str] = set()
    todo = [name for name in with_parents(roots) if name in files]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        member = files[name]
        source = archive.read(member)
        found = with_parents(imports(source, name, member.endswith("/__init__.py"), in_functions=False))
        todo.extend(other for other in found if other in files and other not in seen)
    return seen


def members(names: list[str], archive: zipfile.ZipFile) -> list[str]:
    """The zip members of the listed modules (a package's ``__init__.py``, never its other
    modules unless listed), sorted. A name the zip does not have is an error."""
    files = module_files(archive)
    missing = [name for name in names if name not in files]
    if missing:
        raise SystemExit(f"not in Pyodide's standard library: {', '.join(missing)} (protocol/offline/stdlib.txt)")
    return sorted({files[name] for name in names} | {name for name in DATA if name in archive.namelist()})


def slim(source: bytes) -> bytes:
    """``source`` without its comments and with empty docstrings (as ``python -OO`` runs the
    standard library: without them), line numbers kept. Only a source this Python reads whose
    syntax tree stays the same (docstrings aside); any other as it is."""
    try:
        tree = ast.parse(source)
        lines = source.splitlines(keepends=True)
        for node in sorted(_docstrings(tree), key=lambda n: (n.lineno, n.col_offset), reverse=True):
            first, last = node.lineno - 1, node.end_lineno - 1
            head, tail = lines[first][: node.col_offset], lines[last][node.end_col_offset:]
            lines[first: last + 1] = [head + b'""' + tail] + [b"\n"] * (last - first)
        text = b"".join(lines).decode("utf-8")
        comments = [token.start for token in tokenize.generate_tokens(io.StringIO(text).readline)
                    if token.type == tokenize.COMMENT and token.start[0] > 2]  # 1-2: coding lines
        rows = text.splitlines(keepends=True)
        for row, column in reversed(comments):
            rows[row - 1] = rows[row - 1][:column].rstrip() + "\n"
        slimmed = "".join(rows).encode("utf-8")
        for node in _docstrings(tree):
            node.value = ""
        if ast.dump(ast.parse(slimmed)) != ast.dump(tree):
            return source
        return slimmed
    except (SyntaxError, tokenize.TokenError, UnicodeDecodeError, IndentationError):
        return source


def _docstrings(tree: ast.AST) -> list[ast.Constant]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                    and isinstance(first.value.value, str)):
                found.append(first.value)
    return found


def _member(name: str) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, date_time=FIXED_TIME)
    info.compress_type = zipfile.ZIP_STORED
    info.external_attr = 0o644 << 16
    return info


def write(source: Path, target: Path, names: list[str] | None = None) -> int:
    """The trimmed zip of sources at ``target`` (bytes written)."""
    with zipfile.ZipFile(source) as archive:
        chosen = members(listed() if names is None else names, archive)
        target.parent.mkdir(parents=True, exist_ok=True)
        with zipfile.ZipFile(target, "w", zipfile.ZIP_STORED) as trimmed:
            for name in chosen:
                data = archive.read(name)
                trimmed.writestr(_member(name), data if name.startswith(KEEP_DOCSTRINGS) else slim(data))
    return target.stat().st_size


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def compiled(source: Path, target: Path) -> int:
    """The zip of sources ``source`` compiled by Pyodide's Python into ``target`` (bytes written):
    ``node bytecode.mjs``, which needs ``node_modules/pyodide``."""
    target.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(["node", str(BYTECODE), str(source), str(target)], check=True)
    return target.stat().st_size


def compile_zip(source: str, target: str) -> None:
    """Run by Pyodide's Python (bytecode.mjs): each ``.py`` of the zip ``source`` as an unchecked
    hash-based ``.pyc``, compiled under the name zipimport gives it in the browser (Pyodide puts
    the zip at /lib/pythonXY.zip), so that a traceback names the module's file as before; other
    members as they are."""
    import importlib.util
    import marshal

    where = f"/lib/python{sys.version_info.major}{sys.version_info.minor}.zip"
    with open(source, "rb") as handle:
        sources = hashlib.sha256(handle.read()).hexdigest()
    with zipfile.ZipFile(source) as archive, zipfile.ZipFile(target, "w", zipfile.ZIP_STORED) as out:
        for name in sorted(archive.namelist()):
            data = archive.read(name)
            if name.endswith(".py"):
                code = compile(data, f"{where}/{name}", "exec", dont_inherit=True, optimize=0)
                flags = 0b01  # hash-based, unchecked (PEP 552)
                data = (importlib.util.MAGIC_NUMBER + flags.to_bytes(4, "little")
                        + importlib.util.source_hash(data) + marshal.dumps(code))
                name += "c"
            out.writestr(_member(name), data)
        out.comment = (SOURCES + sources).encode("ascii")


def sources_of(path: Path) -> str | None:
    """The SHA-256 of the sources a compiled zip was compiled from (its comment), or None."""
    with zipfile.ZipFile(path) as archive:
        comment = archive.comment.decode("ascii", "replace")
    return comment.removeprefix(SOURCES) if comment.startswith(SOURCES) else None


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__.split("\n\n")[1])
    with tempfile.TemporaryDirectory() as folder:
        sources = Path(folder) / "python_stdlib.zip"
        write(Path(sys.argv[1]), sources)
        size = compiled(sources, Path(sys.argv[2]))
    print(f"{sys.argv[2]}: {len(listed())} modules compiled, {size:,} bytes")
