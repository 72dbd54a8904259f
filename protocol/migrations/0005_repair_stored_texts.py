"""Old data may hold NUL, lone surrogates or control characters in names, places and reasons
(stored before protocol.rules.text checked every text); the rules engine now refuses them, so
they are removed once, each repaired Partie noting it in its history
(protocol.records.text_audit.repair_stored_texts). What can't be repaired so is listed by
``manage.py check_texts``."""

from django.db import migrations


def repair(apps, schema_editor):
    from protocol.records.text_audit import repair_stored_texts

    names = {"Club": "league", "Member": "league", "Season": "league", "Match": "protocol", "Seat": "protocol",
             "Event": "protocol", "SanctionLine": "protocol", "Change": "protocol"}
    repair_stored_texts({name: apps.get_model(app, name) for name, app in names.items()})


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0002_tournaments"),
        ("protocol", "0004_change_transcribe_action"),
    ]

    operations = [migrations.RunPython(repair, migrations.RunPython.noop)]
