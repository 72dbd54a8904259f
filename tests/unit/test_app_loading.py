"""Loading the apps imports nothing heavy: every process pays for what app loading imports
(each web worker, the check command that a secretary runs on a file), so the spreadsheet,
PDF and chart libraries load where they are used: a job that writes a workbook, the view
that prints a sheet."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("openpyxl", "weasyprint", "matplotlib")

PROBE = """
import json, os, sys
os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
import django
django.setup()
{extra}
print(json.dumps(sorted({{name.split(".")[0] for name in sys.modules}})))
"""


def loaded(extra: str = "") -> set[str]:
    out = subprocess.run([sys.executable, "-c", PROBE.format(extra=extra)], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    return set(json.loads(out.splitlines()[-1]))


def test_loading_the_apps_imports_no_spreadsheet_pdf_or_chart_library():
    assert loaded() & set(HEAVY) == set()


def test_the_check_command_loads_without_them():
    extra = "from django.core.management import load_command_class\nload_command_class('protocol', 'check_protocol')"
    assert loaded(extra) & set(HEAVY) == set()


def test_the_probe_sees_a_library_once_it_is_imported():
    assert "openpyxl" in loaded("import league.spreadsheets.exports")


WORKER = """
import gc, json, sys
import config.wsgi
print(json.dumps({"frozen": gc.get_freeze_count(), "views": "protocol.views.matches" in sys.modules,
                  "heavy": sorted({name.split(".")[0] for name in sys.modules} & set(sys.argv[1:]))}))
"""


def test_a_web_worker_starts_with_its_views_loaded_and_kept_from_the_collector():
    """A worker (gunicorn config.wsgi) loads the views before its first request and freezes what
    it loaded, so that no collection of the oldest generation walks the app's objects in the
    middle of a request; the heavy libraries still wait for the request that uses them."""
    out = subprocess.run([sys.executable, "-c", WORKER, *HEAVY], cwd=ROOT, check=True, capture_output=True, text=True).stdout
    worker = json.loads(out.splitlines()[-1])
    assert worker["views"] and worker["heavy"] == []
    assert worker["frozen"] > 50_000  # the app's modules, not a handful of objects
