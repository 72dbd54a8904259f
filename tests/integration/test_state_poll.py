"""The state poll (``protocol:sheet``) answers an unchanged state with a 304 before anything is
computed or rendered, and every kind of change makes the next poll a 200 with the new state:
a stale 304 would leave a phone at the table showing the old sheet all evening."""

import datetime
from unittest import mock

from django.db import connection
from django.test.utils import CaptureQueriesContext
from freezegun import freeze_time

from protocol import confirmations, recording
from protocol.models import Match
from protocol.sheet import page_parts
from tests.integration.pages import url
from tests.unit.builders import quiet, sweep, twins

# The 304's queries: the session and the user (as every signed-in page), then one statement of
# the match with its club, season, Protokollant, confirmations and the viewer's roles.
MOST_QUERIES_OF_A_304 = 3


def poll(client, match, etag=None, **headers):
    """The state poll's answer; ``.parts``: how many of the match page's parts it wrote
    (protocol.sheet.page_parts: the state is written once per state and rights)."""
    if etag is not None:
        headers["HTTP_IF_NONE_MATCH"] = etag
    with mock.patch.object(page_parts, "render", wraps=page_parts.render) as render:
        response = client.get(url(match, "sheet"), **headers)
    response.parts = render.call_count
    return response


def fresh(match):
    return Match.objects.select_related("club").get(pk=match.pk)


def changed(client, match, seen, **headers):
    """The next poll with the ETag of ``seen``: a 200 with another tag and its body."""
    response = poll(client, match, seen["ETag"], **headers)
    assert response.status_code == 200, "a stale 304"
    assert response["ETag"] != seen["ETag"]
    assert response.content
    return response.content.decode()


def test_an_unchanged_poll_is_a_304_that_renders_nothing(scorekeeper_client, running_match, secretary):
    recording.add_event(running_match, "game", twins()["game"], user=secretary)
    first = poll(scorekeeper_client, running_match)
    assert first.status_code == 200 and first.parts
    with CaptureQueriesContext(connection) as seen:
        again = poll(scorekeeper_client, running_match, first["ETag"])
    assert again.status_code == 304 and again.content == b""
    assert again.parts == 0  # nothing written, not even the state
    assert again["ETag"] == first["ETag"]
    assert "no-cache" in again["Cache-Control"] and "private" in again["Cache-Control"]
    assert len(seen.captured_queries) <= MOST_QUERIES_OF_A_304
    # nothing of the Partie's entries or cache rows is read for it
    assert not [q for q in seen.captured_queries if "protocol_event" in q["sql"] or "protocol_scoreline" in q["sql"]]


def test_a_spiel_saved_is_the_next_answer(member_client, running_match, secretary):
    seen = poll(member_client, running_match)
    recording.add_event(fresh(running_match), "game", twins()["game"], user=secretary)
    assert "Gleichstand an der Spitze (312)" in changed(member_client, running_match, seen)


def test_a_correction_is_the_next_answer(member_client, running_match, secretary):
    recording.add_event(running_match, "game", twins()["game"], user=secretary)
    seen = poll(member_client, running_match)
    assert "312" in seen.content.decode()
    recording.correct_event(fresh(running_match), 0, quiet()["game"], user=secretary, reason="Augen vertauscht")
    assert "312" not in changed(member_client, running_match, seen)


def test_a_strafe_is_the_next_answer(member_client, running_match, secretary):
    recording.add_event(running_match, "game", quiet()["game"], user=secretary)
    seen = poll(member_client, running_match)
    recording.add_event(fresh(running_match), "penalty", {"player": "Carla", "points": 200, "reason": "getauscht"},
                        user=secretary)
    assert "−179" in changed(member_client, running_match, seen)  # Carla: 21 - 200


def test_the_end_is_the_next_answer(member_client, running_match, secretary):
    recording.add_event(running_match, "game", twins()["game"], user=secretary)
    seen = poll(member_client, running_match)
    recording.add_event(fresh(running_match), "end", {"reason": "time"}, user=secretary)
    html = changed(member_client, running_match, seen)  # Anna and Bernd share the lead: a Stechen
    assert "status-panel--tiebreak" in html and "status-panel--running" in seen.content.decode()


def test_a_signature_is_the_next_answer(scorekeeper_client, finished_match, member_user, scorekeeper):
    """Signing raises no version: the confirmations are in the tag. Once every seat confirmed,
    the result is final although the window is open."""
    seen = poll(scorekeeper_client, finished_match)
    assert "badge--accent" in seen.content.decode()  # provisional
    seats = {seat.name: seat for seat in finished_match.seats.select_related("member")}
    confirmations.confirm(finished_match, seats["Anna"], user=member_user)
    after_one = poll(scorekeeper_client, finished_match, seen["ETag"])
    assert after_one.status_code == 200 and after_one["ETag"] != seen["ETag"]
    for name in ("Bernd", "Carla", "Gisela"):  # Bernd for himself, then for those without a login
        confirmations.confirm(finished_match, seats[name], user=scorekeeper)
    assert "badge--win" in changed(scorekeeper_client, finished_match, after_one)  # final


