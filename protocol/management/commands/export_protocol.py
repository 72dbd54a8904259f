"""``python manage.py export_protocol MATCH_ID [--output FILE]``: a stored match as protocol/1.

Writes the JSON to stdout, or to FILE. Exit 1 when there is no such match or FILE can't be
written.
"""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from protocol.documents.transfer import export_bytes
from protocol.models import Match


class Command(BaseCommand):
    help = "Write a stored match as a protocol/1 file (JSON) to stdout or a file."

    def add_arguments(self, parser):
        parser.add_argument("match_id", type=int, help="the match's number (id)")
        parser.add_argument("--output", "-o", help="write to this file instead of stdout")

    def handle(self, *args, **options):
        match = Match.objects.select_related("club", "season").filter(pk=options["match_id"]).first()
        if match is None:
            raise CommandError(f"Es gibt keine Partie mit der Nummer {options['match_id']}.", returncode=1)
        data = export_bytes(match)
        if not options["output"]:
            self.stdout.write(data.decode("utf-8"), ending="")
            return
        try:
            Path(options["output"]).write_bytes(data)
        except OSError as exc:
            raise CommandError(f"Die Datei {options['output']} kann nicht geschrieben werden: "
                               f"{exc.strerror or exc}.", returncode=1) from exc
        self.stdout.write(f"Partie {match.pk} nach {options['output']} geschrieben.")
