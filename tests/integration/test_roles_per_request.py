"""The user's roles in a club are asked of the database once per request, and kept beyond it only
per the club's version, which every change of a role moves: a role that changes during the
request is asked again, and the next request sees the change."""

from django.db import connection
from django.test.utils import CaptureQueriesContext

from league.registry import access


def test_a_page_asking_several_questions_asks_the_database_once(club, secretary):
    with access.roles_per_request(), CaptureQueriesContext(connection) as asked:
        assert access.can_manage_club(secretary, club)
        assert access.can_view_club_data(secretary, club)
        assert access.is_member(secretary, club) and access.is_secretary(secretary, club)
    assert len(asked) == 1, [q["sql"] for q in asked.captured_queries]


def test_a_secretary_removed_during_the_request_is_no_longer_one_in_it(club, secretary, make_user):
    other = make_user("zora")
    club.secretaries.add(other)
    with access.roles_per_request():
        assert access.can_manage_club(secretary, club)
        club.secretaries.remove(secretary)
        assert not access.can_manage_club(secretary, club)


def test_a_member_linked_during_the_request_is_one_in_it(club, outsider):
    with access.roles_per_request():
        assert not access.can_view_club_data(outsider, club)
        club.members.create(name="Olaf", user=outsider)
        assert access.can_view_club_data(outsider, club)


def test_nothing_is_kept_on_the_user_for_the_next_request(club, secretary, make_user):
    club.secretaries.add(make_user("zora"))
    with access.roles_per_request():
        assert access.is_secretary(secretary, club)
    club.secretaries.remove(secretary)
    with access.roles_per_request():
        assert not access.is_secretary(secretary, club)
    assert not access.is_secretary(secretary, club)  # outside a request: asked every time


def test_a_secretary_removed_either_way_is_refused_at_the_next_request(club, secretary, secretary_client,
                                                                      running_match):
    from tests.integration.pages import url

    page = url(running_match, "settings")  # a Partie's page: its roles asked through the match
    assert secretary_client.get(page).status_code == 200
    assert secretary_client.get(page).status_code == 200  # his roles kept per the club's version
    club.secretaries.remove(secretary)
    assert secretary_client.get(page).status_code == 403
    secretary.secretary_of_clubs.add(club)  # from the user's side
    assert secretary_client.get(page).status_code == 200
    secretary.secretary_of_clubs.clear()
    assert secretary_client.get(page).status_code == 403