def test_the_correction_window_closing_is_the_next_answer(member_client, finished_match):
    """Nothing is written when the window closes: the tag asks the clock (Anna may correct
    nothing before or after: only the finality changes)."""
    seen = poll(member_client, finished_match)
    assert "badge--accent" in seen.content.decode()
    assert poll(member_client, finished_match, seen["ETag"]).status_code == 304
    closed = finished_match.finished_at + finished_match.club.correction_window + datetime.timedelta(minutes=1)
    with freeze_time(closed):
        html = changed(member_client, finished_match, seen)
    assert "badge--win" in html and "badge--accent" not in html


def test_a_new_role_of_the_viewer_is_the_next_answer(member_client, member_user, running_match):
    seen = poll(member_client, running_match)
    assert "data-next-entry" not in seen.content.decode()
    running_match.club.secretaries.add(member_user)  # Anna keeps the books now: she may record
    assert "data-next-entry" in changed(member_client, running_match, seen)


def test_another_language_is_another_answer(member_client, running_match):
    seen = poll(member_client, running_match, HTTP_ACCEPT_LANGUAGE="de")
    assert "Nächstes Spiel" in seen.content.decode()
    assert "Next game" in changed(member_client, running_match, seen, HTTP_ACCEPT_LANGUAGE="en")


def test_a_win_is_the_next_answer(member_client, running_match, secretary):
    seen = poll(member_client, running_match)
    recording.add_event(fresh(running_match), "game", sweep()["game"], user=secretary)  # Anna wins: 1248 > 1000
    won = poll(member_client, running_match, seen["ETag"])
    assert won.status_code == 200 and "status-panel--finished" in won.content.decode()


def test_a_tag_seen_by_a_member_opens_nothing_to_an_outsider_or_a_visitor(member_client, outsider_client,
                                                                          running_match):
    """The access check is asked before the 304: a tag learnt elsewhere gets no answer."""
    from django.test import Client

    seen = poll(member_client, running_match)
    assert poll(outsider_client, running_match, seen["ETag"]).status_code == 403
    visitor = poll(Client(), running_match, seen["ETag"])
    assert visitor.status_code == 302 and "login" in visitor["Location"]
    assert poll(member_client, running_match, seen["ETag"]).status_code == 304


def test_a_table_cards_poll_is_a_304_too_until_its_card_stops_working(secretary_client, club, member_user, secretary):
    """Table 1's phone holds its card (no account): its unchanged poll is a bodiless 304 as a
    member's, a Spiel makes the next a 200; a card reissued or another table's card gets no 304
    for the tag it learnt, but the page that says why (403)."""
    from django.test import Client
    from django.utils import timezone

    from league.models import Round
    from league.tournaments import cards
    from tests.integration.tournament_day import eight_at_two_tables

    tournament = eight_at_two_tables(secretary_client, club)
    round_, match = tournament["round"], tournament["matches"][1]
    issued = cards.cards_of(round_, [1, 2])

    def holder(table, card=None):
        phone = Client()
        assert phone.get(cards.path(cards.code_of(card or issued[table]))).status_code == 302
        return phone

    phone = holder(1)
    first = poll(phone, match)
    assert first.status_code == 200 and first.parts and first["ETag"]
    with CaptureQueriesContext(connection) as seen:
        again = poll(phone, match, first["ETag"])
    assert again.status_code == 304 and again.content == b"" and again.parts == 0
    assert again["ETag"] == first["ETag"] and "private" in again["Cache-Control"]
    # the session, its card with its round, the match's one statement: no entry, no cache row
    assert len(seen.captured_queries) <= MOST_QUERIES_OF_A_304
    assert not [q for q in seen.captured_queries if "protocol_event" in q["sql"] or "protocol_scoreline" in q["sql"]]
    assert poll(Client(), match, first["ETag"]).status_code == 302  # no card, no login: the login, not a 304

    names = [seat.name for seat in match.seats.all()]
    recording.add_event(fresh(match), "game", {"type": "normal", "dealer": names[0], "re": names[:2],
                                               "re_points": 121}, user=secretary)
    seen_after = poll(phone, match, first["ETag"])
    assert seen_after.status_code == 200 and seen_after["ETag"] != first["ETag"]

    assert poll(holder(2), match, seen_after["ETag"]).status_code == 403  # another table's card
    cards.reissue(round_, 1, secretary)  # the old card stops working
    refused = poll(phone, match, seen_after["ETag"])
    assert refused.status_code == 403 and refused.content
    fresh_card = cards.cards_of(round_, [1])[1]
    new_phone = holder(1, fresh_card)
    current = poll(new_phone, match)
    assert poll(new_phone, match, current["ETag"]).status_code == 304
    Round.objects.filter(pk=round_.pk).update(closed_at=timezone.now())  # the round closed: no card works
    assert poll(new_phone, match, current["ETag"]).status_code == 403


