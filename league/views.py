"""Thin views: fetch with an access check, render. Logic lives in models and access."""

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django_tables2 import RequestConfig

from . import access
from .models import Club, Season
from .tables import MemberTable


def home(request):
    context = {
        "my_clubs": Club.objects.for_user(request.user),
        "public_clubs": Club.objects.with_public_standings(),
        "secretary_club_ids": set(
            request.user.secretary_of_clubs.values_list("id", flat=True)
            if request.user.is_authenticated
            else []
        ),
    }
    return render(request, "league/home.html", context)


def club(request, slug):
    club = get_object_or_404(Club, slug=slug)
    full_view = access.can_view_club_data(request.user, club)
    if not full_view and not club.standings_public:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        raise PermissionDenied

    today = timezone.localdate()
    context = {
        "club": club,
        "full_view": full_view,
        "can_manage": access.can_manage_club(request.user, club),
        "current_season": Season.current_for(club, today),
    }
    if full_view:
        members = MemberTable(club.members.filter(active=True), prefix="members-")
        RequestConfig(request, paginate=False).configure(members)
        context["member_table"] = members
        context["seasons"] = club.seasons.all()
        context["secretaries"] = club.secretaries.order_by("first_name", "username")
        context["running_matches"] = club.matches.filter(status__in=["running", "tiebreak"]).select_related("winner")
        context["recent_matches"] = (club.matches.filter(status__in=["finished", "annulled"])
                                     .select_related("winner", "season")[:10])
    return render(request, "league/club.html", context)
