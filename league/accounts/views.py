"""The account pages: the first run, invitations, the profile, deactivating an account.

Thin, as everywhere: fetch with an access check, act through forms and
:mod:`league.accounts.first_run` / :mod:`league.accounts.invitations`, redirect.
"""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import SetPasswordForm
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from league.models import Club, Member
from league.registry import access
from league.registry.access import require_club
from league.registry.qr import qr_svg

from .first_run import SiteAlreadySetUp, found_club, site_is_new
from .forms import FirstRunForm, NewAccountForm, ProfileForm
from .invitations import Verdict, expires_in_days, invitation_path, invitation_tokens

# The account just created or given its password logs in with it (the axes backend only
# watches failed logins; it authenticates nobody).
PASSWORD_BACKEND = "django.contrib.auth.backends.ModelBackend"


@require_http_methods(["GET", "POST"])
def first_run(request):
    """The site's first club and secretary; gone (404) once any club exists."""
    if not site_is_new():
        raise Http404
    form = FirstRunForm(request.POST if request.method == "POST" else None)
    if form.is_valid():
        data = form.cleaned_data
        try:
            club, user = found_club(data["club_name"], place=data["place"], secretary=data["username"],
                                    password=data["password1"], display_name=data["display_name"],
                                    plays=data["plays"], first_run=True)
        except SiteAlreadySetUp:
            raise Http404 from None
        except IntegrityError:
            form.add_error("username", _("The user name “%(username)s” is taken. Please choose another.")
                           % {"username": data["username"]})
        else:
            login(request, user, backend=PASSWORD_BACKEND)
            messages.success(request, _("Welcome! “%(club)s” is set up and you are its secretary. "
                                        "Add the members next and hand each an invitation.") % {"club": club.name})
            return redirect("club_members", slug=club.slug)
    return render(request, "accounts/first_run.html", {"form": form})


def account_problem(member, acting_user):
    """Why the secretary may not hand out a password link for, or deactivate, the member's
    account; None if he may. An account that also belongs to another club, or to the site's
    operators, is not the club's to change: a secretary who linked it to one of his members
    must not take it over."""
    user = member.user
    if user is None:
        return None
    if (user.is_staff or user.is_superuser) and not acting_user.is_superuser:
        return _("“%(username)s” is an account of the site's operators; only they can change it.") % {
            "username": user.get_username()}
    other = (Club.objects.filter(Q(members__user=user) | Q(secretaries=user))
             .exclude(pk=member.club_id).distinct().first())
    if other is not None and not acting_user.is_staff:
        return _("The account “%(username)s” also belongs to the club “%(club)s”, so only the site's "
                 "operators can change it. A forgotten password: “Forgot your password?” on the login "
                 "page.") % {"username": user.get_username(), "club": other.name}
    return None


@require_safe
def invitation(request, slug, pk):
    """The secretary's page with a member's fresh invitation link and its QR code."""
    club = require_club(request, slug, access.can_manage_club)
    member = get_object_or_404(club.members.select_related("user"), pk=pk)
    context = {"club": club, "member": member, "problem": account_problem(member, request.user)}
    if member.user is not None and not member.user.is_active:
        context["problem"] = _("The account of %(name)s is deactivated. Activate it again first.") % {
            "name": member.name}
    if context["problem"] is None:
        url = request.build_absolute_uri(invitation_path(member))
        context.update(url=url, days=expires_in_days(),
                       qr=qr_svg(url, _("QR code of the invitation link for %(name)s") % {"name": member.name}))
    return render(request, "accounts/invitation.html", context)


@require_http_methods(["GET", "POST"])
def accept_invitation(request, member, token):
    """The invited member sets a password (and chooses a user name if he has no account);
    then he is logged in. An expired, used or foreign link gets a page that says so."""
    with transaction.atomic():
        # Locked: two taps on "save" with the same link must not make two accounts.
        invited = (Member.objects.select_for_update(of=("self",)) if request.method == "POST"
                   else Member.objects).select_related("user", "club").filter(pk=member).first()
        verdict = invitation_tokens.verdict(invited, token) if invited is not None else Verdict.USED
        if verdict is Verdict.VALID and invited.user is not None and not invited.user.is_active:
            verdict = Verdict.USED
        if verdict is not Verdict.VALID:
            return render(request, "accounts/invitation_invalid.html", {"verdict": verdict.value})
        account = invited.user
        data = request.POST if request.method == "POST" else None
        form = SetPasswordForm(account, data) if account else NewAccountForm(data, member=invited)
        if form.is_valid():
            account = form.save()
            login(request, account, backend=PASSWORD_BACKEND)
            messages.success(request, _("Your password is set and you are logged in. Welcome, %(name)s!")
                             % {"name": invited.name})
            return redirect(invited.club)
    return render(request, "accounts/accept_invitation.html", {"member": invited, "form": form})


@login_required
@require_http_methods(["GET", "POST"])
def profile(request):
    """A person's own name on the site and mail address; the password has its own page."""
    # A copy: a refused name must not show up in the page's header.
    person = get_user_model().objects.get(pk=request.user.pk)
    form = ProfileForm(request.POST if request.method == "POST" else None, instance=person)
    if form.is_valid():
        form.save()
        messages.success(request, _("Your profile was saved."))
        return redirect("profile")
    memberships = request.user.memberships.select_related("club").order_by("club__name")
    return render(request, "accounts/profile.html", {"form": form, "memberships": memberships})


def account_set_active(request, slug, pk):
    """Deactivate a member's account (no login any more; the member, his Partien and the
    history stay) or activate it again."""
    club = require_club(request, slug, access.can_manage_club, methods=("POST",))
    member = get_object_or_404(club.members.select_related("user"), pk=pk)
    user = member.user
    active = request.POST.get("active") == "1"
    problem = account_problem(member, request.user)
    if user is None:
        problem = _("%(name)s has no account.") % {"name": member.name}
    elif not active and user == request.user:
        problem = _("You cannot deactivate your own account.")
    elif not active and club.secretaries.filter(pk=user.pk).exists():
        problem = _("%(name)s is a secretary of the club. Remove them as secretary first (club settings).") % {
            "name": member.name}
    if problem:
        messages.error(request, problem)
        return redirect("member_edit", slug=club.slug, pk=member.pk)
    user.is_active = active
    user.save(update_fields=["is_active"])
    if active:
        messages.success(request, _("The account of %(name)s is active again: they can log in.") % {"name": member.name})
    else:
        messages.success(request, _("The account of %(name)s is deactivated: they can no longer log in. "
                                    "Their matches and the history stay.") % {"name": member.name})
    return redirect("member_edit", slug=club.slug, pk=member.pk)


class PasswordResetView(auth_views.PasswordResetView):
    """Django's "forgot password" page; on a site that sends no mail it says whom to ask."""

    def sends_mail(self):
        return settings.EMAIL_BACKEND != settings.NO_MAIL_BACKEND

    def get_context_data(self, **kwargs):
        return super().get_context_data(sends_mail=self.sends_mail(), **kwargs)

    def post(self, request, *args, **kwargs):
        if not self.sends_mail():
            return self.get(request, *args, **kwargs)
        return super().post(request, *args, **kwargs)
