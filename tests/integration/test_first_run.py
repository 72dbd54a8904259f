"""A fresh site: its first visitor sets up the club and its secretary; `create_club` does it
from the shell. Once a club exists the first-run page is gone: nobody takes over a running site."""

import re
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from league.models import Club
from tests.conftest import can_log_in

pytestmark = pytest.mark.django_db

FOUNDING = {"club_name": "Skatfreunde Kirchheim", "place": "Kirchheim", "display_name": "Sabine",
            "plays": "on", "username": "sabine", "password1": "Herz-Dame-sticht", "password2": "Herz-Dame-sticht"}


def test_a_fresh_site_leads_its_first_visitor_to_the_first_run_page(client):
    response = client.get("/")
    assert response.status_code == 302 and response["Location"] == reverse("first_run")
    page = client.get(reverse("first_run")).content.decode()
    assert "Verein einrichten" in page and "Schriftführer" in page


def test_the_first_visitor_creates_the_club_and_becomes_its_logged_in_secretary(client):
    response = client.post(reverse("first_run"), FOUNDING, follow=True)
    club = Club.objects.get()
    assert (club.name, club.place, club.slug) == ("Skatfreunde Kirchheim", "Kirchheim", "skatfreunde-kirchheim")
    sabine = get_user_model().objects.get(username="sabine")
    assert list(club.secretaries.all()) == [sabine] and sabine.check_password("Herz-Dame-sticht")
    assert club.members.get().user == sabine and club.members.get().name == "Sabine"  # she plays
    assert response.wsgi_request.user == sabine
    assert response.redirect_chain[-1][0] == reverse("club_members", kwargs={"slug": club.slug})
    assert "Mitglied hinzufügen" in response.content.decode()
    assert can_log_in("sabine", "Herz-Dame-sticht")


def test_a_secretary_who_does_not_play_is_no_member(client):
    client.post(reverse("first_run"), {**FOUNDING, "plays": ""})
    assert Club.objects.get().members.count() == 0


def test_once_a_club_exists_the_first_run_page_is_gone(club, client, secretary_client):
    for visitor in (client, secretary_client):
        assert visitor.get(reverse("first_run")).status_code == 404
        assert visitor.post(reverse("first_run"), FOUNDING).status_code == 404
    assert list(Club.objects.all()) == [club]
    assert not get_user_model().objects.filter(username="sabine").exists()
    assert client.get("/").status_code == 200  # the home page is the home page again


@pytest.mark.parametrize("change,field,message", [
    ({"password2": "Herz-Dame-stich"}, "password2", "nicht identisch"),
    ({"password1": "123", "password2": "123"}, "password2", "zu kurz"),
    ({"club_name": ""}, "club_name", "Dieses Feld ist zwingend erforderlich."),
    ({"club_name": "Skat\x07freunde"}, "club_name", "Name des Vereins"),
    ({"username": "sabine schreiber"}, "username", "Benutzername"),
])
def test_bad_input_is_refused_at_its_field_in_german_and_nothing_is_saved(client, change, field, message):
    response = client.post(reverse("first_run"), {**FOUNDING, **change})
    assert response.status_code == 200
    errors = " ".join(response.context["form"].errors[field])
    assert message in errors, errors
    assert not Club.objects.exists() and not get_user_model().objects.exists()


def test_create_club_prints_a_one_time_link_that_sets_the_secretarys_password(db, settings):
    settings.SITE_URL = "https://trumpfbuch.example"
    out = StringIO()
    call_command("create_club", "Tarotrunde Esslingen", "--secretary", "theo", "--place", "Esslingen", stdout=out)
    club = Club.objects.get(name="Tarotrunde Esslingen")
    theo = get_user_model().objects.get(username="theo")
    assert list(club.secretaries.all()) == [theo] and not theo.has_usable_password()
    link = re.search(r"https://trumpfbuch\.example(/konto/reset/\S+)", out.getvalue()).group(1)

    browser = Client()
    form_page = browser.get(link, follow=True)
    assert "Passwort setzen" in form_page.content.decode() and "Django" not in form_page.content.decode()
    done = browser.post(form_page.redirect_chain[-1][0], {"new_password1": "Excuse-le-petit", "new_password2": "Excuse-le-petit"},
                        follow=True)
    assert "Passwort gespeichert" in done.content.decode()
    assert can_log_in("theo", "Excuse-le-petit")
    again = Client().get(link, follow=True).content.decode()  # the link works once
    assert "Dieser Link funktioniert nicht mehr" in again


def test_create_club_needs_the_sites_address_and_a_new_name(club, settings):
    settings.SITE_URL = ""
    with pytest.raises(CommandError, match="SITE_URL"):
        call_command("create_club", "Neu", "--secretary", "neu", stdout=StringIO())
    with pytest.raises(CommandError, match="schon einen Verein"):
        call_command("create_club", club.name, "--secretary", "neu", "--base-url", "http://x.example", stdout=StringIO())
    assert not get_user_model().objects.filter(username="neu").exists()


@pytest.mark.parametrize("name", ["1. ctv GEGEN alles!", "1. CTV gеgen аlles!"])  # case; Cyrillic е, а
def test_create_club_refuses_a_case_or_lookalike_variant_of_a_clubs_name(club, name):
    with pytest.raises(CommandError, match="kaum zu unterscheiden") as refused:
        call_command("create_club", name, "--secretary", "neu", "--base-url", "http://x.example", stdout=StringIO())
    assert "1. CTV gegen alles!" in str(refused.value) and refused.value.returncode == 1
    assert list(Club.objects.values_list("name", flat=True)) == [club.name]


def test_create_club_makes_an_existing_account_secretary_without_touching_its_password(club, member_user, password):
    out = StringIO()
    call_command("create_club", "Zweiter Verein", "--secretary", "anna", "--base-url", "http://x.example", stdout=out)
    assert member_user in Club.objects.get(name="Zweiter Verein").secretaries.all()
    assert "bisherigen Passwort" in out.getvalue() and "/konto/reset/" not in out.getvalue()
    assert can_log_in("anna", password)


def test_a_club_founded_meanwhile_wins_and_the_late_visitor_gets_nothing(club, client, monkeypatch):
    # Two first visitors: the other one's club was saved after this one's page was checked.
    # The founding asks again inside its transaction (with the table locked on PostgreSQL).
    from league.accounts import views
    monkeypatch.setattr(views, "site_is_new", lambda: True)
    assert client.post(reverse("first_run"), FOUNDING).status_code == 404
    assert list(Club.objects.all()) == [club]
    assert not get_user_model().objects.filter(username="sabine").exists()
