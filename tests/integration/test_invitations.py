"""Accounts without a mail server: the secretary hands each member a one-time, expiring link
(with its QR code) to set a password; he deactivates an account without losing its history."""

import datetime
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from league.accounts.invitations import invitation_tokens
from league.models import Club, Member
from tests.conftest import can_log_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def carla(club):
    """A member without an account."""
    return Member.objects.create(club=club, name="Carla Groß")


def invitation_link(secretary_client, club, member):
    response = secretary_client.get(reverse("member_invitation", kwargs={"slug": club.slug, "pk": member.pk}))
    assert response.status_code == 200
    match = re.search(r'id="invitation-link">http://testserver(/konto/einladung/[^<]+)<', response.content.decode())
    return match.group(1) if match else None


def test_the_members_page_offers_each_member_an_invitation(secretary_client, club, carla, member_user):
    page = secretary_client.get(reverse("club_members", kwargs={"slug": club.slug})).content.decode()
    assert reverse("member_invitation", kwargs={"slug": club.slug, "pk": carla.pk}) in page
    assert "Einladung" in page and "Neuer Link" in page  # Carla has no account, Anna has one


def test_the_invitation_page_shows_the_link_and_its_qr_code_within_the_csp(secretary_client, club, carla):
    response = secretary_client.get(reverse("member_invitation", kwargs={"slug": club.slug, "pk": carla.pk}))
    page = response.content.decode()
    assert invitation_link(secretary_client, club, carla)
    svg = re.search(r"<svg.*?</svg>", page, re.S).group(0)
    assert 'class="qr-code"' in svg and "<title>QR-Code des Einladungslinks für Carla Groß</title>" in svg
    assert "style=" not in svg and "<script" not in svg  # style-src 'self': no inline styles
    assert "style-src 'self'" in response["Content-Security-Policy"]
    assert "14 Tage" in page


def test_a_member_without_account_chooses_a_name_and_password_and_is_logged_in(secretary_client, club, carla):
    link = invitation_link(secretary_client, club, carla)
    visitor = Client()
    form = visitor.get(link)
    assert form.context["form"]["username"].value() == "carla-gross"  # a suggestion
    response = visitor.post(link, {"username": "carla", "password1": "Pik-Bube-sticht", "password2": "Pik-Bube-sticht"},
                            follow=True)
    carla.refresh_from_db()
    assert carla.user.username == "carla" and carla.user.first_name == "Carla Groß"
    assert response.wsgi_request.user == carla.user
    assert response.redirect_chain[-1][0] == club.get_absolute_url()
    assert can_log_in("carla", "Pik-Bube-sticht")


def test_the_link_works_once(secretary_client, club, carla):
    link = invitation_link(secretary_client, club, carla)
    Client().post(link, {"username": "carla", "password1": "Pik-Bube-sticht", "password2": "Pik-Bube-sticht"})
    again = Client().get(link)
    assert "Dieser Link funktioniert nicht mehr" in again.content.decode()
    takeover = Client().post(link, {"username": "mallory", "password1": "Pik-Bube-sticht", "password2": "Pik-Bube-sticht"})
    assert "schon benutzt" in takeover.content.decode()
    assert not get_user_model().objects.filter(username="mallory").exists()
    carla.refresh_from_db()
    assert carla.user.username == "carla"


def test_an_expired_link_says_so(secretary_client, club, carla, monkeypatch, settings):
    link = invitation_link(secretary_client, club, carla)
    later = datetime.datetime.now() + datetime.timedelta(seconds=settings.INVITATION_TIMEOUT + 60)
    monkeypatch.setattr(invitation_tokens, "_now", lambda: later)
    page = Client().get(link).content.decode()
    assert "Dieser Link ist abgelaufen" in page and "neuen Link" in page
    Client().post(link, {"username": "carla", "password1": "Pik-Bube-sticht", "password2": "Pik-Bube-sticht"})
    carla.refresh_from_db()
    assert carla.user is None


def test_a_tampered_link_is_refused(secretary_client, club, carla, member_user):
    link = invitation_link(secretary_client, club, carla)
    anna = Member.objects.get(user=member_user)
    forged = link.replace(f"/einladung/{carla.pk}/", f"/einladung/{anna.pk}/")
    assert "funktioniert nicht mehr" in Client().get(forged).content.decode()
    assert "funktioniert nicht mehr" in Client().get(link[:-3] + "x/").content.decode()


