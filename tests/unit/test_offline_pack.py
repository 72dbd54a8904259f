"""The rules pack (protocol/offline/pack.py): the engine's source, deterministic, and the
bridge the browser calls (protocol/offline/bridge.py), run here in CPython."""

import io
import json
import re
import zipfile

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
