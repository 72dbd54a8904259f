"""The rules pack (protocol/offline/pack.py): the engine's source, deterministic, and the
bridge the browser calls (protocol/offline/bridge.py), run here in CPython."""

import io
import json
import re
import zipfile

import pytest

from protocol.offline import bridge, pack
from tests.unit.imports import PROTOCOL, ROOT, is_pure, offences


def test_the_pack_holds_the_rules_and_the_bridge_and_nothing_of_django():
    names = zipfile.ZipFile(io.BytesIO(pack.build().data)).namelist()
    assert names == sorted(names)
    assert {"protocol/__init__.py", "protocol/rules/__init__.py", "protocol/rules/check.py",
            "protocol/offline/__init__.py", "protocol/offline/bridge.py"} <= set(names)
    assert "protocol/offline/words-en.json" in names  # the en catalogue (compilemessages)
    assert not [n for n in names if not n.endswith((".py", ".json")) or "__pycache__" in n]
    assert not [n for n in names if n.startswith("protocol/offline/") and n.split("/")[-1]
                not in ("__init__.py", "bridge.py", "games.json") and not n.startswith("protocol/offline/words-")]
    # each game's pure part (its rules and entry mapping), never its site plug-in
    assert {"protocol/games/__init__.py", "protocol/games/tarot/entry_form.py", "protocol/entry_form/points.py",
            "protocol/games/doppelkopf/rules/scoring.py"} <= set(names)
    assert not [n for n in names if n.startswith("protocol/games/") and not is_pure(n.removesuffix(".py").removesuffix("/__init__").replace("/", "."))]
    with zipfile.ZipFile(io.BytesIO(pack.build().data)) as archive:
        assert archive.read("protocol/__init__.py") == b""
        assert {info.date_time for info in archive.infolist()} == {pack.FIXED_TIME}


def test_the_same_source_gives_the_same_pack_and_name():
    first, second = pack.build(), pack.build()
    assert first.data == second.data and first.filename == second.filename
    assert first.filename.startswith("regeln-") and len(first.filename) == len("regeln-") + 16 + 4


def test_the_bridge_imports_nothing_but_the_standard_library_and_the_engine():
    import sys

    def allowed(module):
        top = module.split(".")[0]
        return is_pure(module) or (top in sys.stdlib_module_names and top != "protocol")

    assert [o for o in offences(PROTOCOL / "offline", allowed) if o.startswith("protocol/offline/bridge.py")] == []


def test_the_bridge_answers_json_and_refuses_what_is_not_the_engine():
    with open("tests/data/invalid.json", encoding="utf-8") as file:
        document = json.load(file)
    answer = json.loads(bridge.call("protocol.rules.check", "evaluate_document", json.dumps([document])))
    assert any("Art. 16a" in error["message"] for error in answer["value"]["errors"])
    assert "gehört nicht" in json.loads(bridge.call("os", "getcwd", "[]"))["error"]
    assert "zu tief" in json.loads(bridge.call("protocol.rules.vocabulary", "number", "[" * 50 + "]" * 50))["error"]


ENGLISH = """
import json, sys
sys.path.insert(0, sys.argv[1])
from protocol.offline import bridge
document = json.load(open("tests/data/invalid.json", encoding="utf-8"))
assert bridge.use_language(sys.argv[2]) == sys.argv[3]
print(bridge.call("protocol.entry_form.state", "state", json.dumps([document])))
"""


def test_the_bridge_speaks_the_pages_language_as_the_site_does(tmp_path, settings):
    """Unpacked as Pyodide unpacks it, the bridge translates the engine's words with the pack's
    catalogue: the same English as the site's gettext (locale/en) for the same message."""
    import subprocess
    import sys

    from django.utils import translation

    from protocol.entry_form.state import state

    zipfile.ZipFile(io.BytesIO(pack.build().data)).extractall(tmp_path)

    def offline(code, used):
        run = subprocess.run([sys.executable, "-c", ENGLISH, str(tmp_path), code, used],
                             capture_output=True, text=True, check=True)
        return [e["message"] for e in json.loads(run.stdout)["value"]["errors"]]

    with open("tests/data/invalid.json", encoding="utf-8") as file:
        document = json.load(file)
    with translation.override("en"):
        online = [e["message"] for e in state(document)["errors"]]
    english = offline("en-GB", "en")
    assert english == online and any("(Art. 16a)" in m for m in english)
    german = offline("de", "de")
    assert german != english and offline("fr", "de") == german


