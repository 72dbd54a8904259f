from django.urls import path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("verein/<slug:slug>/", views.club, name="club"),
    # The Schriftführer's pages (secretaries and staff).
    path("verein/<slug:slug>/mitglieder/", views.club_members, name="club_members"),
    path("verein/<slug:slug>/mitglieder/neu/", views.member_edit, name="member_add"),
    path("verein/<slug:slug>/mitglieder/<int:pk>/", views.member_edit, name="member_edit"),
    path("verein/<slug:slug>/mitglieder/<int:pk>/aktiv/", views.member_set_active, name="member_set_active"),
    path("verein/<slug:slug>/saisons/", views.club_seasons, name="club_seasons"),
    path("verein/<slug:slug>/saisons/neu/", views.season_edit, name="season_add"),
    path("verein/<slug:slug>/saisons/<int:pk>/", views.season_edit, name="season_edit"),
    path("verein/<slug:slug>/einstellungen/", views.club_settings, name="club_settings"),
    path("verein/<slug:slug>/einstellungen/schriftfuehrer/", views.secretary_add, name="secretary_add"),
    path("verein/<slug:slug>/einstellungen/schriftfuehrer/<int:user_id>/entfernen/",
         views.secretary_remove, name="secretary_remove"),
]
