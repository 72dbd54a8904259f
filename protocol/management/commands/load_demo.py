"""``python manage.py load_demo``: the demo club for a first look (skipped if it exists)."""

from django.core.management.base import BaseCommand

from protocol.records.demo import CLUB_NAME, LOGINS, PASSWORD, demo_exists, load_demo


class Command(BaseCommand):
    help = (f"Load the demo club {CLUB_NAME!r} with members, a season and Partien. "
            f"Logins: {', '.join(LOGINS)} (password {PASSWORD!r}); schriftfuehrer is the secretary.")

    def add_arguments(self, parser):
        parser.add_argument("--seed", type=int, default=1987, help="the random seed of the demo deals")

    def handle(self, *args, **options):
        if demo_exists():
            self.stdout.write("Demo-Verein ist schon angelegt.")
            return
        club = load_demo(seed=options["seed"])
        matches = club.matches.count()
        self.stdout.write(self.style.SUCCESS(
            f"Demo-Verein „{club.name}“ mit {club.members.count()} Mitgliedern und {matches} Partien angelegt."))
        self.stdout.write(f"Anmelden: {', '.join(LOGINS)} – Passwort „{PASSWORD}“ (schriftfuehrer ist Schriftführer).")