CALL = re.compile(r"""engine\.call\(\s*(["'`])(?P<module>[^"'`]*)\1\s*,\s*["'](?P<function>\w+)["']""")


def test_every_function_the_pages_call_in_the_engine_is_there_by_a_fixed_name():
    """The pages' scripts name a module of the engine and a function in it: each exists, and none
    is built from a game's key (a game's own modules sit in its folder, asked through the registry)."""
    import importlib

    calls = [(path.name, m["module"], m["function"]) for path in sorted((ROOT / "static" / "js").rglob("*.js"))
             if "vendor" not in path.parts for m in CALL.finditer(path.read_text(encoding="utf-8"))]
    assert {module for _name, module, _function in calls} >= {"protocol.entry_form", "protocol.entry_form.state"}
    for name, module, function in calls:
        assert "${" not in module and any(module == root or module.startswith(root + ".") for root in bridge.ALLOWED), name
        assert callable(getattr(importlib.import_module(module), function, None)), (name, module, function)


# -- Pyodide's standard library, trimmed (protocol/offline/stdlib.py, the Makefile's vendor rule) --

PYODIDE_STDLIB = ROOT / "node_modules" / "pyodide" / "python_stdlib.zip"  # as npm installs it (make vendor)


@pytest.fixture(scope="module")
def full_stdlib():
    """Pyodide's whole standard library, as npm installs it."""
    if not PYODIDE_STDLIB.exists():
        pytest.fail(f"{PYODIDE_STDLIB.relative_to(ROOT)} is missing: make vendor (npm ci)")
    return PYODIDE_STDLIB


def pure_imports() -> set[str]:
    """Every module an import statement of the pack's Python names, anywhere (a function's too)."""
    from protocol.offline import stdlib

    found = set()
    for name, data in pack.members():
        if name.endswith(".py"):
            module = name.removesuffix(".py").replace("/", ".").removesuffix(".__init__")
            found |= stdlib.imports(data, module, name.endswith("/__init__.py"))
    return found


def test_the_list_holds_every_standard_module_the_pure_code_imports(full_stdlib):
    """What the rules, the entry forms, each game's pure part and the bridge import, followed
    through the standard library's own imports, is all in stdlib.txt; and nothing listed is
    missing from Pyodide's zip (the vendor rule would stop)."""
    from protocol.offline import stdlib

    with zipfile.ZipFile(full_stdlib) as archive:
        needed = stdlib.closure(pure_imports(), archive)
        listed = set(stdlib.listed())
        assert {"json", "dataclasses", "re", "random", "encodings", "typing"} <= needed
        assert needed - listed == set(), "add them to protocol/offline/stdlib.txt (then make vendor)"
        assert stdlib.members(sorted(listed), archive)  # every name is in Pyodide's zip
    assert {"pyodide", "_pyodide", "asyncio", "encodings.utf_8"} <= listed  # Pyodide's own start
    assert not {"email", "http", "unittest", "xml", "sqlite3", "pydoc"} & listed


def test_a_module_missing_from_the_list_is_noticed(full_stdlib):
    from protocol.offline import stdlib

    with zipfile.ZipFile(full_stdlib) as archive:
        needed = stdlib.closure({"json"}, archive)
    assert {"json", "json.decoder", "json.scanner", "json.encoder", "re", "re._parser"} <= needed
    assert "email" not in needed  # imported inside json's functions? no: nor anywhere in json


