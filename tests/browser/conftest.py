"""Browser tests: Debian's chromium driven by Playwright against the live test server."""

import datetime
import os
import shutil

import pytest

from league.models import Member
from protocol import services

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]
PHONE = {"width": 390, "height": 844}

@pytest.fixture(scope="session")
def browser():
    # Playwright's sync API runs an event loop in this thread; the test's own ORM calls
    # are safe. Only while the browser tests run: it must never leak into a deployment.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        yield from _launch()
    finally:
        del os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"]


def _launch():
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"chromium not found at {CHROMIUM}: apt-get install chromium (.ci/run does it)")
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield browser
        browser.close()


@pytest.fixture(autouse=True)
def _patient_service_worker(settings):
    """A test server on a busy machine may take longer than the service worker's 3 s before
    it shows a kept page: the tests want the server's answer, not the kept one."""
    settings.OFFLINE_NETWORK_TIMEOUT = 30


def _phone(browser, live_server):
    """A phone of its own: a browser context with its own cookies, storage and service worker."""
    context = browser.new_context(viewport=PHONE, locale="de-DE", has_touch=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.base_url = live_server.url
    problems = []
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    page.on("console", lambda msg: problems.append(msg.text) if msg.type == "error" else None)
    page.on("response", lambda r: problems.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    page.problems = problems
    return page


@pytest.fixture
def phone(browser, live_server):
    page = _phone(browser, live_server)
    yield page
    page.context.close()


@pytest.fixture
def second_phone(browser, live_server):
    """Another phone at the same table (another player's, or the secretary's)."""
    page = _phone(browser, live_server)
    yield page
    page.context.close()


def log_in(page, username, password):
    page.goto(page.base_url + "/konto/login/")
    page.get_by_label("Benutzername").fill(username)
    page.get_by_label("Passwort").fill(password)
    page.get_by_role("button", name="Anmelden").click()


def choose_trump(page, code):
    """Tap the trump button of ``code`` ("rank:A", "suit:Kreuz", "colour:rot") on the Spiel form."""
    page.locator(f"label[data-trump='{code}']").click()


@pytest.fixture
def table(club, scorekeeper, member_user, secretary):
    """A running Chaotentrumpf Partie of Anna, Bernd (the Protokollant), Carla and Dieter, dated today
    (the offline tests)."""
    members = {m.name: m for m in club.members.all()}
    for name in ("Carla", "Dieter"):
        members[name] = Member.objects.create(club=club, name=name)
    return services.create_match(club=club, date=datetime.date.today(), place="Nürtingen",
                                 members=[members[n] for n in ("Anna", "Bernd", "Carla", "Dieter")],
                                 scorekeeper=members["Bernd"], settings={}, user=secretary)


@pytest.fixture
def axe_violations():
    """``axe_violations(page)``: the serious and critical axe-core violations of the page now
    (axe-core from node_modules, injected: the page's context needs ``bypass_csp=True``)."""
    from pathlib import Path

    axe = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
    if not axe.exists():
        pytest.fail(f"axe-core is not installed at {axe}: run `make test-tools` (npm ci)")
    run = """async () => {
      const result = await axe.run(document, {resultTypes: ['violations']});
      return result.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                                         nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}));
    }"""

    def violations(page):
        page.add_script_tag(path=str(axe))
        return [v for v in page.evaluate(run) if v["impact"] in ("serious", "critical")]

    return violations
