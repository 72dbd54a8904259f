"""The Schriftführer's pages: members, seasons, club settings and secretaries, per persona."""

import datetime

import pytest
from django.test import Client
from django.urls import reverse

from league.models import Club, Member, Season


@pytest.fixture
def season(club):
    return Season.objects.create(club=club, name="2026", start=datetime.date(2026, 1, 1),
                                 end=datetime.date(2026, 12, 31))


@pytest.fixture
def carla(club):
    return Member.objects.create(club=club, name="Carla")


@pytest.fixture
def second_secretary(club, make_user):
    user = make_user("zweite", first_name="Zora", last_name="Zweite")
    club.secretaries.add(user)
    return user


def url(name, club, **kwargs):
    return reverse(name, kwargs={"slug": club.slug, **kwargs})


def follow_messages(response):
    return [str(m) for m in response.context["messages"]]


# ---------- Who may do what ----------

def every_url(club, member, season, secretary):
    """(url, method, valid POST data) for every new address."""
    return [
        (url("club_members", club), "get", None),
        (url("member_add", club), "get", None),
        (url("member_add", club), "post", {"name": "Eindringling", "active": "on"}),
        (url("member_edit", club, pk=member.pk), "get", None),
        (url("member_edit", club, pk=member.pk), "post", {"name": "Umbenannt", "active": "on"}),
        (url("member_set_active", club, pk=member.pk), "post", {"active": "0"}),
        (url("club_seasons", club), "get", None),
        (url("season_add", club), "get", None),
        (url("season_add", club), "post", {"name": "Fremd", "start": "2027-01-01", "end": "2027-12-31",
                                           "ranking_rule": "ppg"}),
        (url("season_edit", club, pk=season.pk), "get", None),
        (url("season_edit", club, pk=season.pk), "post", {"name": "Fremd 2026", "start": "2026-01-01",
                                                          "end": "2026-12-31", "ranking_rule": "ppg"}),
        (url("club_settings", club), "get", None),
        (url("club_settings", club), "post", {"name": "Übernommen", "place": "", "standings_public": "on", "correction_window": 24, "correction_window_unit": "hours"}),
        (url("secretary_add", club), "post", {"username": "olaf"}),
        (url("secretary_remove", club, user_id=secretary.pk), "post", {}),
    ]


def snapshot(club):
    """Everything the pages could change, to prove a refused request changed nothing."""
    club.refresh_from_db()
    return (
        club.name, club.place, club.standings_public,
        sorted(club.secretaries.values_list("username", flat=True)),
        sorted(club.members.values_list("name", "active", "is_guest", "user_id")),
        sorted(club.seasons.values_list("name", "start", "end", "ranking_rule")),
    )


@pytest.mark.parametrize("persona", ["member_client", "scorekeeper_client", "outsider_client"])
def test_members_scorekeepers_and_outsiders_are_refused_every_page_and_change_nothing(
        request, persona, club, secretary, carla, season, outsider):
    client = request.getfixturevalue(persona)
    before = snapshot(club)
    for address, method, data in every_url(club, carla, season, secretary):
        response = getattr(client, method)(address, data) if data is not None else client.get(address)
        assert response.status_code == 403, (method, address)
        assert "Zugriff verweigert" in response.text
    assert snapshot(club) == before


def test_anonymous_visitors_are_sent_to_the_login_and_change_nothing(client, club, secretary, carla, season):
    before = snapshot(club)
    for address, method, data in every_url(club, carla, season, secretary):
        response = getattr(client, method)(address, data) if data is not None else client.get(address)
        assert response.status_code == 302, (method, address)
        assert response.url == f"{reverse('login')}?next={address}"
    assert snapshot(club) == before


def test_the_secretary_gets_every_page(secretary_client, club, carla, season):
    for name, kwargs in [("club_members", {}), ("member_add", {}), ("member_edit", {"pk": carla.pk}),
                         ("club_seasons", {}), ("season_add", {}), ("season_edit", {"pk": season.pk}),
                         ("club_settings", {})]:
        response = secretary_client.get(url(name, club, **kwargs))
        assert response.status_code == 200, name
        assert 'name="csrfmiddlewaretoken"' in response.text, name


def test_the_secretary_may_post_to_every_page(secretary_client, club, secretary, second_secretary,
                                              carla, season, outsider):
    for address, method, data in every_url(club, carla, season, second_secretary):
        if method == "post":
            response = secretary_client.post(address, data)
            assert response.status_code == 302, address
            assert "/konto/login/" not in response.url