def test_imports_are_read_as_python_runs_them():
    from protocol.offline import stdlib

    source = b'''
from __future__ import annotations
import os.path, re as regex
from . import sibling
from ..up import thing
from typing import TYPE_CHECKING
if TYPE_CHECKING:
    import decimal
class Kept:
    import struct
def later():
    import email
'''
    runs = stdlib.imports(source, "pkg.sub.mod", False, in_functions=False)
    assert {"__future__", "os.path", "re", "pkg.sub", "pkg.sub.sibling", "pkg.up", "pkg.up.thing",
            "typing", "struct"} <= runs
    assert "decimal" not in runs and "email" not in runs
    assert {"decimal", "email"} <= stdlib.imports(source, "pkg.sub.mod", False)
    # a source of a newer Python than this one is read by its text (PEP 695: 3.12)
    newer = b"import heapq\ntype Pair = tuple[int, int]\ndef f[T](x: T) -> T:\n    import email\n    return x\n"
    assert stdlib.imports(newer, "m", False, in_functions=False) == {"heapq"}
    assert stdlib.imports(newer, "m", False) == {"heapq", "email"}


def test_a_slimmed_module_runs_as_before_on_the_same_lines():
    from protocol.offline import stdlib

    source = (b'# -*- coding: utf-8 -*-\n"""The module."""\n# a comment\nimport os  # why\n\n'
              b'def f():\n    """Says 1.\n\n    Long.\n    """\n    return 1  # one\n\n'
              b'TEXT = """\n# not a comment\n"""\n')
    slimmed = stdlib.slim(source)
    assert b"The module" not in slimmed and b"Says 1" not in slimmed and b"why" not in slimmed
    assert b"# not a comment" in slimmed and slimmed.startswith(b"# -*- coding: utf-8 -*-\n")
    assert slimmed.count(b"\n") == source.count(b"\n")  # a traceback names the same line
    scope = {}
    exec(compile(slimmed, "slim", "exec"), scope)
    assert scope["f"]() == 1 and scope["TEXT"] == "\n# not a comment\n"
    newer = b"type Pair = tuple[int, int]  # 3.12\n"
    assert stdlib.slim(newer) == newer  # not read by this Python: as it is


@pytest.fixture(scope="module")
def trimmed(tmp_path_factory, full_stdlib):
    """The trimmed standard library as the vendor rule writes it (seconds: each module slimmed)."""
    from protocol.offline import stdlib

    path = tmp_path_factory.mktemp("stdlib") / "python_stdlib.zip"
    stdlib.write(full_stdlib, path)
    return path


def test_the_trimmed_zip_is_the_same_bytes_each_time_and_holds_the_list(trimmed, tmp_path, full_stdlib):
    from protocol.offline import stdlib

    again = tmp_path / "again.zip"
    stdlib.write(full_stdlib, again)
    assert trimmed.read_bytes() == again.read_bytes()
    with zipfile.ZipFile(trimmed) as archive, zipfile.ZipFile(full_stdlib) as full:
        names = archive.namelist()
        assert names == sorted(names) == stdlib.members(stdlib.listed(), full)
        assert {(i.date_time, i.compress_type) for i in archive.infolist()} == {(stdlib.FIXED_TIME, zipfile.ZIP_STORED)}
        assert "email/__init__.py" not in names and "json/decoder.py" in names
    assert trimmed.stat().st_size < full_stdlib.stat().st_size


SERVED_STDLIB = ROOT / "static" / "vendor" / "pyodide" / "python_stdlib.zip"


def test_the_site_serves_the_trimmed_standard_library_compiled(trimmed):
    """static/vendor (make vendor) holds what the list gives, as bytecode: a list changed without
    the vendor rule run again would send the browser another standard library than the one
    tested. Each module is an unchecked hash-based .pyc (PEP 552) of one Python's magic."""
    from protocol.offline import stdlib

    assert stdlib.sources_of(SERVED_STDLIB) == stdlib.digest(trimmed), "static/vendor is older than the list: make vendor"
    with zipfile.ZipFile(trimmed) as sources, zipfile.ZipFile(SERVED_STDLIB) as served:
        assert served.namelist() == [name + "c" if name.endswith(".py") else name for name in sources.namelist()]
        assert {(i.date_time, i.compress_type) for i in served.infolist()} == {(stdlib.FIXED_TIME, zipfile.ZIP_STORED)}
        headers = {served.read(name)[:8] for name in served.namelist() if name.endswith(".pyc")}
    assert len(headers) == 1 and headers.pop()[4:] == (1).to_bytes(4, "little")


