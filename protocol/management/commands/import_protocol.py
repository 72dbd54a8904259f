"""``python manage.py import_protocol FILE.json --club NAME [--season NAME]``: a file into the club.

Exit 0 with a one-line summary, exit 1 when the protocol is refused (every error on
stderr, one per line, nothing saved) or club or season are unknown, exit 2 when the file
can't be read or is not JSON.
"""

from django.core.management.base import BaseCommand, CommandError
from django.db.models import Q

from league.models import Club, Season
from protocol.documents.transfer import ImportRefused, import_document
from protocol.rules.files import UnreadableProtocol, load_document

STATUS = {"running": "läuft noch", "tiebreak": "im Stechen", "annulled": "annulliert"}


def error_line(error) -> str:
    """``Ereignis 3, Anna, points: message`` (the parts that are known; ``event`` counts from 0)."""
    where = [f"Ereignis {error.event}" if error.event is not None else "Protokoll", error.player, error.field]
    return f"{', '.join(part for part in where if part is not None)}: {error.message}"


def summary(imported) -> str:
    match = imported.match
    games = f"{match.game_count} Spiel" + ("" if match.game_count == 1 else "e")
    if match.status == "finished":
        outcome = f"Sieger: {match.winner.name}" if match.winner else "beendet"
    else:
        outcome = STATUS.get(match.status, match.status)
    created = ", ".join(m.name for m in imported.created_members) or "keine"
    return f"Partie {match.pk} eingetragen: {games}, {outcome}; neue Mitglieder: {created}."


class Command(BaseCommand):
    help = "Import a protocol/1 file as a new match of a club (all or nothing)."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the protocol file (JSON, protocol/1)")
        parser.add_argument("--club", required=True, help="the club's name or short name (slug)")
        parser.add_argument("--season", help="the season's name (default: the one the file names, "
                                             "else the club's season of the date)")

    def handle(self, *args, **options):
        club = Club.objects.filter(Q(name=options["club"]) | Q(slug=options["club"])).first()
        if club is None:
            raise CommandError(f"Es gibt keinen Verein „{options['club']}“ (Name oder Kurzname).", returncode=1)
        season = None
        if options["season"]:
            season = Season.objects.filter(club=club, name=options["season"]).first()
            if season is None:
                raise CommandError(f"Der Verein „{club.name}“ hat keine Saison „{options['season']}“.", returncode=1)
        try:
            document = load_document(options["file"])
        except UnreadableProtocol as exc:
            raise CommandError(str(exc), returncode=2) from exc
        try:
            imported = import_document(document, club=club, season=season)
        except ImportRefused as refused:
            for error in refused.errors:
                self.stderr.write(error_line(error))
            count = len(refused.errors)
            raise CommandError(f"Nicht eingetragen, nichts gespeichert: {count} Fehler im Protokoll.",
                               returncode=1) from refused
        self.stdout.write(summary(imported))