def test_a_taken_user_name_and_a_weak_password_are_refused_in_german(secretary_client, club, carla, member_user):
    link = invitation_link(secretary_client, club, carla)
    response = Client().post(link, {"username": "Anna", "password1": "carla", "password2": "carla"})
    errors = response.context["form"].errors
    assert "ist vergeben" in " ".join(errors["username"])
    assert "zu kurz" in " ".join(errors["password2"])
    carla.refresh_from_db()
    assert carla.user is None


def test_a_member_with_an_account_sets_a_new_password_with_a_fresh_link(secretary_client, club, member_user, password):
    anna = Member.objects.get(user=member_user)
    link = invitation_link(secretary_client, club, anna)
    visitor = Client()
    assert "anna" in visitor.get(link).content.decode()
    response = visitor.post(link, {"new_password1": "Karo-Koenig-9", "new_password2": "Karo-Koenig-9"}, follow=True)
    assert response.wsgi_request.user == member_user
    assert not can_log_in("anna", password)
    assert can_log_in("anna", "Karo-Koenig-9")


def test_no_link_for_an_account_of_another_club_or_of_the_operators(secretary_client, club, member_user, make_user):
    other = Club.objects.create(name="Skatfreunde", slug="skat")
    other.secretaries.add(member_user)  # Anna keeps the books of another club too
    anna = Member.objects.get(user=member_user)
    page = secretary_client.get(reverse("member_invitation", kwargs={"slug": club.slug, "pk": anna.pk})).content.decode()
    assert "gehört auch zum Verein „Skatfreunde“" in page and "/konto/einladung/" not in page
    operator = Member.objects.create(club=club, name="Olga", user=make_user("olga", is_staff=True))
    page = secretary_client.get(reverse("member_invitation", kwargs={"slug": club.slug, "pk": operator.pk})).content.decode()
    assert "Betreiber" in page and "/konto/einladung/" not in page


# ---------- Deactivating an account ----------

def set_account(client, club, member, active):
    return client.post(reverse("member_account_active", kwargs={"slug": club.slug, "pk": member.pk}),
                       {"active": "1" if active else "0"}, follow=True)


def test_a_deactivated_member_cannot_log_in_and_keeps_his_history(secretary_client, member_client, club,
                                                                    member_user, running_match, password):
    anna = Member.objects.get(user=member_user)
    response = set_account(secretary_client, club, anna, active=False)
    assert "kann sich nicht mehr anmelden" in response.content.decode()
    member_user.refresh_from_db()
    assert not member_user.is_active
    assert not can_log_in("anna", password)
    assert member_client.get(club.get_absolute_url()).status_code == 302  # her open session ends too
    anna.refresh_from_db()
    assert anna.user == member_user and running_match.seats.filter(member=anna).exists()
    members_page = secretary_client.get(reverse("club_members", kwargs={"slug": club.slug})).content.decode()
    assert "Konto deaktiviert" in members_page
    # no link for a deactivated account
    page = secretary_client.get(reverse("member_invitation", kwargs={"slug": club.slug, "pk": anna.pk})).content.decode()
    assert "deaktiviert" in page and "/konto/einladung/" not in page

    set_account(secretary_client, club, anna, active=True)
    assert can_log_in("anna", password)


def test_the_secretary_cannot_deactivate_himself_or_another_secretary(secretary_client, club, secretary, make_user):
    own = Member.objects.get(user=secretary)
    response = set_account(secretary_client, club, own, active=False)
    assert "Ihr eigenes Konto" in response.content.decode()
    zora = make_user("zora")
    club.secretaries.add(zora)
    zora_member = Member.objects.create(club=club, name="Zora", user=zora)
    response = set_account(secretary_client, club, zora_member, active=False)
    assert "Schriftführer" in response.content.decode()
    secretary.refresh_from_db()
    zora.refresh_from_db()
    assert secretary.is_active and zora.is_active


def test_a_member_without_account_has_nothing_to_deactivate(secretary_client, club, carla):
    response = set_account(secretary_client, club, carla, active=False)
    assert "hat kein Konto" in response.content.decode()