def test_staff_may_manage_a_club_without_being_its_secretary(make_user, club):
    staff = Client()
    staff.force_login(make_user("betreiber", is_staff=True))
    assert staff.get(url("club_settings", club)).status_code == 200
    assert staff.get(url("club_members", club)).status_code == 200


def test_a_secretary_of_another_club_is_refused(make_user, club):
    other = Club.objects.create(name="Skatfreunde Wendlingen", slug="wendlingen")
    foreign = make_user("fremd")
    other.secretaries.add(foreign)
    client = Client()
    client.force_login(foreign)
    assert client.get(url("club_members", club)).status_code == 403


def test_a_member_of_another_club_cannot_be_edited_through_this_club(secretary_client, club):
    other = Club.objects.create(name="Skatfreunde Wendlingen", slug="wendlingen")
    stranger = Member.objects.create(club=other, name="Fremder")
    assert secretary_client.get(url("member_edit", club, pk=stranger.pk)).status_code == 404
    assert secretary_client.post(url("member_set_active", club, pk=stranger.pk), {"active": "0"}).status_code == 404
    stranger.refresh_from_db()
    assert stranger.active


def test_lists_refuse_posts_and_actions_refuse_gets(secretary_client, club, carla, secretary):
    assert secretary_client.post(url("club_members", club)).status_code == 405
    assert secretary_client.post(url("club_seasons", club)).status_code == 405
    assert secretary_client.get(url("member_set_active", club, pk=carla.pk)).status_code == 405
    assert secretary_client.get(url("secretary_add", club)).status_code == 405
    assert secretary_client.get(url("secretary_remove", club, user_id=secretary.pk)).status_code == 405


def test_a_post_without_csrf_token_is_refused(secretary, club):
    client = Client(enforce_csrf_checks=True)
    client.force_login(secretary)
    response = client.post(url("member_add", club), {"name": "Ohne Token", "active": "on"})
    assert response.status_code == 403
    assert not club.members.filter(name="Ohne Token").exists()


def test_the_club_page_links_the_administration_for_secretaries_only(secretary_client, member_client, club):
    links = [url("club_members", club), url("club_seasons", club), url("club_settings", club)]
    secretary_page = secretary_client.get(club.get_absolute_url()).text
    member_page = member_client.get(club.get_absolute_url()).text
    for link in links:
        assert f'href="{link}"' in secretary_page
        assert f'href="{link}"' not in member_page


# ---------- Members ----------

def test_the_members_page_lists_active_and_former_members_and_marks_guests(secretary_client, club,
                                                                           member_user):
    Member.objects.create(club=club, name="Gustav", is_guest=True)
    Member.objects.create(club=club, name="Ehemalige Erna", active=False)
    response = secretary_client.get(url("club_members", club))
    active, former = response.context["active_members"], response.context["former_members"]
    assert [m.name for m in active] == ["Anna", "Gustav", "Sabine"]
    assert [m.name for m in former] == ["Ehemalige Erna"]
    text = response.text
    assert "Mitglied hinzufügen" in text
    assert "Ehemalige Mitglieder" in text
    assert text.index("Gustav") < text.index('badge--accent">Gast') < text.index("Sabine")
    assert "Konto: anna" in text


def test_the_secretary_adds_a_member_with_a_linked_account(secretary_client, club, make_user):
    carla_user = make_user("carla")
    response = secretary_client.post(url("member_add", club), {
        "name": "Carla", "username": "carla", "is_guest": "on", "active": "on", "joined": "2024-03-01",
    }, follow=True)
    assert response.redirect_chain == [(url("club_members", club), 302)]
    assert "„Carla“ wurde zu den Mitgliedern hinzugefügt." in follow_messages(response)
    member = club.members.get(name="Carla")
    assert (member.user, member.is_guest, member.active, member.joined) == (
        carla_user, True, True, datetime.date(2024, 3, 1))


def test_a_member_needs_no_account(secretary_client, club):
    response = secretary_client.post(url("member_add", club), {"name": "Dieter", "active": "on"})
    assert response.status_code == 302
    assert club.members.get(name="Dieter").user is None


def test_the_secretary_renames_a_member_and_unlinks_the_account(secretary_client, club, member_user):
    anna = club.members.get(name="Anna")
    response = secretary_client.post(url("member_edit", club, pk=anna.pk),
                                     {"name": "Anna B.", "username": "", "active": "on"}, follow=True)
    assert "Das Mitglied „Anna B.“ wurde gespeichert." in follow_messages(response)
    anna.refresh_from_db()
    assert (anna.name, anna.user) == ("Anna B.", None)


