"""The offline evening on a phone in chromium: entries typed without network are checked by the
engine in the browser (Pyodide), queued in IndexedDB and sent exactly once when the network is
back; an entry whose place another device filled meanwhile, or that the engine no longer
accepts, is shown to edit or discard (two phones at one table: test_two_phones.py)."""


import pytest

from protocol import reading, recording
from protocol.models import Change, Event
from tests.browser.conftest import choose_trump, log_in
from tests.browser.offline import (
    KEPT,
    QUIET,
    SLOW,
    TWINS,
    enter_strafe,
    go_offline,
    open_ready,
    save_offline,
    second_tab,
    type_spiel,
    url,
    wait_waiting,
    waiting,
)
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

def test_an_evening_offline_is_stored_exactly_once_when_the_network_returns(phone, table):
    page = phone
    log_in(page, "bernd", PASSWORD)
    open_ready(page, url(page, table, "spiel/"))
    page.wait_for_function(KEPT, arg=f"{table.get_absolute_url()}spiel/", timeout=SLOW)
    strafe = second_tab(page)  # the Strafe form, opened while the network is there
    open_ready(strafe, url(strafe, table, "strafe/"))
    go_offline(page)

    type_spiel(page, QUIET, trump="colour:rot")
    page.locator("#preview table").wait_for(timeout=SLOW)  # the live preview, from the engine offline
    assert "+31" in page.locator("#preview").inner_text()
    save_offline(page, 1)
    assert "Offline" in page.locator("[data-offline-bar]").inner_text()
    assert "1 Eintrag wartet auf Übertragung" in page.locator("[data-offline-bar]").inner_text()
    assert page.locator("h1").inner_text() == "Spiel 2"
    type_spiel(page, QUIET, trump="colour:rot")
    save_offline(page, 2)

    # A rule error shows offline at its field, naming the article; nothing is queued.
    type_spiel(page, TWINS, trump="suit:Herz", inversion=("Anna", "normal", "suit:Pik"))
    page.locator("input[name=p0_points]").fill("1")
    page.get_by_role("button", name="Spiel speichern").click()
    page.locator("#err-p0_points li").wait_for(timeout=SLOW)
    assert "Art. 13a" in page.locator("#err-p0_points").inner_text()
    assert page.locator("input[name=p0_points]").get_attribute("aria-invalid") == "true"
    assert waiting(page) == 2
    page.locator("input[name=p0_points]").fill("156")
    save_offline(page, 3)  # Spiel 3 with the inversion

    # The Strafe in the other tab sees the queue of this one (IndexedDB).
    enter_strafe(strafe)
    wait_waiting(strafe, 4)
    assert "−358" in strafe.locator("[data-offline-state]").inner_text()  # Carla: 3 Spiele and the Strafe

    for n in (5, 6):
        type_spiel(page, TWINS)
        save_offline(page, n)
    type_spiel(page, TWINS)
    save_offline(page, 7)  # Spiel 6: Anna and Bernd over 1000 at once, the Stechen (Art. 17b)
    state = page.locator("[data-offline-state]").inner_text()
    assert "Stechen: Anna, Bernd spielen bis 100" in state
    assert page.locator(".lines__row[data-player=Carla]").is_hidden()  # only the Stechen's players
    assert page.locator(".lines__row[data-player=Anna]").is_visible()
    assert "7 Einträge warten auf Übertragung" in page.locator("[data-offline-bar]").inner_text()
    assert not Event.objects.filter(match=table).exists()

    # Reloaded without network (the worker's copy of the page, Pyodide from its cache): the
    # queue, the state after it and the live preview are all still there.
    page.reload()
    page.wait_for_function("() => document.documentElement.dataset.offlineReady === 'true'", timeout=SLOW)
    assert waiting(page) == 7 and "7 Einträge warten" in page.locator("[data-offline-bar]").inner_text()
    assert "Stechen: Anna, Bernd spielen bis 100" in page.locator("[data-offline-state]").inner_text()
    assert page.locator("h1").inner_text() == "Spiel 7"
    assert page.locator(".lines__row[data-player=Carla]").is_hidden()
    choose_trump(page, "colour:rot")
    for seat, line in enumerate([(6, 80, 3), (4, 40, 1)]):
        for field, value in zip(("tricks", "points", "trumps"), line):
            page.locator(f"input[name=p{seat}_{field}]").fill(str(value))
    page.locator("#preview table").wait_for(timeout=SLOW)
    assert "+85" in page.locator("#preview").inner_text() and "Art. 16b" in page.locator("#preview").inner_text()

    strafe.close()
    told = []  # what the phone says of its queue on the requests of the hand-over (protocol/queue_report.py)
    page.on("request", lambda r: told.append((r.method, r.headers.get("x-trumpfbuch-waiting")))
            if "/eintraege/" in r.url else None)
    page.context.set_offline(False)
    wait_waiting(page, 0)
    assert Event.objects.filter(match=table).count() == 7
    assert told[:8] == [("GET", "7"), *[("POST", str(n)) for n in range(6, -1, -1)]], told  # the last says 0
    table.refresh_from_db()
    assert table.queue_waiting == 0 and table.queue_reported_at is not None  # the round board's count
    assert list(Event.objects.filter(match=table).values_list("kind", flat=True)) == [
        "game", "game", "game", "penalty", "game", "game", "game"]
    table.refresh_from_db()
    computed = reading.page(table).computed
    assert computed.current_stage.depth == 1 and computed.current_stage.players == ["Anna", "Bernd"]
    assert computed.totals == {"Anna": 1161, "Bernd": 1161, "Carla": -958, "Dieter": -758}
    assert all(change.recorded_at for change in Change.objects.filter(match=table, action="add"))
    page.goto(url(page, table, "verlauf/"))
    assert page.locator(".history").inner_text().count("offline erfasst") == 7
    assert not [p for p in page.problems if "ERR_INTERNET_DISCONNECTED" not in p and "Failed to fetch" not in p]


