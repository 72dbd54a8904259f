import datetime

import pytest
from django.db import IntegrityError, transaction

from league.models import Club, Member, Season
from league.registry import access


def test_a_member_name_is_unique_within_a_club(club):
    Member.objects.create(club=club, name="Bernd")
    with pytest.raises(IntegrityError), transaction.atomic():
        Member.objects.create(club=club, name="Bernd")


def test_two_clubs_may_each_have_a_bernd(club):
    other = Club.objects.create(name="Skatfreunde", slug="skat")
    Member.objects.create(club=club, name="Bernd")
    Member.objects.create(club=other, name="Bernd")
    assert Member.objects.filter(name="Bernd").count() == 2


def test_one_account_is_at_most_one_member_per_club(club, member_user):
    with pytest.raises(IntegrityError), transaction.atomic():
        Member.objects.create(club=club, name="Anna II", user=member_user)


def test_many_members_without_account_are_fine(club):
    Member.objects.create(club=club, name="Carla")
    Member.objects.create(club=club, name="Dieter")
    assert club.members.filter(user__isnull=True).count() == 2


def test_a_season_name_is_unique_within_a_club(club):
    Season.objects.create(club=club, name="2026", start=datetime.date(2026, 1, 1), end=datetime.date(2026, 12, 31))
    with pytest.raises(IntegrityError), transaction.atomic():
        Season.objects.create(club=club, name="2026", start=datetime.date(2026, 1, 1), end=datetime.date(2026, 6, 30))


def test_a_season_cannot_end_before_it_starts(club):
    with pytest.raises(IntegrityError), transaction.atomic():
        Season.objects.create(club=club, name="verkehrt", start=datetime.date(2026, 6, 1), end=datetime.date(2026, 1, 1))


def test_new_seasons_rank_by_wins_then_points_per_game(club):
    season = Season.objects.create(club=club, name="2026", start=datetime.date(2026, 1, 1), end=datetime.date(2026, 12, 31))
    assert season.ranking_rule == Season.RankingRule.WINS_THEN_PPG


def test_current_season_is_the_one_containing_the_date(club):
    Season.objects.create(club=club, name="2025", start=datetime.date(2025, 1, 1), end=datetime.date(2025, 12, 31))
    season_2026 = Season.objects.create(club=club, name="2026", start=datetime.date(2026, 1, 1), end=datetime.date(2026, 12, 31))
    assert Season.current_for(club, datetime.date(2026, 11, 20)) == season_2026
    assert Season.current_for(club, datetime.date(2027, 1, 1)) is None


def test_current_season_belongs_to_the_given_club(club):
    other = Club.objects.create(name="Skatfreunde", slug="skat")
    Season.objects.create(club=other, name="2026", start=datetime.date(2026, 1, 1), end=datetime.date(2026, 12, 31))
    assert Season.current_for(club, datetime.date(2026, 6, 1)) is None


def test_roles_follow_the_registry(club, secretary, member_user, outsider):
    assert access.is_secretary(secretary, club)
    assert not access.is_secretary(member_user, club)
    assert access.is_member(member_user, club)
    assert not access.is_member(outsider, club)
    assert access.can_manage_club(secretary, club)
    assert not access.can_manage_club(member_user, club)


def test_staff_may_view_any_club_but_outsiders_only_public_standings(club, outsider, make_user):
    staff = make_user("betreiber", is_staff=True)
    assert access.can_view_club_data(staff, club)
    assert not access.can_view_standings(outsider, club)
    club.standings_public = True
    assert access.can_view_standings(outsider, club)
    assert not access.can_view_club_data(outsider, club)
