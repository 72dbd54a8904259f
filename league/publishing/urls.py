"""Publishing's addresses. The public ones are stable: clubs link and embed them."""

from django.urls import path

from . import views

urlpatterns = [
    path("verein/<slug:slug>/einstellungen/veroeffentlichen/", views.publishing_settings, name="publishing_settings"),
    path("ergebnisse/<slug:slug>/", views.public_index, name="public_index"),
    path("ergebnisse/<slug:slug>/<id:season_pk>/", views.public_season, name="public_season"),
    path("ergebnisse/<slug:slug>/<id:season_pk>/einbetten/", views.public_embed, name="public_embed"),
    path("ergebnisse/<slug:slug>/<id:season_pk>/tabelle.csv", views.public_csv, name="public_csv"),
    path("ergebnisse/<slug:slug>/<id:season_pk>/tabelle.json", views.public_json, name="public_json"),
    path("ergebnisse/<slug:slug>/<id:season_pk>/live/", views.public_live, name="public_live"),
    path("ergebnisse/<slug:slug>/<id:season_pk>/live/stand/", views.public_live_board, name="public_live_board"),
]
