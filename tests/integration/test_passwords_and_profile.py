"""Passwords in the site's own pages and language, and a member's own profile."""

import re

import pytest
from django.urls import reverse

from tests.conftest import can_log_in

pytestmark = pytest.mark.django_db


def test_the_login_page_offers_a_forgotten_password(client):
    page = client.get(reverse("login")).content.decode()
    assert "Passwort vergessen?" in page and reverse("password_reset") in page


def test_a_password_reset_through_the_sites_pages_by_mail(client, member_user, mailoutbox):
    member_user.email = "anna@example.org"
    member_user.save()
    page = client.get(reverse("password_reset")).content.decode()
    assert "Passwort vergessen?" in page and "Django" not in page
    response = client.post(reverse("password_reset"), {"email": "anna@example.org"}, follow=True)
    assert "Sehen Sie in Ihr Postfach" in response.content.decode()
    (mail,) = mailoutbox
    assert mail.subject == "Trumpfbuch: ein neues Passwort" and "anna" in mail.body
    link = re.search(r"http://testserver(/konto/reset/\S+)", mail.body).group(1)
    form = client.get(link, follow=True)
    assert "Passwort setzen" in form.content.decode()
    done = client.post(form.redirect_chain[-1][0], {"new_password1": "Kreuz-Zehn-1", "new_password2": "Kreuz-Zehn-1"},
                       follow=True)
    assert "Passwort gespeichert" in done.content.decode()
    assert can_log_in("anna", "Kreuz-Zehn-1")


def test_a_site_without_mail_sends_the_member_to_the_secretary(client, member_user, settings, mailoutbox):
    settings.EMAIL_BACKEND = settings.NO_MAIL_BACKEND
    member_user.email = "anna@example.org"
    member_user.save()
    page = client.get(reverse("password_reset")).content.decode()
    assert "verschickt keine E-Mails" in page and "Schriftführer" in page and 'name="email"' not in page
    client.post(reverse("password_reset"), {"email": "anna@example.org"})
    assert mailoutbox == []


def test_the_password_change_page_is_the_sites_own(member_client, password):
    page = member_client.get(reverse("password_change")).content.decode()
    assert "Passwort ändern" in page and "Django-Verwaltung" not in page and "site-header" in page
    response = member_client.post(reverse("password_change"), {
        "old_password": password, "new_password1": "Herz-As-2027", "new_password2": "Herz-As-2027"}, follow=True)
    assert "Passwort geändert" in response.content.decode()
    assert can_log_in("anna", "Herz-As-2027")


def test_a_member_edits_his_display_name_and_mail_address(member_client, member_user):
    page = member_client.get(reverse("profile")).content.decode()
    assert "Ihr Profil" in page and "1. CTV gegen alles!" in page
    response = member_client.post(reverse("profile"), {"first_name": "Anna-Lena", "last_name": "Aigner",
                                                       "email": "anna@example.org"}, follow=True)
    assert "Angemeldet als Anna-Lena Aigner" in response.content.decode()
    member_user.refresh_from_db()
    assert (member_user.first_name, member_user.last_name, member_user.email) == ("Anna-Lena", "Aigner", "anna@example.org")


def test_a_display_name_with_control_characters_is_refused_at_its_field(member_client, member_user):
    response = member_client.post(reverse("profile"), {"first_name": "Anna\x00", "last_name": "", "email": ""})
    assert response.status_code == 200
    assert "Vorname" in " ".join(response.context["form"].errors["first_name"])
    assert "Angemeldet als Anna." in response.content.decode()  # the header keeps the stored name
    member_user.refresh_from_db()
    assert member_user.first_name == "Anna"


def test_the_profile_needs_a_login(client):
    response = client.get(reverse("profile"))
    assert response.status_code == 302 and "/konto/login/" in response["Location"]
