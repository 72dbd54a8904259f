"""What a phone sends around one save, counted in chromium from the tap on "Spiel speichern"
until the page is settled: the POST, answered with the match page itself, and nothing the user
does not need (no question whether the server is there before the POST, no second fetch of what the
landing page carries). A first visit fetches each page once: the service worker keeps the page
it is shown on from the browser's own copy, not by asking the server again."""

import json
import time
from urllib.parse import urlsplit

import pytest

from protocol.models import Event
from tests.browser.conftest import PHONE, log_in, watched_page
from tests.browser.offline import CONTROLLED, KEPT, QUIET, SLOW, go_offline, open_ready, save_offline, type_spiel, url
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

READY = "() => document.documentElement.dataset.offlineReady === 'true'"
# The engine started in the background once the page was idle (static/js/offline/warm.js): its
# files are then in the browser's caches, and the landing page's start only reads them there.
ENGINE_READY = "() => document.documentElement.dataset.engine === 'ready'"
POLL = "/blatt/"  # the state fragment the table follows (match.html: every 4 s)
# The document this phone keeps for the evening offline (static/js/offline/queue.js): its version
# and how many entries it holds.
KEPT_DOCUMENT = """(match) => new Promise((resolve, reject) => {
  const opening = indexedDB.open("trumpfbuch-offline");
  opening.onerror = reject;
  opening.onsuccess = () => {
    const asking = opening.result.transaction("documents").objectStore("documents").get(match);
    asking.onsuccess = () => resolve(asking.result ? [asking.result.version, asking.result.document.events.length] : null);
  };
})"""


# The page the service worker keeps for an address (templates/offline/sw.js), as text.
KEPT_PAGE = """async (path) => {
  const cache = await caches.open("trumpfbuch-pages");
  const kept = await cache.match(new URL(path, location.href).href, { ignoreVary: true });
  return kept ? kept.text() : null;
}"""


class Traffic:
    """Every request of the browser context that reached the network (the page's and the
    service worker's; an answer from the worker's cache is no request), in order."""

    def __init__(self, context):
        self.requests = []
        self.recording = False
        self.open = set()  # the requests under way
        self.last = time.monotonic()
        context.on("request", self._asked)
        context.on("requestfinished", self._seen)
        context.on("requestfailed", self._seen)

    def _asked(self, request):
        self.open.add(request)
        self.last = time.monotonic()

    def settled(self, page, quiet=1.0):
        """Wait until nothing has been under way for ``quiet`` seconds (the page's own idea of
        network idle is reached once, at its first load, and not waited for again)."""
        while self.open or time.monotonic() - self.last < quiet:
            page.wait_for_timeout(100)

    def _seen(self, request):
        self.open.discard(request)
        self.last = time.monotonic()
        if not self.recording:
            return
        response = request.response() if request.failure is None else None
        if response is not None and response.from_service_worker:
            return  # the worker answered it (from its cache, or by its own fetch, counted there)
        if request.failure is not None and request.redirected_from is not None:
            return  # the worker's POST leaves its redirect to the page (redirect: manual): not sent
        self.requests.append(request)

    def start(self):
        self.requests.clear()
        self.recording = True

    def stop(self):
        self.recording = False
        return list(self.requests)