def test_a_new_state_is_rendered_once_for_the_viewers_with_the_same_rights(
        member_client, scorekeeper_client, running_match, secretary, club, make_user):
    """Anna and Carla (members following the table) are sent the same bytes, the second
    without a template; the Protokollant, who may enter the next Spiel, his own."""
    from django.test import Client

    from league.models import Member

    carla_user = make_user("carla")
    Member.objects.create(club=club, name="Carla Zuschauer", user=carla_user)
    carla = Client()
    carla.force_login(carla_user)
    recording.add_event(running_match, "game", twins()["game"], user=secretary)
    annas = poll(member_client, running_match)
    carlas = poll(carla, running_match)
    assert annas.status_code == carlas.status_code == 200
    assert carlas.content == annas.content and carlas.parts == 0  # rendered once, for both
    assert annas["ETag"] != carlas["ETag"]  # each phone's own tag all the same
    keepers = poll(scorekeeper_client, running_match)
    assert keepers.parts and "Spiel 2 eintragen" in keepers.content.decode()
    assert "Spiel 2 eintragen" not in annas.content.decode()


def test_the_match_page_and_the_poll_share_the_state_rendered_for_the_same_rights(
        member_client, running_match, secretary, club, make_user):
    """Anna opens the match page after a Spiel is saved; Carla, a member too, polls the state and
    opens the page: she is sent the state Anna's page showed, the page's heading, buttons and
    "Games in detail" without their templates rendered again (protocol.sheet.page_parts)."""
    from django.test import Client

    from league.models import Member

    carla_user = make_user("carla")
    Member.objects.create(club=club, name="Carla Zuschauer", user=carla_user)
    carla = Client()
    carla.force_login(carla_user)
    recording.add_event(running_match, "game", twins()["game"], user=secretary)
    annas_page = member_client.get(url(running_match, "match"))
    assert annas_page.status_code == 200
    carlas_poll = poll(carla, running_match)
    with mock.patch.object(page_parts, "render", wraps=page_parts.render) as render:
        carlas_page = carla.get(url(running_match, "match"))
    assert render.call_count == 0  # the heading, the state and the buttons as Anna's page wrote them
    assert carlas_poll.status_code == 200 and carlas_poll.parts == 0
    assert carlas_poll.content.decode() in annas_page.content.decode()
    assert carlas_page.content.decode().count(carlas_poll.content.decode()) == 1
    assert "Spiele im Einzelnen" in carlas_page.content.decode()


def test_a_partie_is_read_through_its_statement_as_its_queryset_reads_it(finished_match, club, member_user):
    """Every page of a Partie reads it through the statement written once (protocol.views.common):
    the Partie, its club, season and winner are the very instances Django's queryset gives, with
    the viewer's roles; another club's address or a Partie that does not exist is a 404."""
    import pytest
    from django.http import Http404
    from django.test import RequestFactory

    from protocol.views.common import require_match

    def as_read(user, match, slug=None):
        request = RequestFactory().get("/")
        request.user = user
        return require_match(request, slug or club.slug, match.pk)

    read = as_read(member_user, finished_match)
    django = Match.objects.select_related("club", "season", "winner").get(pk=finished_match.pk)
    for one, other in ((read, django), (read.club, django.club), (read.season, django.season),
                       (read.winner, django.winner)):
        assert type(one) is type(other)
        if one is not None:
            assert {f.attname: getattr(one, f.attname) for f in one._meta.concrete_fields} == {
                f.attname: getattr(other, f.attname) for f in other._meta.concrete_fields}
    assert read.viewer_member and not read.viewer_secretary
    assert finished_match.winner_id is not None
    with pytest.raises(Http404):
        as_read(member_user, finished_match, slug="nachbarn")


def test_the_save_of_a_spiel_keeps_the_state_its_protokollants_other_phone_polls(
        scorekeeper, scorekeeper_client, running_match, django_capture_on_commit_callbacks):
    """The Protokollant saves Spiel 1 on his phone; his tablet at the table polls right after: it
    is sent the very state the save answered with, not written again (the save's answer keeps it
    under the key the poll reads: the same moment of the write, read back from the database)."""
    from django.test import Client

    from tests.conftest import saved
    from tests.integration.pages import game_post

    tablet = Client()
    tablet.force_login(scorekeeper)
    with django_capture_on_commit_callbacks(execute=True):
        answer = scorekeeper_client.post(url(running_match, "game_new"), game_post(running_match, twins()["game"]))
    assert saved(answer, running_match)
    polled = poll(tablet, running_match)
    assert polled.status_code == 200 and polled.parts == 0
    assert polled.content.decode() in answer.content.decode() and "Spiel 2 eintragen" in polled.content.decode()
