"""Two phones at one table, one of them offline for a while: the Partie keeps one truth.

Phone A (Bernd, the Protokollant) loses the network and keeps typing; phone B (the secretary)
stays online and saves meanwhile. When A is back it first shows what B entered, then hands over
its own entries, each for the place it was typed for: the very same entry is recognised and not
stored twice; another entry at that place is shown beside B's, to discard, to enter at the end
or to edit; nothing is appended silently (protocol/handover.py)."""

import pytest

from protocol import recording
from protocol.models import Change, Event
from tests.browser.conftest import choose_trump, log_in
from tests.browser.offline import (
    QUIET,
    SLOW,
    TWINS,
    enter_strafe,
    go_offline,
    open_ready,
    save_offline,
    type_spiel,
    url,
    wait_waiting,
    waiting,
)
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SABINE = "schriftfuehrer"


def a_offline_on(page, table, tail):
    log_in(page, "bernd", PASSWORD)
    open_ready(page, url(page, table, tail))
    go_offline(page)


def b_saves_spiel(page, table, lines, trump):
    """The secretary's phone, online: the Spiel form, the ordinary save."""
    page.goto(url(page, table, "spiel/"))
    page.wait_for_function("() => document.documentElement.dataset.offlineReady === 'true'", timeout=SLOW)
    type_spiel(page, lines, trump=trump)
    page.get_by_role("button", name="Spiel speichern").click()
    page.wait_for_url(f"**/partien/{table.pk}/", timeout=SLOW)


def meanwhile(page):
    panel = page.locator("[data-offline-meanwhile]")
    panel.wait_for(timeout=SLOW)
    return panel.inner_text()


def test_the_same_spiel_from_two_phones_is_stored_once(phone, second_phone, table):
    a, b = phone, second_phone
    a_offline_on(a, table, "spiel/")
    type_spiel(a, QUIET, trump="colour:rot")
    save_offline(a, 1)
    # The bar's state and its note are two sentences on two lines, never run together.
    assert a.locator("[data-offline-text]").inner_text().endswith("1 Eintrag wartet auf Übertragung")
    assert a.locator("[data-offline-note] .offline-bar__note").inner_text().startswith("Auf diesem Telefon")
    log_in(b, SABINE, PASSWORD)
    b_saves_spiel(b, table, QUIET, "colour:rot")  # the very same Spiel 1
    assert Event.objects.filter(match=table).count() == 1

    a.context.set_offline(False)
    wait_waiting(a, 0)
    assert "Spiel 1 eingetragen" in meanwhile(a)  # shown before A handed anything over
    bar = a.locator("[data-offline-bar]").inner_text()
    assert "Spiel 1 war schon auf einem anderen Gerät eingetragen" in bar and "nicht doppelt" in bar
    assert a.locator("[data-offline-conflicts]").is_hidden()
    assert Event.objects.filter(match=table).count() == 1
    assert Change.objects.filter(match=table, action="add").count() == 1


def test_another_spiel_at_the_same_place_is_shown_beside_the_stored_one_and_entered_at_the_end(
        phone, second_phone, table):
    a, b = phone, second_phone
    a_offline_on(a, table, "spiel/")
    for n in (1, 2):  # A's Spiel 1 and 2
        type_spiel(a, QUIET, trump="colour:rot")
        save_offline(a, n)
    log_in(b, SABINE, PASSWORD)
    b_saves_spiel(b, table, QUIET, "colour:schwarz")  # B's Spiel 1: another trump

    a.context.set_offline(False)
    conflict = a.locator("[data-offline-conflicts] li")
    conflict.wait_for(timeout=SLOW)
    assert "Spiel 1 eingetragen: Trumpf schwarz" in meanwhile(a)
    text = conflict.inner_text()
    assert "Spiel 1 wurde inzwischen auf einem anderen Gerät eingetragen: Trumpf schwarz" in text
    assert "Ihr Eintrag: Trumpf rot" in text
    assert "Spätere Einträge warten, bis das geklärt ist" in a.locator("[data-offline-conflicts]").inner_text()
    assert waiting(a) == 2 and Event.objects.filter(match=table).count() == 1  # nothing appended silently

    conflict.get_by_role("button", name="Als Spiel 2 eintragen").click()
    wait_waiting(a, 0)
    trumps = [e.data["trump"]["value"] for e in Event.objects.filter(match=table)]
    assert trumps == ["schwarz", "rot", "rot"]  # B's Spiel 1, then A's two, in A's order
    assert a.locator("[data-offline-conflicts]").is_hidden()