def path(request) -> str:
    parts = urlsplit(request.url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def is_static(request) -> bool:
    return urlsplit(request.url).path.startswith("/static/")


def is_warm_start(request) -> bool:
    """Pyodide and the rules pack, which the engine's background start (static/js/offline/warm.js)
    asks for on the landing page once it is idle: not the save's; measured in bench/offline.py."""
    where = urlsplit(request.url).path
    return (where.startswith("/offline/regeln-") and where.endswith(".zip")) or where.startswith("/static/vendor/pyodide/")


def size(request) -> int:
    """Bytes over the wire both ways (a failed request: none counted; an answer from the
    browser's cache: its body is not, -1 or less)."""
    if request.failure is not None:
        return 0
    sizes = request.sizes()
    return sum(max(0, sizes[key]) for key in ("requestHeadersSize", "requestBodySize", "responseHeadersSize",
                                              "responseBodySize"))


def body(request) -> int:
    return 0 if request.failure is not None else max(0, request.sizes()["responseBodySize"])


def listed(requests) -> list[tuple[str, str]]:
    return [(request.method, path(request)) for request in requests if not is_static(request)]


def save_and_settle(page, traffic, table, warm=None):
    """Tap "Spiel speichern" and wait for the match page, its script done and the network quiet;
    the requests made meanwhile. Given a list ``warm``, waits also for the landing page's engine
    (its background start) and puts the requests of that start there."""
    type_spiel(page, QUIET, trump="colour:rot")
    page.locator("#preview table").wait_for()
    page.wait_for_function(ENGINE_READY, timeout=SLOW)
    traffic.settled(page)  # the live preview's answers are not the save's
    traffic.start()
    page.get_by_role("button", name="Spiel speichern").click()
    page.wait_for_url(url(page, table, ""), timeout=SLOW)
    page.wait_for_function(READY, timeout=SLOW)
    traffic.settled(page, quiet=1.5)  # and what a late script would still ask (the state poll waits 4 s)
    if warm is not None:
        page.wait_for_function(ENGINE_READY, timeout=SLOW)
        traffic.settled(page, quiet=0.5)
    # The state poll asks at its interval (4 s, test_the_state_poll_waits_its_interval_after_landing);
    # the engine's warm start may keep the network busy past it.
    requests = traffic.stop()
    if warm is not None:
        warm.extend(request for request in requests if is_warm_start(request))
    return [request for request in requests if not is_warm_start(request) and POLL not in request.url]


def assert_light(requests, table):
    """The POST alone, answered with the match page itself (no redirect to it, no second
    request), nothing else but the page's static files not in the browser's cache; at most 3x
    the requests and the bytes of the floor (the POST, its redirect and the page)."""
    match_page = table.get_absolute_url()
    assert listed(requests) == [("POST", f"{match_page}spiel/")], [(r.method, path(r)) for r in requests]
    post = next(r for r in requests if not is_static(r))
    answer = post.response()
    assert answer.status == 200 and answer.header_value("content-location") == match_page
    # A static file the page loaded before is only asked whether it changed (the test server
    # gives no lifetime; the site's hashed names are kept for a year): a bodiless 304.
    assert all(body(r) == 0 for r in requests if is_static(r)), \
        [(path(r), r.sizes()) for r in requests if is_static(r)]
    total = sum(size(request) for request in requests)
    assert total <= 3 * size(post), (total, size(post))
    assert len([r for r in requests if not is_static(r) or body(r)]) <= 3 * 2  # those that move a body
    assert Event.objects.filter(match=table).count() == 1


@pytest.fixture
def plain_phone(browser, live_server):
    """A phone whose browser runs no service worker (an insecure origin, a private window)."""
    page = watched_page(browser, live_server, viewport=PHONE, has_touch=True, service_workers="block")
    yield page
    page.context.close()


def test_a_save_on_the_spiel_form_is_one_post_answered_with_the_match_page(plain_phone, table):
    page = plain_phone
    traffic = Traffic(page.context)
    log_in(page, "bernd", PASSWORD)
    page.goto(url(page, table, "spiel/"))
    page.wait_for_function(READY, timeout=SLOW)
    requests = save_and_settle(page, traffic, table)
    assert_light(requests, table)
    assert page.get_by_text("Das Spiel ist gespeichert.").is_visible()
    # its links lead where they say (relative to the match page, not to the form it answered)
    correct = page.locator('a[href="eintrag/0/korrigieren/"]').first
    assert correct.evaluate("(link) => link.href") == url(page, table, "eintrag/0/korrigieren/")
    # shown at the match page's address: a reload asks for the page, it does not send the Spiel again
    traffic.start()
    page.reload()
    page.wait_for_function(READY, timeout=SLOW)
    assert listed(traffic.stop()) == [("GET", table.get_absolute_url())]
    assert page.url == url(page, table, "") and Event.objects.filter(match=table).count() == 1
    assert page.problems == []


def test_a_save_on_the_offline_ready_spiel_form_is_one_post_answered_with_the_match_page(phone, table):
    page = phone
    traffic = Traffic(page.context)
    log_in(page, "bernd", PASSWORD)
    open_ready(page, url(page, table, "spiel/"))
    warm = []
    requests = save_and_settle(page, traffic, table, warm)
    assert_light(requests, table)
    # The assets came from the worker's precache: nothing static went to the network.
    assert [path(r) for r in requests if is_static(r)] == []
    # The landing page's engine started from what the phone keeps: Pyodide from the worker's
    # cache (no request), the rules pack (immutable) at most from the browser's own cache: no byte.
    assert [path(r) for r in warm if is_static(r)] == []
    assert [(path(r), r.sizes()) for r in warm if body(r) or r.failure] == []
    # The document kept for the evening offline is the one just saved (the page's newest entry
    # appended), so a Spiel typed offline now goes on from Spiel 2.
    table.refresh_from_db()
    assert page.evaluate(KEPT_DOCUMENT, table.pk) == [table.version, 1]
    assert page.get_by_text("Das Spiel ist gespeichert.").is_visible()
    # The worker kept the answer as the match page for the evening offline, as its GET would have been.
    kept = page.evaluate(KEPT_PAGE, table.get_absolute_url())
    assert kept is not None and 'rel="canonical"' in kept and "Spiel 2" in kept
    assert page.problems == []


def test_the_spiel_form_after_a_save_carries_no_document_and_works_offline(phone, table):
    """The next Spiel's form, opened from the match page the save landed on: the phone keeps the
    document of that version (its cookie says so), so the page carries none and nothing is
    fetched for it; the network gone, the engine checks the next Spiel on the kept document."""
    page = phone
    log_in(page, "bernd", PASSWORD)
    open_ready(page, url(page, table, "spiel/"))
    type_spiel(page, QUIET, trump="colour:rot")
    page.get_by_role("button", name="Spiel speichern").click()
    page.wait_for_url(url(page, table, ""), timeout=SLOW)
    page.wait_for_function(READY, timeout=SLOW)
    fetched = []
    page.context.on("request", lambda request: fetched.append(path(request)) if "/eintraege/" in request.url else None)
    page.goto(url(page, table, "spiel/"))
    page.wait_for_function(READY, timeout=SLOW)
    carried = json.loads(page.locator("#offline-data").text_content())
    table.refresh_from_db()
    assert carried["version"] == table.version and "document" not in carried and "last" not in carried
    assert page.evaluate(KEPT_DOCUMENT, table.pk) == [table.version, 1]
    assert fetched == []
    go_offline(page)
    type_spiel(page, QUIET, trump="colour:rot")
    page.locator("#preview table").wait_for(timeout=SLOW)
    save_offline(page, 1)
    assert page.locator("h1").inner_text() == "Spiel 3"  # on top of the Spiel saved online
    assert page.problems == []


def test_the_state_poll_waits_its_interval_after_landing(phone, table):
    page = phone
    polls = []
    page.context.on("request", lambda request: polls.append(request.url) if POLL in request.url else None)
    log_in(page, "bernd", PASSWORD)
    open_ready(page, url(page, table, "spiel/"))
    type_spiel(page, QUIET, trump="colour:rot")
    page.get_by_role("button", name="Spiel speichern").click()
    page.wait_for_url(url(page, table, ""), timeout=SLOW)  # the landing page's load event
    page.wait_for_timeout(2_500)
    assert polls == []
    page.wait_for_timeout(3_000)  # then it asks, every 4 s
    assert polls


def test_a_first_visit_fetches_each_page_once(phone, table):
    page = phone
    traffic = Traffic(page.context)
    match_page = table.get_absolute_url()
    page.goto(f"{page.base_url}/konto/login/?next={match_page}")
    page.get_by_label("Benutzername").fill("bernd")
    page.get_by_label("Passwort").fill(PASSWORD)
    traffic.start()
    page.get_by_role("button", name="Anmelden").click()
    page.wait_for_url(url(page, table, ""))
    page.wait_for_function(READY, timeout=SLOW)
    page.wait_for_function(CONTROLLED, timeout=SLOW)
    page.wait_for_function(KEPT, arg=match_page, timeout=SLOW)  # kept for the evening offline
    traffic.settled(page, quiet=1.5)
    requests = traffic.stop()
    # Each file's bytes come once: the worker's precache asks only whether what the page has
    # just loaded changed (a bodiless 304), and keeps the page from the browser's copy.
    moved = [path(request) for request in requests if body(request)]
    assert len(moved) == len(set(moved)), sorted(moved)
    pages = [path(r) for r in requests if not is_static(r) and r.method == "GET"]
    assert pages.count(match_page) <= 2 and [path(r) for r in requests if body(r)].count(match_page) == 1, pages
    assert f"{match_page}eintraege/" not in pages  # the page carries what the phone needs
    assert page.problems == []
