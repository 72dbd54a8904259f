"""A site's first club and its secretary: the first-run page and ``manage.py create_club``.

The first-run page exists only while the site has no club: it must never let a visitor take
over a running site. Founding the first club therefore checks "no club yet" again inside
the transaction that creates it, with the table locked on PostgreSQL (SQLite's IMMEDIATE
transactions already take the write lock at BEGIN), so two first visitors cannot both win.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.db import connection, transaction
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.text import slugify

from league.models import Club, Member

FALLBACK_SLUG = "verein"


class SiteAlreadySetUp(Exception):
    """The site has a club: the first run is over."""


def site_is_new() -> bool:
    return not Club.objects.exists()


def free_slug(name: str) -> str:
    """The club's short name in addresses: the name as a slug ("1. CTV gegen alles!" ->
    "1-ctv-gegen-alles"), numbered when taken."""
    base = slugify(name)[:50].strip("-") or FALLBACK_SLUG
    slug, number = base, 1
    while Club.objects.filter(slug=slug).exists():
        number += 1
        slug = f"{base}-{number}"
    return slug


def found_club(name: str, *, secretary: str, place: str = "", password: str | None = None,
               display_name: str = "", plays: bool = False, first_run: bool = False):
    """Create the club ``name`` with ``secretary`` (a user name) as its Schriftführer and return
    ``(club, user)``. A new account gets ``password``, or none that works (then the account
    needs a link: :func:`password_link`); an existing account keeps its password. With
    ``plays`` the secretary is also a member of the club, under ``display_name``.
    ``first_run``: refuse (:class:`SiteAlreadySetUp`) once any club exists."""
    User = get_user_model()
    with transaction.atomic():
        if first_run:
            if connection.vendor == "postgresql":
                with connection.cursor() as cursor:
                    cursor.execute(f'LOCK TABLE "{Club._meta.db_table}" IN SHARE ROW EXCLUSIVE MODE')
            if not site_is_new():
                raise SiteAlreadySetUp
        user = User.objects.filter(username=secretary).first()
        if user is None:
            user = User(username=secretary, first_name=display_name)
            if password:
                user.set_password(password)
            else:
                user.set_unusable_password()
            user.save()
        club = Club.objects.create(name=name, slug=free_slug(name), place=place)
        club.secretaries.add(user)
        if plays:
            Member.objects.create(club=club, name=display_name or secretary, user=user)
    return club, user


def password_link(user, base_url: str) -> str:
    """A one-time link to set the password of ``user`` (Django's password-reset token:
    valid for PASSWORD_RESET_TIMEOUT, void once the password is set)."""
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    path = reverse("password_reset_confirm", kwargs={"uidb64": uid, "token": default_token_generator.make_token(user)})
    return base_url.rstrip("/") + path