def test_a_wrong_sum_offline_marks_every_players_input_of_its_column(phone, table):
    """The engine in the browser names the column of a sum (the same entry mapping as the
    server's): the message sits at the column, each player's Stiche is marked, nothing is queued."""
    page = phone
    log_in(page, "bernd", PASSWORD)
    open_ready(page, url(page, table, "spiel/"))
    go_offline(page)
    type_spiel(page, [(3, 30, 1), (3, 30, 1), (3, 20, 1), (2, 20, 1)], trump="colour:rot")  # 11 Stiche of 10
    page.get_by_role("button", name="Spiel speichern").click()
    page.locator("#err-tricks li").wait_for(timeout=SLOW)
    assert "Die Stiche ergeben zusammen 11" in page.locator("#err-tricks").inner_text()
    page.wait_for_function("() => document.querySelectorAll('input[aria-invalid=true][name$=_tricks]').length === 4")
    assert page.locator("input[name=p0_tricks]").get_attribute("aria-describedby") == "err-tricks"
    assert page.locator("input[aria-invalid=true][name$=_points]").count() == 0
    assert waiting(page) == 0


def test_a_spiel_whose_place_another_device_filled_is_shown_and_can_be_edited(phone, table):
    page = phone
    log_in(page, "bernd", PASSWORD)
    for _ in range(2):  # 2 Spiele online: Anna and Bernd 624 each
        table.refresh_from_db()
        recording.add_event(table, "game", twins_body(), version=table.version)
    open_ready(page, url(page, table, "spiel/"))
    go_offline(page)
    type_spiel(page, QUIET, trump="colour:rot")
    save_offline(page, 1)  # this phone's Spiel 3, for all four

    # Meanwhile another phone saves Spiel 3 and 4: Anna and Bernd over 1000, a Stechen (Art. 17b).
    for _ in range(2):
        table.refresh_from_db()
        recording.add_event(table, "game", twins_body(), version=table.version)
    page.context.set_offline(False)
    conflict = page.locator("[data-offline-conflicts] li")
    conflict.wait_for(timeout=SLOW)  # its place, Spiel 3, holds another Spiel now: shown, kept
    assert "Spiel 3 wurde inzwischen auf einem anderen Gerät eingetragen" in conflict.inner_text()
    assert waiting(page) == 1 and Event.objects.filter(match=table).count() == 4
    page.locator("[data-offline-state]").get_by_text("Stechen: Anna, Bernd").wait_for(timeout=SLOW)

    # Nothing lost: "Bearbeiten" puts it back into the form, as typed, for the Stechen's players.
    conflict.get_by_role("button", name="Bearbeiten").click()
    wait_waiting(page, 0)
    assert page.locator("input[name=p0_points]").input_value() == "30"
    assert page.locator(".lines__row[data-player=Carla]").is_hidden()


