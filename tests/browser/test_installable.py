"""The installable app: the manifest and its icons, the service worker, the pages a
Protokollant needs opening again without network, the engine offline, the strict CSP."""

import struct

import pytest
from playwright.sync_api import Error as PlaywrightError

from protocol.models import Match
from tests.browser.conftest import log_in
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CONTROLLED = "() => navigator.serviceWorker.controller !== null"
KEPT = """async (path) => {
  const cache = await caches.open("trumpfbuch-pages");
  return Boolean(await cache.match(new URL(path, location.href).href, { ignoreVary: true }));
}"""
ENGINE = """async () => {
  const { loadEngine } = await import("/static/js/offline/engine.js");
  const engine = await loadEngine();
  return engine.call("protocol.rules.vocabulary", "number", -44);
}"""
PYODIDE_KEPT = """async () => {
  const names = (await caches.keys()).filter((n) => n.startsWith("trumpfbuch-pyodide-"));
  return names.length === 1 && (await (await caches.open(names[0])).keys()).length === 5;
}"""


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_the_manifest_is_german_json_with_reachable_icons(phone):
    page = phone
    page.goto(page.base_url + "/konto/login/")
    href = page.locator("link[rel=manifest]").get_attribute("href")
    response = page.request.get(page.base_url + href)
    assert response.ok and response.headers["content-type"].startswith("application/manifest+json")
    manifest = response.json()
    assert manifest["name"] == "Trumpfbuch" and manifest["lang"] == "de" and manifest["display"] == "standalone"
    assert manifest["start_url"] == "/" and manifest["theme_color"].startswith("#")
    sizes = set()
    for icon in manifest["icons"]:
        image = page.request.get(page.base_url + icon["src"])
        assert image.ok, icon
        if icon["type"] == "image/png":
            width, height = png_size(image.body())
            assert icon["sizes"] == f"{width}x{height}"
            sizes.add(width)
        else:
            assert b"<svg" in image.body()
    assert sizes == {192, 512}
    assert page.problems == []


def test_a_match_page_opened_once_opens_again_without_network(phone, running_match, club):
    page = phone
    page.set_default_timeout(60_000)
    log_in(page, "bernd", PASSWORD)
    match_url = running_match.get_absolute_url()
    response = page.goto(page.base_url + match_url)
    policy = response.headers["content-security-policy"]
    assert "'wasm-unsafe-eval'" in policy and "'unsafe-eval'" not in policy and "'unsafe-inline'" not in policy
    page.wait_for_function(CONTROLLED)
    page.wait_for_function(KEPT, arg=match_url)  # the first visit, shown before the worker took control
    new_url = f"/verein/{club.slug}/partien/neu/"  # kept without being opened: the club's "Neue Partie"
    page.goto(page.base_url + match_url + "spiel/")
    assert page.evaluate(ENGINE) == "−44"  # the engine online, once: the worker keeps Pyodide
    page.wait_for_function(PYODIDE_KEPT)
    for path in (new_url, match_url + "spiel/"):
        page.wait_for_function(KEPT, arg=path)

    # The table loses its network; what the server says now is not seen.
    Match.objects.filter(pk=running_match.pk).update(place="Ein anderer Ort")
    page.context.set_offline(True)
    page.goto(page.base_url + match_url)
    assert "Nürtingen" in page.content() and "Ein anderer Ort" not in page.content()
    page.goto(page.base_url + new_url)
    assert page.get_by_role("button", name="Partie beginnen").is_visible()
    page.goto(page.base_url + match_url + "spiel/")
    assert page.evaluate(ENGINE) == "−44"  # Pyodide and the rules pack from the worker's caches
    with pytest.raises(PlaywrightError, match="net::ERR_"):  # the login page is never kept
        page.goto(page.base_url + "/konto/login/")
    page.context.set_offline(False)
    page.problems.clear()


def kept_match_page(page, match) -> str:
    """Bernd opens the match page under the service worker until it is kept; its address."""
    log_in(page, "bernd", PASSWORD)
    match_url = match.get_absolute_url()
    page.goto(page.base_url + match_url)
    page.wait_for_function(CONTROLLED)
    page.wait_for_function(KEPT, arg=match_url)
    return match_url


def test_logging_out_drops_the_kept_pages(phone, running_match):
    page = phone
    match_url = kept_match_page(page, running_match)
    page.get_by_role("button", name="Abmelden").click()
    page.wait_for_load_state()
    # The worker drops the kept pages when it sees the logout's POST: wait for it, a few seconds at
    # most (the public overview after logout may be kept).
    page.wait_for_function(f"async (path) => !(await ({KEPT})(path))", arg=match_url, timeout=10_000)
    assert page.evaluate(KEPT, match_url) is False
    page.context.set_offline(True)
    with pytest.raises(PlaywrightError, match="net::ERR_"):
        page.goto(page.base_url + match_url)
    page.context.set_offline(False)
    page.problems.clear()


def test_another_user_on_the_same_browser_finds_none_of_the_pages_kept_before(phone, running_match):
    page = phone
    match_url = kept_match_page(page, running_match)
    page.context.clear_cookies()  # Bernd's session ended without a logout
    log_in(page, "anna", PASSWORD)
    page.wait_for_function(f"async () => !(await ({KEPT})({match_url!r}))")
