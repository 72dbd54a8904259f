"""The home page, the login page and what each persona may see of a club."""

from django.urls import reverse

from league.models import Club


def test_german_is_the_default_language(client, club):  # `club`: a running site (a fresh one starts with the first run)
    response = client.get("/")
    assert response.status_code == 200
    assert 'lang="de"' in response.text
    assert "Anmelden" in response.text


def test_an_english_browser_gets_english(client, club):
    response = client.get("/", headers={"accept-language": "en"})
    assert 'lang="en"' in response.text
    assert "Log in" in response.text


def test_anonymous_home_explains_trumpfbuch_and_links_to_login(client, club):
    response = client.get("/")
    assert "Das Spielprotokoll für Ihren Kartenspielverein" in response.text
    assert reverse("login") in response.text


def test_home_lists_clubs_with_public_standings_only(client, club):
    Club.objects.create(name="Skatfreunde Wendlingen", slug="wendlingen", standings_public=True)
    response = client.get("/")
    assert "Skatfreunde Wendlingen" in response.text
    assert club.name not in response.text


def test_members_see_their_club_on_the_home_page(member_client, club):
    response = member_client.get("/")
    assert "Hallo, Anna" in response.text
    assert club.get_absolute_url() in response.text
    assert "Mitglied" in response.text


def test_secretaries_see_their_role_on_the_home_page(secretary_client, club):
    response = secretary_client.get("/")
    assert club.get_absolute_url() in response.text
    assert "Schriftführer" in response.text


def test_a_user_without_club_is_told_how_to_get_linked(outsider_client, club):
    response = outsider_client.get("/")
    assert "noch keinem Verein zugeordnet" in response.text


def test_secretary_sees_the_full_club_page(secretary_client, club, member_user):
    response = secretary_client.get(club.get_absolute_url())
    assert response.status_code == 200
    assert "Mitglieder" in response.text
    assert "Anna" in response.text


def test_member_sees_the_full_club_page(member_client, club):
    response = member_client.get(club.get_absolute_url())
    assert response.status_code == 200
    assert "Mitglieder" in response.text


def test_outsider_is_refused_a_private_club(outsider_client, club):
    response = outsider_client.get(club.get_absolute_url())
    assert response.status_code == 403
    assert "Zugriff verweigert" in response.text


def test_anonymous_is_sent_to_login_for_a_private_club(client, club):
    response = client.get(club.get_absolute_url())
    assert response.status_code == 302
    assert response.url == f"{reverse('login')}?next={club.get_absolute_url()}"


def test_public_standings_show_the_table_but_not_the_members(client, outsider_client, club, member_user):
    club.standings_public = True
    club.save()
    for visitor in (client, outsider_client):
        response = visitor.get(club.get_absolute_url())
        assert response.status_code == 200
        assert "öffentliche Tabelle" in response.text
        assert 'id="members-title"' not in response.text
        assert "Anna" not in response.text


def test_an_unknown_club_is_a_german_404(client, db):
    response = client.get("/verein/gibt-es-nicht/")
    assert response.status_code == 404
    assert "Seite nicht gefunden" in response.text


def test_the_login_page_logs_a_member_in(client, member_user, password):
    page = client.get(reverse("login"))
    assert page.status_code == 200
    assert "Benutzername" in page.text

    response = client.post(reverse("login"), {"username": "anna", "password": password})
    assert response.status_code == 302
    assert client.get("/").context["user"] == member_user


def test_a_wrong_password_shows_an_error_next_to_the_form(client, member_user):
    response = client.post(reverse("login"), {"username": "anna", "password": "falsch"})
    assert response.status_code == 200
    assert 'role="alert"' in response.text
    assert "Bitte Benutzername und Passwort eingeben" in response.text


def test_logging_out_is_a_post_and_returns_home(member_client):
    response = member_client.post(reverse("logout"))
    assert response.status_code == 302
    assert response.url == reverse("home")


def test_staff_can_manage_clubs_in_the_admin(make_user, club, member_user):
    from django.test import Client

    staff = make_user("betreiber", is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(staff)
    assert client.get(reverse("admin:league_club_changelist")).status_code == 200
    change = client.get(reverse("admin:league_club_change", args=[club.pk]))
    assert change.status_code == 200
    assert "Anna" in change.text
    assert client.get(reverse("admin:league_season_add")).status_code == 200


def test_every_page_loads_htmx_from_our_own_server(client, club):
    response = client.get("/")
    assert '<script src="/static/vendor/htmx/htmx.min.js" defer></script>' in response.text
