"""The transcription grid in the browser tests: waiting for the server's answer, the cell
that has the focus."""

import time


def wait_until(page, expression, timeout=10.0):
    """Poll a JavaScript expression (wait_for_function would eval() it, which the CSP forbids)."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        assert time.monotonic() < deadline, f"timed out waiting for {expression}"
        page.wait_for_timeout(30)


def settled(page):
    """The page shows the server's answer to everything typed so far."""
    wait_until(page, "(f => Boolean(f.dataset.version) && f.dataset.checked === f.dataset.version)"
                     "(document.getElementById('tx'))")


def focused(page):
    return page.evaluate("[document.activeElement.dataset.row, document.activeElement.dataset.cell]")
