"""The account pages' addresses (included at the site's root, before Django's own
``konto/`` pages, whose reset page this replaces by the same address and name)."""

from django.urls import path

from . import views

urlpatterns = [
    path("einrichten/", views.first_run, name="first_run"),
    path("konto/profil/", views.profile, name="profile"),
    path("konto/password_reset/", views.PasswordResetView.as_view(), name="password_reset"),
    path("konto/einladung/<id:member>/<str:token>/", views.accept_invitation, name="accept_invitation"),
    # The secretary's: a member's invitation link, and the account's deactivation.
    path("verein/<slug:slug>/mitglieder/<id:pk>/einladung/", views.invitation, name="member_invitation"),
    path("verein/<slug:slug>/mitglieder/<id:pk>/konto/", views.account_set_active, name="member_account_active"),
]