def twins_body():
    lines = dict(zip(("Anna", "Bernd", "Carla", "Dieter"), TWINS))
    return {"trump": {"level": "rank", "value": "A"},
            "results": {p: {"tricks": t, "points": a, "trumps": tr} for p, (t, a, tr) in lines.items()}}


def test_two_tabs_syncing_store_each_entry_once(phone, table):
    page = phone
    log_in(page, "bernd", PASSWORD)
    open_ready(page, url(page, table, "spiel/"))
    other = second_tab(page)
    open_ready(other, url(other, table, "spiel/"))
    go_offline(page)
    for n in (1, 2, 3):
        type_spiel(page, QUIET, trump="colour:rot")
        save_offline(page, n)
    page.context.set_offline(False)  # both tabs hear "online" and sync at once
    wait_waiting(page, 0)
    other.wait_for_function("() => document.querySelector('[data-offline-bar]').dataset.waiting === '0'",
                            timeout=SLOW)
    assert Event.objects.filter(match=table).count() == 3
    assert Change.objects.filter(match=table, action="add").count() == 3


def test_an_expired_session_keeps_the_queue_and_asks_to_log_in(phone, table):
    page = phone
    log_in(page, "bernd", PASSWORD)
    open_ready(page, url(page, table, "spiel/"))
    go_offline(page)
    type_spiel(page, QUIET, trump="colour:rot")
    save_offline(page, 1)
    page.context.clear_cookies()  # the session ran out while the network was gone
    page.context.set_offline(False)
    login = page.locator("[data-offline-login] a")
    login.wait_for(timeout=SLOW)
    assert "Bitte erneut anmelden" in login.inner_text()
    assert "next=" in login.get_attribute("href")
    assert waiting(page) == 1 and not Event.objects.filter(match=table).exists()

    # Logged in again, the match page sends what waits (the queue is the phone's, not the page's).
    log_in(page, "bernd", PASSWORD)
    open_ready(page, url(page, table, ""), entry_page=False)
    wait_waiting(page, 0)
    assert Event.objects.filter(match=table).count() == 1


def test_the_end_by_time_is_queued_offline_too(phone, table):
    page = phone
    log_in(page, "bernd", PASSWORD)
    open_ready(page, url(page, table, "spiel/"))
    end = second_tab(page)
    end.goto(url(end, table, "ende/"))
    end.wait_for_function("() => document.documentElement.dataset.offlineReady === 'true'", timeout=SLOW)
    go_offline(page)
    type_spiel(page, [(6, 60, 2), (2, 20, 1), (1, 10, 0), (1, 10, 0)], trump="colour:rot")
    save_offline(page, 1)
    end.locator("input[name=reason][value=time]").check()
    end.get_by_role("button", name="Partie beenden").click()
    wait_waiting(end, 2)
    assert "vorbei" in end.locator("[data-offline-state]").inner_text()  # the engine: the Partie is over
    page.context.set_offline(False)
    wait_waiting(end, 0)
    assert list(Event.objects.filter(match=table).values_list("kind", flat=True)) == ["game", "end"]
    table.refresh_from_db()
    assert table.status == "finished" and table.winner.name == "Anna"


