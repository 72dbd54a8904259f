"""The offline evening's moves in chromium, shared by the browser tests of the offline queue:
a page opened ready (its queue read and sent, the service worker in control, Pyodide kept),
the network dropped, a Spiel typed and kept on the phone."""

from tests.browser.conftest import choose_trump

SLOW = 120_000  # Pyodide's cold start on a loaded machine
# The service worker (o1: templates/offline/sw.js) controls the page, keeps it and Pyodide.
CONTROLLED = "() => navigator.serviceWorker.controller !== null"
KEPT = """async (path) => {
  const cache = await caches.open("trumpfbuch-pages");
  return Boolean(await cache.match(new URL(path, location.href).href, { ignoreVary: true }));
}"""
# Every Pyodide file in the worker's cache (the page asked it; it fetches what is missing).
PYODIDE_KEPT = "() => document.documentElement.dataset.engineKept === 'true'"

TWINS = [(5, 156, 6), (5, 156, 6), (0, 0, 0), (0, 0, 0)]  # Anna and Bernd +312 each
QUIET = [(3, 30, 1), (3, 30, 1), (2, 20, 1), (2, 20, 1)]
STRAFE = ("Carla", 200, "Karte verdeckt getauscht")



def second_tab(page):
    """Another tab of the same phone (the same cookies, the same IndexedDB)."""
    tab = page.context.new_page()
    tab.set_default_timeout(10_000)
    tab.base_url = page.base_url
    tab.on("pageerror", lambda exc: page.problems.append(str(exc)))
    return tab


def url(page, match, tail):
    return f"{page.base_url}/verein/{match.club.slug}/partien/{match.pk}/{tail}"


def open_ready(page, address, entry_page=True):
    """The page with its queue read and sent; the worker controls it and, from an entry page,
    keeps Pyodide (offline the engine starts from the worker's cache). The match page has no
    form: it hands over what waits (the engine starts there in the background, when idle)."""
    page.goto(address)
    page.wait_for_function("() => document.documentElement.dataset.offlineReady === 'true'", timeout=SLOW)
    page.wait_for_function(CONTROLLED, timeout=SLOW)
    if entry_page:
        page.wait_for_function(PYODIDE_KEPT, timeout=SLOW)


def go_offline(page):
    """The network drops: the engine is there (started when the page was idle), or starts now
    (Pyodide from the worker's cache)."""
    page.context.set_offline(True)
    page.wait_for_function("() => document.documentElement.dataset.engine === 'ready'", timeout=SLOW)


def waiting(page) -> int:
    return int(page.locator("[data-offline-bar]").get_attribute("data-waiting") or 0)


def wait_waiting(page, n):
    page.wait_for_function(f"() => document.querySelector('[data-offline-bar]').dataset.waiting === '{n}'",
                           timeout=SLOW)


def type_spiel(page, lines, trump="rank:A", inversion=None):
    choose_trump(page, trump)
    for seat, (tricks, points, trumps) in enumerate(lines):
        for field, value in (("tricks", tricks), ("points", points), ("trumps", trumps)):
            page.locator(f"input[name=p{seat}_{field}]").fill(str(value))
    if inversion:
        player, kind, target = inversion
        page.locator("summary", has_text="Inversionen").click()
        page.locator("select[name=inv0_player]").select_option(player)
        page.locator("select[name=inv0_declared]").select_option(kind)
        page.locator("select[name=inv0_target]").select_option(target)


def save_offline(page, n):
    page.get_by_role("button", name="Spiel speichern").click()
    wait_waiting(page, n)


def enter_strafe(page):
    """Carla's Strafe (STRAFE), decided by the three others, on the Strafe form."""
    page.get_by_label("Spieler", exact=True).select_option(STRAFE[0])
    page.get_by_label("Abzug in Punkten").fill(str(STRAFE[1]))
    page.get_by_label("Grund").fill(STRAFE[2])
    for name in ("Anna", "Bernd", "Dieter"):
        page.locator(f"input[name=decided_by][value={name}]").check()
    page.get_by_role("button", name="Eintragen").click()