def test_the_edit_form_shows_the_linked_account(secretary_client, club, member_user):
    anna = club.members.get(name="Anna")
    response = secretary_client.get(url("member_edit", club, pk=anna.pk))
    assert response.context["form"]["username"].value() == "anna"
    assert "Anna bearbeiten" in response.text


def test_saving_a_member_with_his_own_name_and_account_is_no_conflict(secretary_client, club, member_user):
    anna = club.members.get(name="Anna")
    response = secretary_client.post(url("member_edit", club, pk=anna.pk),
                                     {"name": "Anna", "username": "anna", "active": "on", "is_guest": "on"})
    assert response.status_code == 302
    anna.refresh_from_db()
    assert anna.is_guest and anna.user == member_user


@pytest.mark.parametrize("name", ["Anna", "anna"])
def test_a_member_name_taken_in_the_club_is_refused_in_german(secretary_client, club, member_user, name):
    before = snapshot(club)
    response = secretary_client.post(url("member_add", club), {"name": name, "active": "on"})
    assert response.status_code == 200
    assert response.context["form"].errors["name"]
    assert 'id="id_name_error"' in response.text
    assert "Im Verein gibt es schon ein Mitglied „Anna“" in response.text
    assert snapshot(club) == before


def test_renaming_a_member_to_a_taken_name_is_refused(secretary_client, club, member_user, carla):
    response = secretary_client.post(url("member_edit", club, pk=carla.pk), {"name": "Anna", "active": "on"})
    assert "Im Verein gibt es schon ein Mitglied „Anna“" in response.text
    assert "Carla bearbeiten" in response.text  # the header keeps the stored name
    carla.refresh_from_db()
    assert carla.name == "Carla"


def test_the_same_name_is_fine_in_another_club(secretary_client, club):
    other = Club.objects.create(name="Skatfreunde Wendlingen", slug="wendlingen")
    Member.objects.create(club=other, name="Carla")
    assert secretary_client.post(url("member_add", club), {"name": "Carla", "active": "on"}).status_code == 302


def test_an_unknown_username_is_refused_in_german(secretary_client, club):
    before = snapshot(club)
    response = secretary_client.post(url("member_add", club),
                                     {"name": "Carla", "username": "gibtsnicht", "active": "on"})
    assert response.status_code == 200
    assert 'id="id_username_error"' in response.text
    assert "Es gibt kein Benutzerkonto „gibtsnicht“." in response.text
    assert snapshot(club) == before


def test_an_account_of_another_member_of_the_club_is_refused_in_german(secretary_client, club, member_user):
    before = snapshot(club)
    response = secretary_client.post(url("member_add", club),
                                     {"name": "Anni", "username": "anna", "active": "on"})
    assert response.status_code == 200
    assert 'id="id_username_error"' in response.text
    assert "Das Konto „anna“ gehört schon zum Mitglied „Anna“ dieses Vereins." in response.text
    assert snapshot(club) == before


def test_a_username_typed_with_a_capital_letter_finds_the_account(secretary_client, club, make_user):
    carla_user = make_user("carla")
    secretary_client.post(url("member_add", club), {"name": "Carla", "username": "Carla", "active": "on"})
    assert club.members.get(name="Carla").user == carla_user


def test_setting_a_member_inactive_keeps_her_as_a_former_member(secretary_client, club, carla):
    response = secretary_client.post(url("member_set_active", club, pk=carla.pk), {"active": "0"}, follow=True)
    assert response.redirect_chain == [(url("club_members", club), 302)]
    assert [m.name for m in response.context["former_members"]] == ["Carla"]
    assert any("Carla ist jetzt ehemaliges Mitglied" in m for m in follow_messages(response))
    carla.refresh_from_db()
    assert not carla.active

    secretary_client.post(url("member_set_active", club, pk=carla.pk), {"active": "1"})
    carla.refresh_from_db()
    assert carla.active


def test_members_can_be_set_inactive_but_never_deleted(secretary_client, club, carla):
    page = secretary_client.get(url("member_edit", club, pk=carla.pk)).text
    assert "inaktiv setzen" in page.lower()
    assert "löschen" not in page.lower()


# ---------- Seasons ----------

def test_the_seasons_page_lists_the_seasons_with_their_rule(secretary_client, club, season):
    response = secretary_client.get(url("club_seasons", club))
    assert "Saison hinzufügen" in response.text
    assert url("season_edit", club, pk=season.pk) in response.text
    assert "Siege, dann Punkte je Spiel" in response.text