def test_a_save_the_server_does_not_answer_is_kept_on_the_phone(phone, table):
    """A WLAN without internet: the phone thinks it is online, the server never answers."""
    page = phone
    log_in(page, "bernd", PASSWORD)
    open_ready(page, url(page, table, "spiel/"))
    # The context's routes: the page's requests and the service worker's (it sends the form's POST).
    page.context.route("**/eintraege/", lambda route: route.abort("internetdisconnected"))
    page.context.route("**/spiel/", lambda route: route.abort("internetdisconnected")
                       if route.request.method == "POST" else route.continue_())
    type_spiel(page, QUIET, trump="colour:rot")
    page.get_by_role("button", name="Spiel speichern").click()
    wait_waiting(page, 1)
    assert page.url.endswith("/spiel/") and not Event.objects.filter(match=table).exists()
    # Reopened while the server still does not answer: the Spiel page shows the state with the
    # waiting Spiel (the engine's); the match page says what waits.
    open_ready(page, url(page, table, "spiel/"))
    page.get_by_text("Nächstes Spiel: 2").wait_for(timeout=SLOW)
    assert waiting(page) == 1
    open_ready(page, url(page, table, ""), entry_page=False)
    assert waiting(page) == 1
    page.context.unroute("**/eintraege/")
    page.context.unroute("**/spiel/")
    open_ready(page, url(page, table, ""), entry_page=False)  # the next page that opens sends it
    wait_waiting(page, 0)
    assert Event.objects.filter(match=table).count() == 1
    page.problems.clear()


def correct_spiel_2_offline(page, table):
    """Bernd, after two quiet Spiele, opens the correction of Spiel 2, loses the network and
    types the twins' Spiel in its place (no reason yet)."""
    log_in(page, "bernd", PASSWORD)
    quiet_body = {"trump": {"level": "colour", "value": "rot"},
                  "results": {p: {"tricks": t, "points": a, "trumps": tr}
                              for p, (t, a, tr) in zip(("Anna", "Bernd", "Carla", "Dieter"), QUIET)}}
    for _ in range(2):
        table.refresh_from_db()
        recording.add_event(table, "game", quiet_body, version=table.version)
    open_ready(page, url(page, table, "eintrag/1/korrigieren/"))  # Spiel 2
    go_offline(page)
    type_spiel(page, TWINS)


def test_a_correction_offline_is_stored_once_with_its_reason(phone, table):
    page = phone
    correct_spiel_2_offline(page, table)
    page.get_by_role("button", name="Korrektur speichern").click()  # no reason: refused offline, nothing queued
    page.locator("[aria-invalid=true][name=why-reason]").wait_for(timeout=SLOW)
    assert waiting(page) == 0
    page.locator("textarea[name=why-reason]").fill("Trumpf verwechselt")
    page.get_by_role("button", name="Korrektur speichern").click()
    wait_waiting(page, 1)
    assert "Anna 343" in page.locator("[data-offline-state]").inner_text()  # 31 + 312, from the engine offline
    assert not Change.objects.filter(match=table, action="correct").exists()

    page.context.set_offline(False)
    wait_waiting(page, 0)
    change = Change.objects.get(match=table, action="correct")  # exactly once
    assert change.reason == "Trumpf verwechselt" and change.recorded_at and change.position == 1
    assert Event.objects.get(match=table, position=1).data == twins_body()
    page.goto(url(page, table, "verlauf/"))
    history = page.locator(".history").inner_text()
    assert "korrigiert" in history and "Trumpf verwechselt" in history and history.count("offline erfasst") == 1


def test_a_correction_of_an_entry_another_device_changed_meanwhile_is_shown_not_applied(phone, table):
    page = phone
    correct_spiel_2_offline(page, table)
    page.locator("textarea[name=why-reason]").fill("Trumpf verwechselt")
    page.get_by_role("button", name="Korrektur speichern").click()
    wait_waiting(page, 1)

    # Meanwhile the secretary corrects the same Spiel 2 otherwise on his own device.
    table.refresh_from_db()
    other = twins_body() | {"trump": {"level": "suit", "value": "Herz"}}
    recording.correct_event(table, 1, other, version=table.version, reason="am Tisch nachgezählt")
    page.context.set_offline(False)
    conflict = page.locator("[data-offline-conflicts] li")
    conflict.wait_for(timeout=SLOW)  # never applied to what now stands there: shown, kept
    assert "Spiel 2 wurde inzwischen auf einem anderen Gerät geändert" in conflict.inner_text()
    assert waiting(page) == 1
    assert [c.reason for c in Change.objects.filter(match=table, action="correct")] == ["am Tisch nachgezählt"]
