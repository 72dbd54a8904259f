from django.urls import path

from . import views
from .ratings import pages as ratings
from .ratings import record_pages as records
from .spreadsheets import downloads
from .spreadsheets.points_page import points_list_confirm, points_list_import
from .spreadsheets.season_import import season_import, season_import_confirm
from .standings import pages
from .tournaments import attendance, board, card_access, card_pages, clock, next_round, papers
from .tournaments import rounds as tournament

urlpatterns = [
    path("", views.home, name="home"),
    path("verein/<slug:slug>/", views.club, name="club"),
    # The league: table, member pages, archive, spreadsheets.
    path("verein/<slug:slug>/tabelle/", pages.standings_page, name="standings"),
    path("verein/<slug:slug>/tabelle/ewig/", pages.standings_all_time, name="standings_all_time"),
    path("verein/<slug:slug>/tabelle/<id:season_pk>/", pages.standings_page, name="standings_season"),
    path("verein/<slug:slug>/mitglied/<id:member_pk>/", pages.member_page, name="member_page"),
    path("verein/<slug:slug>/archiv/", pages.archive, name="archive"),
    path("verein/<slug:slug>/wertung/", ratings.rating_list, name="ratings"),
    path("wie-wird-gewertet/", ratings.how_rated, name="how_rated"),
    path("verein/<slug:slug>/rekorde/", records.club_records, name="records"),
    path("verein/<slug:slug>/mitglied/<id:member_pk>/gegen/", records.head_to_head_choice, name="head_to_head_choice"),
    path("verein/<slug:slug>/mitglied/<id:member_pk>/gegen/<id:other_pk>/", records.head_to_head_page,
         name="head_to_head"),
    # Tournaments: a season's rounds, their seating plans and matches (league.tournaments.rounds).
    path("verein/<slug:slug>/turnier/<id:season_pk>/", tournament.tournament, name="tournament"),
    path("verein/<slug:slug>/turnier/<id:season_pk>/einstellungen/", tournament.tournament_settings,
         name="tournament_settings"),
    path("verein/<slug:slug>/turnier/<id:season_pk>/runde/neu/", tournament.round_new, name="round_new"),
    # The tournament day (league.tournaments.attendance, next_round, board): players at the
    # door, the next round drawn from those present, the secretary's round board.
    path("verein/<slug:slug>/turnier/<id:season_pk>/anwesend/", attendance.attendance_page, name="attendance"),
    path("verein/<slug:slug>/turnier/<id:season_pk>/gast/", attendance.walk_in, name="walk_in"),
    path("verein/<slug:slug>/turnier/<id:season_pk>/naechste-runde/", next_round.round_draw_next,
         name="round_draw_next"),
    path("verein/<slug:slug>/runde/<id:round_pk>/tafel/", board.round_board, name="round_board"),
    path("verein/<slug:slug>/runde/<id:round_pk>/uhr/", clock.round_clock_start, name="round_clock_start"),
    path("verein/<slug:slug>/runde/<id:round_pk>/", tournament.round_page, name="round"),
    path("verein/<slug:slug>/runde/<id:round_pk>/sitzplan.pdf", tournament.round_pdf, name="round_pdf"),
    # Paper of the tournament day (league.tournaments.papers): a round's results, the final ranking.
    path("verein/<slug:slug>/runde/<id:round_pk>/ergebnisse.pdf", papers.round_results_view, name="round_results_pdf"),
    path("verein/<slug:slug>/turnier/<id:season_pk>/rangliste.pdf", papers.ranking_view, name="ranking_pdf"),
    path("verein/<slug:slug>/runde/<id:round_pk>/neu-auslosen/", tournament.round_redraw, name="round_redraw"),
    path("verein/<slug:slug>/runde/<id:round_pk>/partien-anlegen/", tournament.round_start, name="round_start"),
    path("verein/<slug:slug>/runde/<id:round_pk>/loeschen/", tournament.round_delete, name="round_delete"),
    path("verein/<slug:slug>/runde/<id:round_pk>/abschliessen/", card_pages.round_close, name="round_close"),
    # Table cards (league.tournaments.cards): the secretary prints and reissues them; a card's
    # short address opens its table's Partie without an account.
    path("verein/<slug:slug>/runde/<id:round_pk>/tischkarten.pdf", card_pages.round_cards_pdf,
         name="round_cards_pdf"),
    path("verein/<slug:slug>/runde/<id:round_pk>/tisch/<id:table>/karte.pdf", card_pages.table_card_pdf,
         name="table_card_pdf"),
    path("verein/<slug:slug>/runde/<id:round_pk>/tisch/<id:table>/karte/neu/", card_pages.table_card_reissue,
         name="table_card_reissue"),
    path("t/<str:card>/", card_access.open_card, name="table_card"),
    path("verein/<slug:slug>/export.xlsx", downloads.export_club, name="export_club"),
    path("verein/<slug:slug>/saison/<id:pk>/export.xlsx", downloads.export_season, name="export_season"),
    # Beside the match's own pages (protocol.urls is included at verein/<slug>/partien/).
    path("verein/<slug:slug>/partien/<id:pk>/export.xlsx", downloads.export_match, name="export_match"),
    # The Schriftführer's pages (secretaries and staff).
    path("verein/<slug:slug>/mitglieder/", views.club_members, name="club_members"),
    path("verein/<slug:slug>/mitglieder/neu/", views.member_edit, name="member_add"),
    path("verein/<slug:slug>/mitglieder/<id:pk>/", views.member_edit, name="member_edit"),
    path("verein/<slug:slug>/mitglieder/<id:pk>/aktiv/", views.member_set_active, name="member_set_active"),
    path("verein/<slug:slug>/saisons/", views.club_seasons, name="club_seasons"),
    path("verein/<slug:slug>/saisons/neu/", views.season_edit, name="season_add"),
    path("verein/<slug:slug>/saisons/import/", season_import, name="season_import"),
    path("verein/<slug:slug>/saisons/import/<uuid:pk>/importieren/", season_import_confirm,
         name="season_import_confirm"),
    path("verein/<slug:slug>/saisons/import/punktelisten/", points_list_import, name="points_list_import"),
    path("verein/<slug:slug>/saisons/import/punktelisten/<uuid:pk>/importieren/", points_list_confirm,
         name="points_list_confirm"),
    path("verein/<slug:slug>/saisons/<id:pk>/", views.season_edit, name="season_edit"),
    path("verein/<slug:slug>/einstellungen/", views.club_settings, name="club_settings"),
    path("verein/<slug:slug>/einstellungen/schriftfuehrer/", views.secretary_add, name="secretary_add"),
    path("verein/<slug:slug>/einstellungen/schriftfuehrer/<id:user_id>/entfernen/",
         views.secretary_remove, name="secretary_remove"),
]