def test_the_secretary_adds_a_season(secretary_client, club):
    response = secretary_client.post(url("season_add", club), {
        "name": "2027", "start": "2027-01-01", "end": "2027-12-31", "ranking_rule": "total",
    }, follow=True)
    assert response.redirect_chain == [(url("club_seasons", club), 302)]
    assert "Die Saison „2027“ wurde angelegt." in follow_messages(response)
    season = club.seasons.get(name="2027")
    assert (season.start, season.end, season.ranking_rule) == (
        datetime.date(2027, 1, 1), datetime.date(2027, 12, 31), Season.RankingRule.TOTAL)


def test_the_season_form_offers_every_ranking_rule(secretary_client, club):
    form = secretary_client.get(url("season_add", club)).context["form"]
    assert [value for value, _ in form.fields["ranking_rule"].choices] == Season.RankingRule.values


def test_the_secretary_edits_a_season(secretary_client, club, season):
    response = secretary_client.post(url("season_edit", club, pk=season.pk), {
        "name": "Saison 2026", "start": "2026-02-01", "end": "2026-11-30", "ranking_rule": "ppg",
    }, follow=True)
    assert "Die Saison „Saison 2026“ wurde gespeichert." in follow_messages(response)
    season.refresh_from_db()
    assert (season.name, season.start, season.ranking_rule) == ("Saison 2026", datetime.date(2026, 2, 1), "ppg")


def test_a_season_name_taken_in_the_club_is_refused_in_german(secretary_client, club, season):
    before = snapshot(club)
    response = secretary_client.post(url("season_add", club), {
        "name": "2026", "start": "2027-01-01", "end": "2027-12-31", "ranking_rule": "ppg",
    })
    assert response.status_code == 200
    assert 'id="id_name_error"' in response.text
    assert "Im Verein gibt es schon eine Saison „2026“." in response.text
    assert snapshot(club) == before


def test_a_season_ending_before_it_starts_is_refused_in_german(secretary_client, club):
    before = snapshot(club)
    response = secretary_client.post(url("season_add", club), {
        "name": "Rückwärts", "start": "2027-12-31", "end": "2027-01-01", "ranking_rule": "ppg",
    })
    assert response.status_code == 200
    assert 'id="id_end_error"' in response.text
    assert "Die Saison kann nicht enden, bevor sie beginnt." in response.text
    assert "violated" not in response.text  # the model's own English check is not repeated
    assert snapshot(club) == before


def test_a_season_of_a_single_day_is_fine(secretary_client, club):
    response = secretary_client.post(url("season_add", club), {
        "name": "Turnier", "start": "2027-05-01", "end": "2027-05-01", "ranking_rule": "ppg",
    })
    assert response.status_code == 302


# ---------- Club settings and secretaries ----------

def test_the_settings_page_explains_what_a_public_table_means(secretary_client, club):
    response = secretary_client.get(url("club_settings", club))
    assert "Tabelle öffentlich" in response.text
    assert "auch ohne Konto" in response.text


def test_making_the_table_public_opens_the_club_page_to_anonymous_visitors(secretary_client, client, club):
    assert client.get(club.get_absolute_url()).status_code == 302
    response = secretary_client.post(url("club_settings", club), {
        "name": club.name, "place": "Nürtingen", "standings_public": "on", "correction_window": 24, "correction_window_unit": "hours",
    }, follow=True)
    assert "Die Einstellungen des Vereins wurden gespeichert." in follow_messages(response)
    public = client.get(club.get_absolute_url())
    assert public.status_code == 200
    assert "öffentliche Tabelle" in public.text

    secretary_client.post(url("club_settings", club), {"name": club.name, "place": "Nürtingen", "correction_window": 24, "correction_window_unit": "hours"})
    assert client.get(club.get_absolute_url()).status_code == 302


def test_the_secretary_renames_the_club(secretary_client, club):
    secretary_client.post(url("club_settings", club), {"name": "CTV Nürtingen", "place": "Oberensingen", "correction_window": 24, "correction_window_unit": "hours"})
    club.refresh_from_db()
    assert (club.name, club.place, club.slug) == ("CTV Nürtingen", "Oberensingen", "ctv")


def test_a_club_name_taken_by_another_club_is_refused_in_german(secretary_client, club):
    Club.objects.create(name="Skatfreunde Wendlingen", slug="wendlingen")
    before = snapshot(club)
    response = secretary_client.post(url("club_settings", club), {"name": "Skatfreunde Wendlingen"})
    assert response.status_code == 200
    assert 'id="id_name_error"' in response.text
    assert "Ein anderer Verein heißt schon so." in response.text
    assert "<h1>Vereinseinstellungen</h1>" in response.text
    assert snapshot(club) == before


