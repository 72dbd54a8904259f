"""manage.py rebuild_ratings [--club SLUG] [--game KEY]: every rating computed anew from the
first Partie, exactly the numbers the background work reaches Partie by Partie."""

import time

from django.core.management.base import BaseCommand, CommandError

from league.models import Club
from league.ratings import ledger
from protocol.rules import RULESETS


class Command(BaseCommand):
    help = "Compute the ratings anew from the first Partie (per club and game)."

    def add_arguments(self, parser):
        parser.add_argument("--club", help="the club's short name (slug); all clubs without it")
        parser.add_argument("--game", help="the game's key; all games without it")

    def handle(self, *args, club=None, game=None, **options):
        clubs = Club.objects.all()
        if club:
            clubs = clubs.filter(slug=club)
            if not clubs.exists():
                raise CommandError(f"Kein Verein mit dem Kurznamen „{club}“.")
        if game and game not in RULESETS:
            raise CommandError(f"Unbekanntes Spiel „{game}“ (bekannt: {', '.join(sorted(RULESETS))}).")
        for each in clubs.order_by("pk"):
            for key in [game] if game else ledger.games_of(each):
                started = time.monotonic()
                rated = ledger.rebuild(each, key)
                self.stdout.write(f"{each.slug} {key}: {rated} Partien in {time.monotonic() - started:.1f} s")
