"""Names, places and reasons stored before protocol.rules.text refused bidi controls
(U+202A–U+202E, U+2066–U+2069) may hold them; the rules engine now refuses them, so they are
removed once, as 0005 removed control characters (protocol.records.text_audit.repair_stored_texts:
each repaired Partie notes it in its history). What can't be repaired so (a name that would
then clash with another) is listed by ``manage.py check_texts``."""

from django.db import migrations


def repair(apps, schema_editor):
    from protocol.records.text_audit import repair_stored_texts

    names = {"Club": "league", "Member": "league", "Season": "league", "Match": "protocol", "Seat": "protocol",
             "Event": "protocol", "SanctionLine": "protocol", "Change": "protocol"}
    repair_stored_texts({name: apps.get_model(app, name) for name, app in names.items()})


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0004_club_publishing"),
        ("protocol", "0010_scoreline_stechen"),
    ]

    operations = [migrations.RunPython(repair, migrations.RunPython.noop)]
