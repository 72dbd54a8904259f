"""The club's old points lists come in on a 360 px phone: the secretary uploads a workbook of
three Partien (a sheet each, with a column of chalk marks headed like a player), tells the
page to ignore that column, reads the dry run (each Partie's totals and winner, how the
names and columns were read), imports, follows the progress until the report links to the
season's table, and the table's points are the sheets' own totals. The pages fit the phone
and have no serious axe-core violations (a screenshot of each goes to /tmp)."""

import re

import pytest

from league.models import Member
from league.standings.ranking import standings
from protocol.models import Match
from tests.browser.conftest import log_in
from tests.conftest import PASSWORD
from tests.points_workbooks import PLAYERS, chaotentrumpf_partien, three_partien_workbook, totals

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTH = 360


def fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth") <= WIDTH


def wait_for(page, locator, seconds=60):
    """The job's page swaps its progress in every second until the report shows ``locator``."""
    for _ in range(seconds * 4):
        if locator.count() and locator.first.is_visible():
            return
        page.wait_for_timeout(250)
    raise AssertionError(page.locator("main").inner_text())


def table_points(page) -> dict[str, int]:
    """Each name's points as the season's table shows them."""
    rows = page.evaluate("""() => {
        const table = document.querySelector("table");
        const heads = [...table.querySelectorAll("thead th")].map(th => th.innerText.trim());
        return [heads, [...table.querySelectorAll("tbody tr")].map(tr => [...tr.children].map(td => td.innerText.trim()))];
    }""")
    heads, body = rows
    column = heads.index("Punkte")
    named = next(i for i, head in enumerate(heads) if head in ("Name", "Mitglied", "Spieler"))
    return {row[named]: int(re.sub(r"[^\d-]", "", row[column].replace("−", "-"))) for row in body}


def test_the_old_lists_come_in_through_the_page(browser, live_server, club, season, secretary, member_user,
                                                 axe_violations, run_worker, tmp_path):
    for name in PLAYERS[1:]:
        Member.objects.create(club=club, name=name)
    partien = chaotentrumpf_partien(3)
    workbook = tmp_path / "punktelisten-2026.xlsx"
    workbook.write_bytes(three_partien_workbook(partien, extra=("Kreide", "x")))
    context = browser.new_context(viewport={"width": WIDTH, "height": 740}, locale="de-DE", has_touch=True,
                                  bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.base_url = live_server.url
    problems = []
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    page.on("response", lambda r: problems.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    log_in(page, "schriftfuehrer", PASSWORD)

    page.goto(f"{live_server.url}/verein/{club.slug}/saisons/")
    page.get_by_role("link", name="Alte Punktelisten importieren (.xlsx)").click()
    page.wait_for_url("**/punktelisten/")
    assert axe_violations(page) == [] and fits(page)
    page.screenshot(path="/tmp/punktelisten-formular-360.png", full_page=True)
    page.locator("input[name=file]").set_input_files(workbook)
    page.locator("select[name=season]").select_option(str(season.pk))
    page.get_by_label("Spalten ignorieren").fill("F")  # the chalk marks are no player
    page.get_by_role("button", name="Prüfen (Probelauf)").click()
    page.wait_for_url("**/auftrag/*/")
    run_worker()
    confirm = page.get_by_role("button", name="Jetzt importieren")
    wait_for(page, confirm)
    report = page.locator("main").inner_text()
    for number, document in enumerate(partien, 1):
        assert f"Partie {number}" in report
        winner = max(totals(document).items(), key=lambda item: item[1])[0]
        assert winner in page.get_by_role("region", name=f"Partie {number}").inner_text()
    assert "Spieler B-E" in report and "ignoriert F" in report and not Match.objects.exists()
    assert axe_violations(page) == [] and fits(page)
    page.screenshot(path="/tmp/punktelisten-probelauf-360.png", full_page=True)

    confirm.click()
    page.wait_for_url("**/auftrag/*/")
    run_worker()
    to_table = page.get_by_role("link", name="Zur Tabelle")
    wait_for(page, to_table)
    assert "importiert: 3 Partien" in page.locator("main").inner_text()
    to_table.click()
    page.wait_for_url(f"**/tabelle/{season.pk}/")
    expected: dict[str, int] = {}
    for document in partien:
        for name, total in totals(document).items():
            expected[name] = expected.get(name, 0) + total
    assert table_points(page) == expected
    assert {row.name: row.points for row in standings(club, season, season.ranking_rule)} == expected
    assert problems == []
    context.close()
