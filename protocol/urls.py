from django.urls import path

from protocol.views import entries, lots, matches, sheet, signing, sync, transcribe, transfer

app_name = "protocol"

urlpatterns = [
    path("neu/", matches.new_match, name="new"),
    path("import/", transfer.import_upload, name="import"),
    path("nachtragen/", transcribe.transcribe, name="transcribe"),
    path("nachtragen/pruefen/", transcribe.transcribe_check, name="transcribe_check"),
    path("nachtragen/speichern/", transcribe.transcribe_save, name="transcribe_save"),
    path("aenderungen/", matches.club_audit, name="audit"),
    path("<id:pk>/protokoll.json", transfer.export_json, name="export"),
    path("<id:pk>/blatt.pdf", sheet.match_pdf, name="pdf"),
    path("leerblatt.pdf", sheet.blank_pdf, name="blank_pdf"),
    path("<id:pk>/", matches.match_detail, name="match"),
    path("<id:pk>/blatt/", matches.match_sheet, name="sheet"),
    path("<id:pk>/verlauf/", matches.match_history, name="history"),
    path("<id:pk>/einstellungen/", matches.match_settings, name="settings"),
    path("<id:pk>/spiel/", entries.game_new, name="game_new"),
    path("<id:pk>/spiel/vorschau/", entries.game_preview, name="game_preview"),
    path("<id:pk>/strafe/", entries.sanction_new, name="sanction_new"),
    path("<id:pk>/eintraege/", sync.entries_sync, name="entries_sync"),
    path("<id:pk>/ende/", entries.match_end, name="end"),
    path("<id:pk>/annullieren/", entries.match_annul, name="annul"),
    path("<id:pk>/eintrag/<id:position>/korrigieren/", entries.entry_correct, name="entry_correct"),
    path("<id:pk>/eintrag/<id:position>/entfernen/", entries.entry_remove, name="entry_remove"),
    path("<id:pk>/eintrag/<id:position>/annullieren/", entries.game_annul, name="game_annul"),
    path("<id:pk>/bestaetigen/<id:position>/", signing.confirm_result, name="confirm"),
    path("<id:pk>/los/", lots.lot_new, name="lot_new"),
    path("<id:pk>/los/<id:lot>/", lots.lot_detail, name="lot"),
]
