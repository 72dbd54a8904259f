"""The match's state block: what other devices at the table fetch, and the words it uses."""

from django.urls import reverse

from protocol import recording
from tests.unit.builders import twins


def test_the_fragment_other_devices_fetch_holds_the_whole_state(member_client, running_match, secretary):
    recording.add_event(running_match, "game", twins()["game"], user=secretary)
    url = reverse("protocol:sheet", args=[running_match.club.slug, running_match.pk])
    html = member_client.get(url).content.decode()
    # next Spiel, Mischer (Art. 5b: clockwise after Carla, the first), leader, and the sheet itself
    assert "Nächstes Spiel" in html and "<strong>Dieter</strong>" in html
    assert "Es führt" in html and "Gleichstand an der Spitze (312)" in html
    assert 'class="sheet"' in html and "Stand im Stechen" not in html


def test_nobody_leads_a_partie_where_all_are_at_zero(member_client, running_match):
    html = member_client.get(running_match.get_absolute_url()).content.decode()
    assert "Gleichstand an der Spitze (0)" in html
    assert "Anna (0)" not in html


def test_totals_carry_a_real_minus_sign(member_client, running_match, secretary):
    recording.add_event(running_match, "game", twins()["game"], user=secretary)
    html = member_client.get(running_match.get_absolute_url()).content.decode()
    assert "−200" in html and ">-200<" not in html


def test_the_club_page_names_no_empty_winner(member_client, running_match):
    html = member_client.get(running_match.club.get_absolute_url()).content.decode()
    assert "Sieger: <" not in html and "Sieger: \n" not in html
    assert "läuft" in html


def test_an_unchanged_state_is_answered_without_a_body(member_client, running_match, secretary):
    """A phone polls every 4 seconds all evening: the state it already has comes back as a
    bodiless 304 (its browser asks with the ETag), a changed one in full."""
    url = reverse("protocol:sheet", args=[running_match.club.slug, running_match.pk])
    first = member_client.get(url)
    assert first.status_code == 200 and first["ETag"]
    assert "no-cache" in first["Cache-Control"] and "private" in first["Cache-Control"]
    again = member_client.get(url, headers={"If-None-Match": first["ETag"]})
    assert again.status_code == 304 and again.content == b""
    recording.add_event(running_match, "game", twins()["game"], user=secretary)
    changed = member_client.get(url, headers={"If-None-Match": first["ETag"]})
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]
    assert "Es führt" in changed.content.decode()


def test_a_state_seen_by_a_secretary_is_not_answered_as_unchanged_to_a_member(member_client, secretary_client,
                                                                              running_match):
    """The secretary sees the button to enter the next Spiel, the member does not: the ETag
    is of what this user sees."""
    url = reverse("protocol:sheet", args=[running_match.club.slug, running_match.pk])
    seen = secretary_client.get(url)
    assert "data-next-entry" in seen.content.decode()
    other = member_client.get(url, headers={"If-None-Match": seen["ETag"]})
    assert other.status_code == 200 and "data-next-entry" not in other.content.decode()
