"""``python manage.py backup [OUT]``: everything in one file (see protocol/documents/backup.py).

Everything includes the password hashes, so that everyone can log in after a restore; keep
the file as safe as the database. ``--without-passwords`` leaves them out (for a copy to
hand on); after restoring such a file every user must set a new password.

``OUT`` is a file, or a directory that gets a new ``trumpfbuch-YYYY-MM-DDTHHMMSS.json``;
without it, that directory is ``BACKUP_DIR``. ``--keep N`` then keeps only the newest N
backup files of that directory (what the daily backup does, ``protocol.documents.backup_files``, for
a cron line: ``manage.py backup --keep 14``). On a terminal it shows its progress
(``--progress``/``--no-progress`` to choose). The file is written under a temporary name
and renamed when complete: a backup interrupted half-way leaves no half-written file.
"""

import argparse
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from jobs.terminal import TerminalProgress
from protocol.documents.backup_files import prune_backups, write_backup, write_backup_to


class Command(BaseCommand):
    help = "Write clubs, members, seasons, users (with their password hashes) and every match to one file."

    def add_arguments(self, parser):
        parser.add_argument("out", nargs="?", default=None,
                            help="the backup file to write (JSON), or a directory (default: BACKUP_DIR)")
        parser.add_argument("--keep", type=int, default=None, metavar="N",
                            help="afterwards keep only the newest N backup files of the directory")
        parser.add_argument("--without-passwords", action="store_true",
                            help="leave the password hashes out; after a restore everyone must set a new password")
        parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                            help="a progress bar on stderr (default: when stderr is a terminal)")
        # The former opt-in, now the default; still accepted so that existing cron lines keep working.
        parser.add_argument("--with-passwords", action="store_true", help=argparse.SUPPRESS)

    def handle(self, *args, out, keep, **options):
        if options["with_passwords"] and options["without_passwords"]:
            raise CommandError("--with-passwords und --without-passwords schließen sich aus.")
        if keep is not None and keep < 1:
            raise CommandError("--keep braucht eine Zahl ab 1.")
        with_passwords = not options["without_passwords"]
        target = Path(out) if out else Path(settings.BACKUP_DIR)
        shown = options["progress"] if options["progress"] is not None else self.stderr.isatty()
        progress = TerminalProgress(self.stderr) if shown else None
        if out is None or target.is_dir():
            path, data = write_backup(target, with_passwords=with_passwords, progress=progress)
            directory = target
        else:
            path, data = target, write_backup_to(target, with_passwords=with_passwords, progress=progress)
            directory = target.parent
        if progress:
            progress.finish()
        matches = sum(len(c["matches"]) for c in data["clubs"])
        self.stdout.write(f"Sicherung geschrieben: {len(data['clubs'])} Vereine, {matches} Partien, "
                          f"{len(data['users'])} Benutzer -> {path}")
        if not with_passwords:
            self.stdout.write("Ohne Passwörter: nach dem Zurückspielen muss jeder Benutzer ein neues Passwort setzen.")
        if keep is not None:
            for removed in prune_backups(directory, keep):
                self.stdout.write(f"Alte Sicherung entfernt: {removed.name}")