@pytest.mark.parametrize("name", ["1. ctv GEGEN alles!", "1. CTV  gegen alles!", "1. CTV gеgen аlles!",  # Cyrillic е, а
                                  "１. CTV gegen alles!"])  # a full-width digit
def test_another_club_cannot_take_a_case_or_lookalike_variant_of_a_clubs_name(client, club, make_user, name):
    other = Club.objects.create(name="Skatfreunde Wendlingen", slug="wendlingen")
    their_secretary = make_user("wendel")
    other.secretaries.add(their_secretary)
    client.force_login(their_secretary)
    before = snapshot(other)
    response = client.post(url("club_settings", other), {"name": name, "place": ""})
    assert response.status_code == 200 and 'id="id_name_error"' in response.text
    assert ("Es gibt schon einen Verein „1. CTV gegen alles!“; dieser Name ist davon kaum zu unterscheiden."
            in response.text)
    assert snapshot(other) == before


def test_a_club_may_change_the_case_of_its_own_name(secretary_client, club):
    response = secretary_client.post(url("club_settings", club), {"name": "1. CTV GEGEN ALLES!", "place": "Nürtingen",
                                                                "correction_window": 24,
                                                                "correction_window_unit": "hours"})
    assert response.status_code == 302
    club.refresh_from_db()
    assert club.name == "1. CTV GEGEN ALLES!"


def test_the_secretary_adds_a_secretary_by_username(secretary_client, club, outsider):
    response = secretary_client.post(url("secretary_add", club), {"username": "olaf"}, follow=True)
    assert response.redirect_chain == [(url("club_settings", club), 302)]
    assert "Olaf ist jetzt Schriftführer des Vereins." in follow_messages(response)
    assert club.secretaries.filter(pk=outsider.pk).exists()


def test_an_unknown_username_cannot_become_secretary(secretary_client, club):
    before = snapshot(club)
    response = secretary_client.post(url("secretary_add", club), {"username": "niemand"})
    assert response.status_code == 200
    assert 'id="id_username_error"' in response.text
    assert "Es gibt kein Benutzerkonto „niemand“." in response.text
    assert snapshot(club) == before


def test_a_secretary_cannot_be_added_twice(secretary_client, club):
    response = secretary_client.post(url("secretary_add", club), {"username": "schriftfuehrer"})
    assert "schriftfuehrer ist schon Schriftführer dieses Vereins." in response.text
    assert club.secretaries.count() == 1


def test_the_secretary_removes_another_secretary(secretary_client, club, secretary, second_secretary):
    response = secretary_client.post(url("secretary_remove", club, user_id=second_secretary.pk), follow=True)
    assert response.redirect_chain == [(url("club_settings", club), 302)]
    assert "Zora Zweite ist nicht mehr Schriftführer des Vereins." in follow_messages(response)
    assert list(club.secretaries.all()) == [secretary]


def test_the_last_secretary_cannot_remove_himself(secretary_client, club, secretary):
    page = secretary_client.get(url("club_settings", club))
    assert url("secretary_remove", club, user_id=secretary.pk) not in page.text
    response = secretary_client.post(url("secretary_remove", club, user_id=secretary.pk), follow=True)
    assert response.redirect_chain == [(url("club_settings", club), 302)]
    assert any("einzige Schriftführer" in m for m in follow_messages(response))
    assert list(club.secretaries.all()) == [secretary]


def test_a_secretary_may_leave_when_another_remains_and_then_loses_access(secretary_client, club, secretary,
                                                                            second_secretary):
    response = secretary_client.post(url("secretary_remove", club, user_id=secretary.pk))
    assert response.status_code == 302
    assert response.url == club.get_absolute_url()
    assert list(club.secretaries.all()) == [second_secretary]
    assert secretary_client.get(url("club_settings", club)).status_code == 403


def test_removing_someone_who_is_no_secretary_is_a_404(secretary_client, club, outsider):
    assert secretary_client.post(url("secretary_remove", club, user_id=outsider.pk)).status_code == 404


def test_staff_cannot_remove_the_last_secretary_either(make_user, club, secretary):
    staff = make_user("stefan", is_staff=True)
    client = Client()
    client.force_login(staff)
    assert url("secretary_remove", club, user_id=secretary.pk) not in client.get(url("club_settings", club)).text
    response = client.post(url("secretary_remove", club, user_id=secretary.pk), follow=True)
    assert any("Sabine Schreiber ist der einzige Schriftführer" in m for m in follow_messages(response))
    assert list(club.secretaries.all()) == [secretary]

