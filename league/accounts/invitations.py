"""Invitations: a one-time, expiring link with which a member sets the password of an account.

The secretary hands the link (or its QR code) to a member at the club evening; no mail
server is needed. A member without an account creates one with it, a member with one sets a
new password (the "forgotten password" of a site that sends no mail).

The token is Django's password-reset token, made over the *member* instead of a user: its
hash covers the member's account link, the account's password hash and last login. Setting
the password changes them, so a link works once; a fresh link does not end an older one that
was not used (as with Django's own reset links). Links expire after
``settings.INVITATION_TIMEOUT`` seconds (``INVITATION_DAYS``).
"""

from __future__ import annotations

import enum

from django.conf import settings
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.urls import reverse
from django.utils.crypto import constant_time_compare
from django.utils.http import base36_to_int


class Verdict(enum.Enum):
    VALID = "valid"
    EXPIRED = "expired"
    USED = "used"  # used, or not made by this site: the hash does not match (any more)


class InvitationTokenGenerator(PasswordResetTokenGenerator):
    key_salt = "trumpfbuch.league.accounts.invitation"

    def _make_hash_value(self, member, timestamp):
        user = member.user
        account = "-" if user is None else (
            f"{user.pk}|{user.password}|{user.last_login and user.last_login.replace(microsecond=0, tzinfo=None)}"
            f"|{user.is_active}")
        return f"{member.pk}|{member.club_id}|{account}|{timestamp}"

    def verdict(self, member, token: str) -> Verdict:
        """Whether ``token`` opens ``member``'s invitation now; an expired one says so."""
        try:
            timestamp_b36, _hash = token.split("-")
            timestamp = base36_to_int(timestamp_b36)
        except ValueError:
            return Verdict.USED
        secrets = [self.secret, *self.secret_fallbacks]
        if not any(constant_time_compare(self._make_token_with_timestamp(member, timestamp, secret), token)
                   for secret in secrets):
            return Verdict.USED
        if self._num_seconds(self._now()) - timestamp > settings.INVITATION_TIMEOUT:
            return Verdict.EXPIRED
        return Verdict.VALID

    def check_token(self, member, token):
        return self.verdict(member, token) is Verdict.VALID


invitation_tokens = InvitationTokenGenerator()


def invitation_path(member) -> str:
    """The path of a fresh invitation link for ``member``."""
    return reverse("accept_invitation", kwargs={"member": member.pk, "token": invitation_tokens.make_token(member)})


def expires_in_days() -> int:
    return settings.INVITATION_TIMEOUT // (24 * 60 * 60)
