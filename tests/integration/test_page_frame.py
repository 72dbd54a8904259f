"""The frame of every page (templates/base.html, league/templatetags/frame_tags.py): the
navigation, who is logged in and the language switch, for each kind of visitor, in German and
English; written once per language, filled in per request, every value escaped."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from league.models import Member
from tests.integration.test_table_cards import phone_with_card, tournament  # noqa: F401 - the fixture

pytestmark = pytest.mark.django_db


def nav(page: str) -> str:
    return re.search(r'<nav class="site-nav".*?</nav>', page, re.S).group(0)


def footer(page: str) -> str:
    return re.search(r'<footer class="site-footer">.*?</footer>', page, re.S).group(0)


def test_a_visitor_is_offered_the_login_back_to_the_page_he_is_on(club):
    visitor = Client()
    page = visitor.get("/verein/unbekannt/?x=<b>&y=1").content.decode()  # a page without a club: 404
    assert 'href="/konto/login/?next=/verein/unbekannt/">Anmelden</a>' in nav(page)
    assert "Abmelden" not in page and "sw-register" not in page and "Angemeldet als" not in page
    assert 'name="next" type="hidden" value="/verein/unbekannt/?x=%3Cb%3E&amp;y=1"' in footer(page)
    home = visitor.get("/").content.decode()
    assert 'href="/konto/login/">Anmelden</a>' in nav(home)  # the overview needs no way back
    assert 'href="/" aria-current="page">Übersicht</a>' in nav(home)


def test_a_member_sees_his_name_escaped_his_profile_marked_and_the_logout(club, make_user):
    user = make_user("anna", first_name="Anna <Ass>", last_name="& Co")
    Member.objects.create(club=club, name="Anna", user=user)
    member = Client()
    member.force_login(user)
    page = member.get(reverse("profile")).content.decode()
    assert "Angemeldet als Anna &lt;Ass&gt; &amp; Co." in footer(page)
    assert f'href="{reverse("profile")}" aria-current="page">Profil</a>' in nav(page)
    assert re.search(r'<form method="post" action="/konto/logout/" class="inline-form" data-logout>'
                     r'<input type="hidden" name="csrfmiddlewaretoken" value="\w+">', nav(page))
    assert f'data-user="{user.pk}"' in page  # the service worker, told who is signed in
    assert "Verwaltung" not in nav(page) and "Anmelden" not in nav(page)


def test_staff_find_the_administration_and_the_backups(club, make_user):
    staff = Client()
    staff.force_login(make_user("admin", is_staff=True))
    page = nav(staff.get("/").content.decode())
    assert f'href="{reverse("admin:index")}">Verwaltung</a>' in page
    assert f'href="{reverse("backups")}">Sicherungen</a>' in page


def test_in_english_the_frame_speaks_english_and_the_switch_says_which_language_is_on(club, make_user):
    reader = Client()
    reader.force_login(make_user("pat"))
    for language, words, pressed in (("en", ("Overview", "Log out", "Language:"), "en"),
                                     ("de", ("Übersicht", "Abmelden", "Sprache:"), "de"),
                                     ("en", ("Overview", "Log out", "Language:"), "en")):
        page = reader.get("/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert all(word in page for word in words), language
        assert f'value="{pressed}" class="btn btn-small" aria-describedby="language-label" aria-pressed="true"' in page
        assert page.count('aria-pressed="true"') == 1
        assert 'lang="de">Deutsch</button>' in page and 'lang="en">English</button>' in page


def test_a_table_cards_phone_finds_its_table_and_keeps_pages_for_it(tournament):  # noqa: F811
    phone = phone_with_card(tournament, 1)
    match = tournament["matches"][1]
    page = phone.get(match.get_absolute_url()).content.decode()
    assert "Tisch 1</a></li>" in nav(page) and "Anmelden" in nav(page)
    assert 'data-user="karte-' in page  # the service worker, for the card
