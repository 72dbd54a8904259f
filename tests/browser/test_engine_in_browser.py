"""The same engine in the browser, for the table without network: protocol documents of all three games (Spiele
with their facts and recorded as points only), checked by Pyodide in chromium through
static/js/offline/engine.js and on the server through the same function
(protocol.rules.check.evaluate_document), give identical JSON."""

import json

import pytest

from protocol.rules.check import evaluate_document
from tests.browser.conftest import PHONE
from tests.offline_documents import all_documents

pytestmark = [pytest.mark.browser]

LOAD = """async () => {
  const { loadEngine } = await import("/static/js/offline/engine.js");
  const ready = new Promise((resolve) => window.addEventListener("trumpfbuch:engine-ready", resolve, { once: true }));
  const started = performance.now();
  window.engine = await loadEngine();
  await ready;
  return performance.now() - started;
}"""


@pytest.fixture(scope="module")
def engine_page(browser, live_server):
    """One page with the engine loaded, for the whole module (Pyodide's cold start is ~2 s)."""
    context = browser.new_context(viewport=PHONE, locale="de-DE")
    page = context.new_page()
    page.set_default_timeout(120_000)
    problems = []
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    page.on("console", lambda msg: problems.append(msg.text) if msg.type == "error" else None)
    page.goto(live_server.url + "/konto/login/")  # any page of the site: base.html names the pack
    page.load_time = page.evaluate(LOAD)
    page.problems = problems
    yield page
    context.close()


def test_the_browser_and_the_server_give_identical_json(engine_page):
    documents = all_documents()
    games = {document.get("ruleset") for _name, document in documents}
    assert {"chaotentrumpf", "doppelkopf", "tarot"} <= games
    browser_answers = engine_page.evaluate(
        "(documents) => documents.map((d) => window.engine.check(d))", [d for _n, d in documents])
    errors = 0
    points_only, refused_points = set(), set()
    for (name, document), answer in zip(documents, browser_answers, strict=True):
        server = json.loads(json.dumps(evaluate_document(document)))
        assert answer == server, name
        assert json.dumps(answer, sort_keys=True) == json.dumps(server, sort_keys=True), name  # the numbers' types too
        errors += "errors" in server
        game = document.get("ruleset")
        if any(g.get("points_only") for g in server.get("games", [])):
            points_only.add(game)
        if name.endswith("-impossible") and "errors" in server:
            refused_points.add(game)
    assert errors >= 3 and len(documents) - errors >= 10  # both kinds of answer are compared
    # points only in every game, accepted and refused (Art. 16; a Doppelkopf or Tarot game not summing to zero)
    assert points_only == refused_points == {"chaotentrumpf", "doppelkopf", "tarot"}
    assert engine_page.problems == []


def test_an_error_answer_names_its_article(engine_page):
    with open("tests/data/invalid.json", encoding="utf-8") as file:
        document = json.load(file)
    answer = engine_page.evaluate("(d) => window.engine.check(d)", document)
    assert any("Art. " in error["message"] for error in answer["errors"])


def test_call_reaches_only_the_engine(engine_page):
    total = engine_page.evaluate("() => window.engine.call('protocol.rules.vocabulary', 'number', -44)")
    assert total == "−44"
    refused = engine_page.evaluate(
        "() => { try { window.engine.call('os', 'getcwd'); } catch (e) { return e.message; } }")
    assert "gehört nicht zur Regel-Engine" in refused
