"""The engine is there when the network drops, starts offline every time, and speaks the
page's language.

- The match page and an entry page start the engine in the background once they are idle
  (static/js/offline/warm.js): the first check after the network drops answers at once, not
  after Pyodide's start; also on an entry page opened without network.
- An entry page opened once online: the service worker holds every Pyodide file (the page asked
  it, it fetched what was missing, the page said "Offline-Modus bereit"), so that the engine
  starts offline, reload after reload.
- On an English page the engine's rule errors offline read as the site's online: English, with
  their article (the rules pack carries the en catalogue; protocol/offline/bridge.py).
"""


import pytest

from tests.browser.conftest import PHONE, choose_trump, log_in
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SLOW = 180_000  # Pyodide's download and cold start on a loaded machine
READY = "() => document.documentElement.dataset.offlineReady === 'true'"
KEPT = "() => document.documentElement.dataset.engineKept === 'true'"
CONTROLLED = "() => navigator.serviceWorker.controller !== null"
# The engine started on the page as entry.js does (offline: Pyodide from the worker's cache only).
START = """async () => {
  const { loadEngine } = await import("/static/js/offline/engine.js");
  const engine = await loadEngine();
  return engine.call("protocol.rules.words", "N_", "Stechen entschieden (Art. 17b)");
}"""
PYODIDE_FILES = """async () => {
  const names = (await caches.keys()).filter((n) => n.startsWith("trumpfbuch-pyodide-"));
  return names.length === 1 ? (await (await caches.open(names[0])).keys()).length : -names.length;
}"""
QUIET = [(3, 30, 1), (3, 30, 1), (2, 20, 1), (2, 20, 1)]



def entry_page(page, match):
    return f"{page.base_url}/verein/{match.club.slug}/partien/{match.pk}/spiel/"


def open_online(page, address):
    """The entry page online, as a Protokollant opens it: nothing started by the test."""
    page.goto(address)
    page.wait_for_function(READY, timeout=SLOW)
    page.wait_for_function(CONTROLLED, timeout=SLOW)
    page.wait_for_function(KEPT, timeout=SLOW)


def test_the_engine_starts_offline_after_one_visit_without_warming(phone, table):
    page = phone
    log_in(page, "bernd", PASSWORD)
    page.goto(entry_page(page, table))  # the first visit: the worker installs, takes control
    page.wait_for_function(CONTROLLED, timeout=SLOW)
    open_online(page, entry_page(page, table))
    assert page.evaluate(PYODIDE_FILES) == 5
    assert "Offline-Modus bereit" in page.locator("[data-offline-note]").inner_text()

    page.context.set_offline(True)
    for _ in range(3):  # reload after reload without network: Pyodide from the worker's cache
        page.reload()
        page.wait_for_function(READY, timeout=SLOW)
        assert page.evaluate(START) == "Stechen entschieden (Art. 17b)"
        assert page.evaluate(PYODIDE_FILES) == 5
    page.context.set_offline(False)


ENGINE_READY = "() => document.documentElement.dataset.engine === 'ready'"
# How often this page has fetched Pyodide's WebAssembly (from the network or the worker's
# cache): a check that had to start the engine would fetch it again.
PYODIDE_STARTS = """() => performance.getEntriesByType("resource")
  .filter((entry) => entry.name.includes("/vendor/pyodide/pyodide.asm.wasm")).length"""
WAITING_ONE = "() => document.querySelector('[data-offline-bar]').dataset.waiting === '1'"


def type_quiet_spiel(page):
    choose_trump(page, "colour:rot")
    for seat, (tricks, points, trumps) in enumerate(QUIET):
        for field, value in (("tricks", tricks), ("points", points), ("trumps", trumps)):
            page.locator(f"input[name=p{seat}_{field}]").fill(str(value))


