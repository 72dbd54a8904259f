"""The rules pack (protocol/offline/pack.py): the engine's source, deterministic, and the
bridge the browser calls (protocol/offline/bridge.py), run here in CPython."""

import io
import json
import zipfile

from protocol.offline import bridge, pack
from tests.unit.test_layers import PROTOCOL, offences


def test_the_pack_holds_the_rules_and_the_bridge_and_nothing_of_django():
    names = zipfile.ZipFile(io.BytesIO(pack.build().data)).namelist()
    assert names == sorted(names)
    assert {"protocol/__init__.py", "protocol/rules/__init__.py", "protocol/rules/check.py",
            "protocol/offline/__init__.py", "protocol/offline/bridge.py"} <= set(names)
    assert not [n for n in names if not n.endswith(".py") or "__pycache__" in n]
    assert not [n for n in names if n.startswith("protocol/offline/") and n.split("/")[-1]
                not in ("__init__.py", "bridge.py")]
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
        return module.startswith(("protocol.rules", "protocol.entries")) or (
            top in sys.stdlib_module_names and top != "protocol")

    assert [o for o in offences(PROTOCOL / "offline", allowed) if o.startswith("protocol/offline/bridge.py")] == []


def test_the_bridge_answers_json_and_refuses_what_is_not_the_engine():
    with open("tests/data/invalid.json", encoding="utf-8") as file:
        document = json.load(file)
    answer = json.loads(bridge.call("protocol.rules.check", "evaluate_document", json.dumps([document])))
    assert any("Art. 16a" in error["message"] for error in answer["value"]["errors"])
    assert "gehört nicht" in json.loads(bridge.call("os", "getcwd", "[]"))["error"]
    assert "zu tief" in json.loads(bridge.call("protocol.rules.vocabulary", "number", "[" * 50 + "]" * 50))["error"]
