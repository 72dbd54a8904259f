"""What the service worker fetches, read from its script."""

import json


def worker_files(worker_script: str) -> list[str]:
    """Every URL the service worker fetches: its precache list and Pyodide's files."""
    config = json.loads(worker_script.split("const CONFIG = ", 1)[1].split(";\n", 1)[0])
    return [entry["url"] for entry in config["precache"]] + config["pyodide"]["urls"]
