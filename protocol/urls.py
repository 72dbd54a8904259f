from django.urls import path

from protocol.views import entries, lots, matches, transfer

app_name = "protocol"

urlpatterns = [
    path("neu/", matches.new_match, name="new"),
    path("import/", transfer.import_upload, name="import"),
    path("aenderungen/", matches.club_audit, name="audit"),
    path("<int:pk>/protokoll.json", transfer.export_json, name="export"),
    path("<int:pk>/", matches.match_detail, name="match"),
    path("<int:pk>/blatt/", matches.match_sheet, name="sheet"),
    path("<int:pk>/verlauf/", matches.match_history, name="history"),
    path("<int:pk>/einstellungen/", matches.match_settings, name="settings"),
    path("<int:pk>/spiel/", entries.game_new, name="game_new"),
    path("<int:pk>/spiel/vorschau/", entries.game_preview, name="game_preview"),
    path("<int:pk>/strafe/", entries.sanction_new, name="sanction_new"),
    path("<int:pk>/ende/", entries.match_end, name="end"),
    path("<int:pk>/annullieren/", entries.match_annul, name="annul"),
    path("<int:pk>/eintrag/<int:position>/korrigieren/", entries.entry_correct, name="entry_correct"),
    path("<int:pk>/eintrag/<int:position>/entfernen/", entries.entry_remove, name="entry_remove"),
    path("<int:pk>/eintrag/<int:position>/annullieren/", entries.game_annul, name="game_annul"),
    path("<int:pk>/los/", lots.lot_new, name="lot_new"),
    path("<int:pk>/los/<int:lot>/", lots.lot_detail, name="lot"),
]