def test_the_compiled_standard_library_is_the_same_bytes_each_time(trimmed, tmp_path):
    """Compiled again (Pyodide's Python in node, seconds), the trimmed sources give the very bytes
    the site serves: the vendor rule is deterministic."""
    from protocol.offline import stdlib

    again = tmp_path / "compiled.zip"
    stdlib.compiled(trimmed, again)
    assert again.read_bytes() == SERVED_STDLIB.read_bytes()


def test_the_standard_library_is_compressed_for_the_wire_and_other_zips_are_not():
    from config.storage import _Compressor

    compressor = _Compressor(quiet=True)
    assert compressor.should_compress("vendor/pyodide/python_stdlib.zip")
    assert compressor.should_compress("vendor/pyodide/pyodide.asm.wasm")
    assert compressor.should_compress("vendor/pyodide/pyodide.asm.mjs")
    assert not compressor.should_compress("downloads/archive.zip")


def test_a_big_files_brotli_copy_is_made_once_and_kept(tmp_path, monkeypatch):
    """collectstatic compresses Pyodide's big files once (seconds to half a minute each); the
    next collectstatic takes the kept copy (config/storage.py)."""
    import hashlib

    import brotli

    from config import storage

    data = bytes(range(256)) * 64
    first = storage.kept_brotli(data, 11, kept=tmp_path)
    assert brotli.decompress(first) == data
    assert [path.name for path in tmp_path.iterdir()] == [f"{hashlib.sha256(data).hexdigest()}-q11.br"]
    monkeypatch.setattr(storage.brotli, "compress", lambda *args, **kwargs: pytest.fail("compressed again"))
    assert storage.kept_brotli(data, 11, kept=tmp_path) == first
    monkeypatch.undo()
    assert brotli.decompress(storage.kept_brotli(data, 10, kept=tmp_path)) == data  # another quality: its own
    assert len(list(tmp_path.iterdir())) == 2


def test_the_bridge_prepares_every_module_the_entry_pages_call():
    import sys

    from protocol import games

    prepared = bridge.prepare()
    assert "protocol.entry_form.state" in prepared
    for key in games.keys():
        assert f"{games.INSTALLED[key]}.entry_form" in prepared
    assert set(prepared) <= set(sys.modules)


def test_the_engine_asks_for_no_lock_file_and_names_the_vendored_pyodides_abi():
    """The engine hands Pyodide an empty package list instead of fetching its lock file
    (static/js/offline/engine.js); Pyodide refuses a list of another ABI, so a new Pyodide
    (make vendor) must come with the list's ``info`` brought along."""
    script = (ROOT / "static" / "js" / "offline" / "engine.js").read_text("utf-8")
    listed = json.loads(re.search(r"^const NO_PACKAGES = (\{.*\});$", script, re.MULTILINE).group(1))
    vendored = json.loads((ROOT / "static" / "vendor" / "pyodide" / "pyodide-lock.json").read_text("utf-8"))
    assert listed == {"info": vendored["info"], "packages": {}}
    assert "lockFileContents: NO_PACKAGES" in script


def test_the_pack_is_stored_for_brotli_to_pack_across_files():
    import brotli

    built = pack.build()
    with zipfile.ZipFile(io.BytesIO(built.data)) as archive:
        assert {info.compress_type for info in archive.infolist()} == {zipfile.ZIP_STORED}
    assert built.data == pack.build().data  # the same bytes each time: the same URL
    assert brotli.decompress(pack.brotli_copy()) == pack.current().data
    # less than one deflate stream per file gives (the pack as it was: about a third of the sources)
    assert len(pack.brotli_copy()) < len(pack.current().data) / 3
