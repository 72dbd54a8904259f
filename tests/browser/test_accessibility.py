"""axe-core over every page the phone-widths walk visits: no serious or critical violation.

axe-core comes from npm (package.json, package-lock.json; `make test` installs it with `npm ci`
into node_modules) and is injected into each page by Playwright: nothing is fetched at run time.
The pages run under a strict Content-Security-Policy; the walk's browser context lets the
injected script in (``bypass_csp``), the pages themselves are unchanged.
"""

import json
from pathlib import Path

import pytest
from django.urls import reverse

from protocol import confirmations
from tests.browser.conftest import log_in
from tests.browser.eight_players import pages_for
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
SERIOUS = ("serious", "critical")
RUN_AXE = """async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                                     nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}));
}"""


def violations(page):
    page.add_script_tag(path=str(AXE))
    return [v for v in page.evaluate(RUN_AXE) if v["impact"] in SERIOUS]


def walk(browser, live_server, username, urls) -> list[str]:
    """Every serious or critical violation on ``urls`` for ``username`` (None: a visitor), at 360 px."""
    context = browser.new_context(viewport={"width": 360, "height": 780}, locale="de-DE", has_touch=True,
                                  bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.base_url = live_server.url
    if username:
        log_in(page, username, PASSWORD)
    found = []
    for name, url in urls:
        page.goto(live_server.url + url)
        for violation in violations(page):
            found.append(f"{name} {url}: {json.dumps(violation, ensure_ascii=False)}")
    context.close()
    return found


@pytest.mark.parametrize("persona,username", [("secretary", "schriftfuehrer"), ("member", "anna"), ("anonymous", None)])
def test_no_page_has_a_serious_accessibility_violation(browser, live_server, eight_world, persona, username):
    if not AXE.exists():
        pytest.fail(f"axe-core is not installed at {AXE}: run `make test-tools` (npm ci)")
    urls = list(pages_for(persona, eight_world))
    if username:  # the finished-looking pages too: a plain Partie, the entry page, the signatures
        urls.append(("plain match", eight_world["plain"].get_absolute_url()))
    else:
        urls.append(("login", reverse("login")))
    found = walk(browser, live_server, username, urls)
    assert found == [], "\n".join(found)


def test_the_operators_backup_pages_have_no_serious_violation(browser, live_server, operator_pages):
    found = walk(browser, live_server, "stefan", operator_pages)
    assert found == [], "\n".join(found)


def test_the_signatures_and_the_entry_buttons_have_no_serious_violation(browser, live_server, eight_world):
    """The parts this walk would otherwise miss: a finished Partie's signatures, the trump buttons."""
    from league.models import Member
    from protocol import matches
    from tests.unit.builders import sweep

    club = eight_world["club"]
    seats = [Member.objects.get(club=club, name=n) for n in ("Bernd", "Carla", "Dieter", "Emil")]
    finished = matches.create_match(club=club, date=eight_world["season"].start, members=seats,
                                     scorekeeper=seats[0], settings={}, user=eight_world["secretary"],
                                     events=[sweep("Bernd", ("Carla", "Dieter", "Emil"))])
    confirmations.confirm(finished, finished.seats.get(name="Carla"), user=eight_world["secretary"])
    context = browser.new_context(viewport={"width": 360, "height": 780}, locale="de-DE", bypass_csp=True)
    page = context.new_page()
    page.base_url = live_server.url
    log_in(page, "bernd", PASSWORD)
    found = []
    for url in (finished.get_absolute_url(), eight_world["plain"].get_absolute_url() + "spiel/"):
        page.goto(live_server.url + url)
        if url.endswith("spiel/"):
            page.locator("label[data-trump='rank:A']").click()
            page.get_by_text("Inversionen (Art. 11)").click()
        else:
            assert page.locator("#signatures button").count() >= 1  # Bernd confirms for himself
        found += [f"{url}: {v}" for v in violations(page)]
    context.close()
    assert found == [], "\n".join(found)


def test_the_entry_and_match_pages_have_no_serious_violation_at_320_and_414_px(browser, live_server, evening):
    """The Protokollant's pages of every game (eight long names, five at Doppelkopf and Tarot) at the
    narrowest and the widest phone; the walk above sees them at 360 px."""
    from tests.integration.pages import url

    urls = [address for game in ("chaotentrumpf", "doppelkopf", "tarot")
            for address in (evening[game].get_absolute_url(), url(evening[game], "game_new"))]
    found = []
    for width in (320, 414):
        context = browser.new_context(viewport={"width": width, "height": 800}, locale="de-DE", has_touch=True,
                                      bypass_csp=True)
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.base_url = live_server.url
        log_in(page, "bernd", PASSWORD)
        for address in urls:
            page.goto(live_server.url + address)
            found += [f"{width}px {address}: {json.dumps(v, ensure_ascii=False)}" for v in violations(page)]
        context.close()
    assert found == [], "\n".join(found)
