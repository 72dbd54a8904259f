"""``python -m protocol.rules check FILE``: the rules engine's own command line, without Django.

A club secretary (or a federation's script) checks a file on a machine with nothing but
Python: the answer and the exit status are those of ``manage.py check_protocol``.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"

# The child checks the file as ``python -m protocol.rules`` does, then tells on stderr
# whether anything of Django was imported on the way.
CHILD = """
import runpy, sys
try:
    runpy.run_module("protocol.rules", run_name="__main__", alter_sys=True)
finally:
    sys.stderr.write("\\nDJANGO:" + str(sorted(m for m in sys.modules if m.split(".")[0] == "django")))
"""


def run_rules(*args, env=None):
    return subprocess.run([sys.executable, "-m", "protocol.rules", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, env=env)


def run_manage(path, *options, env=None):
    return subprocess.run([sys.executable, "manage.py", "check_protocol", *options, str(path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60, env=env)


# ``manage.py check_protocol FILE`` hands the file to the engine's command line; with any
# option (here ``--no-color``, which changes nothing in JSON) Django's command answers.
@pytest.mark.parametrize("options", [(), ("--no-color",)], ids=["engine-alone", "django-command"])
@pytest.mark.parametrize("name", ["first-spiel.json", "stechen.json", "spec-example.json", "invalid.json",
                                  "not-json.json", "does-not-exist.json"])
def test_it_answers_exactly_as_manage_py_check_protocol(name, options):
    own, site = run_rules("check", str(DATA / name)), run_manage(DATA / name, *options)
    assert (own.returncode, own.stdout, own.stderr) == (site.returncode, site.stdout, site.stderr)
    assert own.returncode == {"invalid.json": 1, "not-json.json": 2, "does-not-exist.json": 2}.get(name, 0)


def test_a_valid_protocol_exits_0_with_the_computed_match():
    done = run_rules("check", str(DATA / "stechen.json"))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    (stechen,) = out["tiebreaks"]
    assert out["status"] == "finished" and out["winner"] == stechen["winner"] == "Bernd"


def test_a_protocol_that_breaks_rules_exits_1_naming_each_error_and_its_article():
    done = run_rules("check", str(DATA / "invalid.json"))
    assert done.returncode == 1
    errors = json.loads(done.stdout)["errors"]
    assert (0, "Anna", "points") in {(e["event"], e["player"], e["field"]) for e in errors}
    assert all("Art." in e["message"] or "SV" in e["message"] for e in errors)


def test_an_unreadable_file_exits_2_with_a_german_line_and_no_traceback():
    done = run_rules("check", str(DATA / "not-json.json"))
    assert done.returncode == 2 and done.stdout == ""
    assert "kein gültiges JSON" in done.stderr and "Traceback" not in done.stderr


def test_without_a_command_it_shows_its_usage_and_exits_2():
    done = run_rules()
    assert done.returncode == 2 and "check" in done.stderr


@pytest.mark.parametrize("name, status", [("first-spiel.json", 0), ("invalid.json", 1), ("not-json.json", 2)])
def test_it_imports_nothing_of_django(name, status):
    done = subprocess.run([sys.executable, "-c", CHILD, "check", str(DATA / name)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == status, done.stderr
    assert done.stderr.rstrip().endswith("DJANGO:[]"), done.stderr


def test_it_runs_where_django_is_not_installed(tmp_path):
    # A "django" that breaks on import stands first on the path: the check must not notice.
    (tmp_path / "django").mkdir()
    (tmp_path / "django" / "__init__.py").write_text("raise ImportError('no Django here')\n")
    env = os.environ | {"PYTHONPATH": str(tmp_path)}
    done = run_rules("check", str(DATA / "first-spiel.json"), env=env)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["games"][0]["shuffler"] == "Bernd"


def test_manage_py_check_protocol_starts_no_django(tmp_path):
    # The secretary's check costs what the engine costs: a broken "django" first on the path
    # goes unnoticed, while any other manage.py command needs it.
    (tmp_path / "django").mkdir()
    (tmp_path / "django" / "__init__.py").write_text("raise ImportError('no Django here')\n")
    env = os.environ | {"PYTHONPATH": str(tmp_path)}
    done = run_manage(DATA / "stechen.json", env=env)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["winner"] == "Bernd"
    assert "no Django here" in run_manage(DATA / "stechen.json", "--no-color", env=env).stderr