def test_a_conflicting_spiel_can_be_discarded(phone, second_phone, table):
    a, b = phone, second_phone
    a_offline_on(a, table, "spiel/")
    type_spiel(a, QUIET, trump="colour:rot")
    save_offline(a, 1)
    log_in(b, SABINE, PASSWORD)
    b_saves_spiel(b, table, TWINS, "rank:A")
    a.context.set_offline(False)
    conflict = a.locator("[data-offline-conflicts] li")
    conflict.wait_for(timeout=SLOW)
    a.once("dialog", lambda dialog: dialog.accept())
    conflict.get_by_role("button", name="Verwerfen").click()
    wait_waiting(a, 0)
    assert [e.data["trump"]["value"] for e in Event.objects.filter(match=table)] == ["A"]


def test_the_same_strafe_from_two_phones_is_stored_once(phone, second_phone, table):
    a, b = phone, second_phone
    a_offline_on(a, table, "strafe/")
    enter_strafe(a)
    wait_waiting(a, 1)
    log_in(b, SABINE, PASSWORD)
    b.goto(url(b, table, "strafe/"))
    b.wait_for_function("() => document.documentElement.dataset.offlineReady === 'true'", timeout=SLOW)
    enter_strafe(b)
    b.wait_for_url(f"**/partien/{table.pk}/", timeout=SLOW)
    a.context.set_offline(False)
    wait_waiting(a, 0)
    assert "Strafe vor dem ersten Spiel war schon auf einem anderen Gerät eingetragen" in \
        a.locator("[data-offline-bar]").inner_text()
    assert Event.objects.filter(match=table, kind="penalty").count() == 1


def test_a_correction_of_a_spiel_another_phone_corrected_otherwise_is_shown_and_can_be_made_anyway(
        phone, second_phone, table):
    a, b = phone, second_phone
    quiet_body = {"trump": {"level": "colour", "value": "rot"},
                  "results": {p: {"tricks": t, "points": pts, "trumps": tr}
                              for p, (t, pts, tr) in zip(("Anna", "Bernd", "Carla", "Dieter"), QUIET)}}
    recording.add_event(table, "game", quiet_body, version=table.version)
    a_offline_on(a, table, "eintrag/0/korrigieren/")
    type_spiel(a, TWINS)
    a.locator("textarea[name=why-reason]").fill("Trumpf verwechselt")
    a.get_by_role("button", name="Korrektur speichern").click()
    wait_waiting(a, 1)

    log_in(b, SABINE, PASSWORD)  # B corrects the same Spiel 1 otherwise
    b.goto(url(b, table, "eintrag/0/korrigieren/"))
    b.wait_for_function("() => document.documentElement.dataset.offlineReady === 'true'", timeout=SLOW)
    choose_trump(b, "colour:schwarz")
    b.locator("textarea[name=why-reason]").fill("am Tisch nachgezählt")
    b.get_by_role("button", name="Korrektur speichern").click()
    b.wait_for_url(f"**/partien/{table.pk}/", timeout=SLOW)
    assert Event.objects.get(match=table, position=0).data["trump"]["value"] == "schwarz"

    a.context.set_offline(False)
    conflict = a.locator("[data-offline-conflicts] li")
    conflict.wait_for(timeout=SLOW)
    text = conflict.inner_text()
    assert "Spiel 1 wurde inzwischen auf einem anderen Gerät geändert" in text and "Ihre Korrektur" in text
    assert Event.objects.get(match=table, position=0).data["trump"]["value"] == "schwarz"
    conflict.get_by_role("button", name="Trotzdem korrigieren").click()
    wait_waiting(a, 0)
    assert Event.objects.get(match=table, position=0).data["trump"]["value"] == "A"
    assert [c.reason for c in Change.objects.filter(match=table, action="correct")] == [
        "am Tisch nachgezählt", "Trumpf verwechselt"]