def test_the_first_check_after_the_network_drops_answers_at_once(phone, table):
    page = phone
    log_in(page, "bernd", PASSWORD)
    page.goto(entry_page(page, table))  # the first visit: the worker installs, takes control
    page.wait_for_function(CONTROLLED, timeout=SLOW)
    open_online(page, entry_page(page, table))  # Pyodide kept by the worker
    # The match page, open and idle: the engine starts there in the background (no form, no drop).
    page.goto(f"{page.base_url}/verein/{table.club.slug}/partien/{table.pk}/")
    page.wait_for_function(READY, timeout=SLOW)
    page.wait_for_function(ENGINE_READY, timeout=SLOW)
    # An entry page opened without network, nothing typed, nothing waiting: the engine starts too.
    page.context.set_offline(True)
    page.goto(entry_page(page, table))
    page.wait_for_function(READY, timeout=SLOW)
    page.wait_for_function(ENGINE_READY, timeout=SLOW)
    page.context.set_offline(False)
    # The Spiel page, opened online and idle, the Spiel typed: the network drops, the Protokollant saves.
    open_online(page, entry_page(page, table))
    page.wait_for_function(ENGINE_READY, timeout=SLOW)
    type_quiet_spiel(page)  # online: nothing asks the engine yet
    started = page.evaluate(PYODIDE_STARTS)
    assert started >= 1  # started while the page was idle
    page.context.set_offline(True)
    page.locator("main form button[type=submit]").click()
    page.wait_for_function(WAITING_ONE, timeout=SLOW)
    # The check ran on the engine already started: Pyodide's start alone takes seconds (how
    # fast the first check answers is a figure of make bench, bench/offline.py).
    assert page.evaluate(PYODIDE_STARTS) == started
    page.context.set_offline(False)


def test_a_lost_pyodide_file_is_fetched_again_before_the_page_says_ready(phone, table):
    page = phone
    log_in(page, "bernd", PASSWORD)
    page.goto(entry_page(page, table))
    page.wait_for_function(CONTROLLED, timeout=SLOW)
    open_online(page, entry_page(page, table))
    page.evaluate("""async () => {
      const name = (await caches.keys()).find((n) => n.startsWith("trumpfbuch-pyodide-"));
      const cache = await caches.open(name);
      for (const request of await cache.keys()) if (!request.url.endsWith("/pyodide.mjs")) await cache.delete(request);
    }""")
    assert page.evaluate(PYODIDE_FILES) == 1  # as seen in the field: pyodide.mjs only
    open_online(page, entry_page(page, table))
    assert page.evaluate(PYODIDE_FILES) == 5
    page.context.set_offline(True)
    page.reload()
    page.wait_for_function(READY, timeout=SLOW)
    assert page.evaluate(START) == "Stechen entschieden (Art. 17b)"
    page.context.set_offline(False)


def rule_error(page, online):
    """Type a Spiel in which Carla has Augen without a Stich (Art. 13a) and save it: the
    messages the page shows at the fields."""
    choose_trump(page, "rank:A")
    for seat, (tricks, points, trumps) in enumerate(QUIET):
        for field, value in (("tricks", tricks), ("points", points), ("trumps", trumps)):
            page.locator(f"input[name=p{seat}_{field}]").fill(str(value))
    page.locator("input[name=p2_tricks]").fill("0")
    save = page.locator("main form button[type=submit]").last
    if online:  # the server answers with the page and its errors
        with page.expect_navigation():
            save.click()
    else:  # the engine in the browser marks the fields, the page stays
        save.click()
    page.locator(".errorlist li").first.wait_for(timeout=60_000)
    return sorted(page.locator(".errorlist li").all_inner_texts())


def test_an_english_page_offline_shows_the_rule_error_as_online(browser, live_server, table):
    context = browser.new_context(viewport=PHONE, locale="en-GB", has_touch=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.base_url = live_server.url
    try:
        page.goto(live_server.url + "/konto/login/")
        page.locator("input[name=username]").fill("bernd")
        page.locator("input[name=password]").fill(PASSWORD)
        with page.expect_navigation():
            page.locator("input[name=password]").press("Enter")
        page.goto(entry_page(page, table))
        page.wait_for_function(CONTROLLED, timeout=SLOW)
        open_online(page, entry_page(page, table))
        assert page.evaluate("() => document.documentElement.lang").startswith("en")
        online = rule_error(page, online=True)  # the server's answer (the page reloads with the error)
        assert any("Art. 13a" in message and "Carla" in message for message in online), online

        open_online(page, entry_page(page, table))
        page.context.set_offline(True)
        page.reload()
        page.wait_for_function(READY, timeout=SLOW)
        offline = rule_error(page, online=False)  # the engine's answer in the browser
        assert offline == online
        assert page.locator("[data-offline-bar]").get_attribute("data-waiting") == "0"
        page.context.set_offline(False)
    finally:
        context.close()
