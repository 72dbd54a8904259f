"""The offline pack's URLs: the rules pack by its hash, named on every page."""

import json
import re

import pytest

from protocol.offline import pack
from tests.integration.service_worker import worker_files


@pytest.mark.django_db
def test_every_page_names_the_current_rules_pack_and_it_is_served_for_a_year(client):
    html = client.get("/konto/login/").content.decode()
    url = re.search(r'<meta name="trumpfbuch-rules" content="([^"]+)">', html).group(1)
    assert url == f"/offline/{pack.current().filename}"
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    assert response.content == pack.current().data
    assert "immutable" in response["Cache-Control"] and "max-age=31536000" in response["Cache-Control"]


def test_the_rules_pack_goes_out_brotli_compressed_to_a_browser_that_takes_it(client):
    import brotli

    url = f"/offline/{pack.current().filename}"
    br = client.get(url, HTTP_ACCEPT_ENCODING="gzip, deflate, br, zstd")
    assert br["Content-Encoding"] == "br" and "Accept-Encoding" in br["Vary"]
    assert brotli.decompress(br.content) == pack.current().data
    assert len(br.content) < len(pack.current().data) / 3
    assert "immutable" in br["Cache-Control"]
    for refused in ("gzip", "gzip, br;q=0"):
        plain = client.get(url, HTTP_ACCEPT_ENCODING=refused)
        assert plain.get("Content-Encoding") != "br", refused
        assert "Accept-Encoding" in plain["Vary"]


def test_an_old_pack_is_gone(client):
    assert client.get("/offline/regeln-0000000000000000.zip").status_code == 404
    assert client.post(f"/offline/{pack.current().filename}").status_code == 405


@pytest.mark.django_db
def test_the_policy_allows_webassembly_and_never_eval(client):
    policy = client.get("/konto/login/")["Content-Security-Policy"]
    assert "'wasm-unsafe-eval'" in policy and "'unsafe-eval'" not in policy and "'unsafe-inline'" not in policy
    assert "worker-src 'self'" in policy


def test_the_service_worker_is_served_fresh_with_every_file_revisioned(client, settings):
    response = client.get("/sw.js")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "no-cache"
    script = response.content.decode()
    config = json.loads(script.split("const CONFIG = ", 1)[1].split(";\n", 1)[0])
    urls = {entry["url"]: entry["revision"] for entry in config["precache"]}
    assert len(worker_files(script)) == len(urls) + 5
    assert f"/offline/{pack.current().filename}" in urls
    assert {"/static/css/site.css", "/static/vendor/htmx/htmx.min.js", "/static/js/match.js",
            "/static/js/offline/engine.js", "/static/vendor/idb/index.js"} <= set(urls)
    assert None not in urls.values()
    assert config["pyodide"]["cache"].startswith("trumpfbuch-pyodide-") and len(config["pyodide"]["urls"]) == 5
    assert 'importScripts(CONFIG.workbox + "workbox-sw.js")' in script and "debug: false" in script


def test_a_changed_file_changes_its_revision(tmp_path, settings):
    from protocol.offline import precache

    (tmp_path / "css").mkdir()
    (tmp_path / "css" / "site.css").write_text("body { color: red }")
    settings.STATICFILES_DIRS = [tmp_path]
    first = precache.revision("css/site.css")
    (tmp_path / "css" / "site.css").write_text("body { color: blue }")
    assert precache.revision("css/site.css") != first


def test_the_manifest_names_the_app_in_german(client):
    response = client.get("/manifest.webmanifest")
    manifest = json.loads(response.content)
    assert response["Content-Type"].startswith("application/manifest+json")
    assert manifest["name"] == "Trumpfbuch" and manifest["display"] == "standalone" and manifest["lang"] == "de"
    assert {icon["sizes"] for icon in manifest["icons"]} == {"any", "192x192", "512x512"}


def test_a_file_that_is_not_there_is_left_out_of_the_precache(settings, tmp_path):
    from protocol.offline import precache

    settings.STATICFILES_DIRS = [tmp_path]  # no static files at all: no make vendor, nothing collected
    assert precache.revision("vendor/idb/index.js") is None
    assert [entry["url"] for entry in precache.entries()] == [f"/offline/{pack.current().filename}"]


def test_pyodide_goes_out_compressed_as_collectstatic_leaves_it(tmp_path, settings):
    """Outside DEBUG WhiteNoise serves the copies collectstatic compressed (config/storage.py):
    Brotli to a browser that takes it, gzip to one that takes only gzip, the file as it is
    otherwise; the standard library too, although a zip (written stored for this). The loader
    and the standard library stand for Pyodide's five files (the 9 MB WebAssembly takes seconds)."""
    import shutil

    from django.test import Client

    from config.storage import _Compressor
    from protocol.offline import precache

    folder = tmp_path / "vendor" / "pyodide"
    folder.mkdir(parents=True)
    names = ["pyodide.mjs", "python_stdlib.zip"]
    compressor = _Compressor(quiet=True)
    for name in names:
        shutil.copy(precache.source(f"{precache.PYODIDE}/{name}"), folder / name)
        assert compressor.should_compress(f"vendor/pyodide/{name}")
        compressor.compress(str(folder / name))
    settings.STATIC_ROOT = tmp_path
    client = Client()  # its WhiteNoise reads this STATIC_ROOT
    for name in names:
        url = f"/static/vendor/pyodide/{name}"
        plain = (folder / name).stat().st_size
        br = client.get(url, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
        gz = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
        raw = client.get(url, HTTP_ACCEPT_ENCODING="identity")
        assert br["Content-Encoding"] == "br" and int(br["Content-Length"]) < plain / 2, name
        assert gz["Content-Encoding"] == "gzip" and int(gz["Content-Length"]) < plain / 2, name
        assert "Content-Encoding" not in raw and int(raw["Content-Length"]) == plain, name
        assert "Accept-Encoding" in br["Vary"]


def test_a_file_whose_url_holds_its_hash_is_its_own_revision(monkeypatch):
    """Outside DEBUG collectstatic names each file by its hash: the worker takes it from the
    browser's HTTP cache (listed without a revision), where the page has just loaded it; the
    offline modules, imported by their plain names, keep theirs."""
    from protocol.offline import precache

    def hashed(name):
        stem, dot, ext = name.rpartition(".")
        return f"/static/{stem}.0123456789ab{dot}{ext}"

    monkeypatch.setattr(precache, "static", hashed)
    urls = {entry["url"]: entry["revision"] for entry in precache.entries()}
    assert urls["/static/css/site.0123456789ab.css"] is None
    assert urls["/static/js/offline/entry.0123456789ab.js"] is None
    assert urls["/static/js/offline/entry.js"] == precache.revision("js/offline/entry.js")
    assert "/static/css/site.css" not in urls
    assert urls[f"/offline/{pack.current().filename}"]
