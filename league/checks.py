"""``manage.py check --database default``: seasons whose Partien don't fit them.

Every Partie is in a season of its own game, and a tournament's Partien are only the tables
of its rounds (``protocol.matches.season_refusals`` refuses anything else on the way in).
Partien stored before that rule are kept where they are; these warnings list them so that
the secretary can look at them:

- ``league.W001``: a season holding Partien of another game than its own (the migration
  that gave every season its game chose the game of most of its Partien);
- ``league.W002``: a tournament season holding Partien that are no table of its rounds;
- ``league.W003``: a Partie of more entries than a Partie holds (``protocol.rules.envelope
  .MAX_EVENTS``), stored before that limit: it shows and prints its first entries only.
"""

from __future__ import annotations

from django.core import checks
from django.db import DatabaseError
from django.db.models import Count, F, Q


def misfits() -> list[checks.CheckMessage]:
    """A warning per season with Partien of another game or, in a tournament, outside its rounds."""
    from league.models import Season

    found = []
    counted = ~Q(matches__status="annulled")  # an annulled Partie counts nowhere
    seasons = Season.objects.select_related("club").annotate(
        other_game=Count("matches", filter=counted & ~Q(matches__ruleset=F("ruleset"))),
        outside_rounds=Count("matches", filter=counted & Q(matches__round__isnull=True)),
    ).filter(Q(other_game__gt=0) | Q(mode=Season.Mode.TOURNAMENT, outside_rounds__gt=0))
    for season in seasons.order_by("club__name", "name"):
        if season.other_game:
            found.append(checks.Warning(
                f"Saison „{season.name}“ ({season.club.name}) ist eine Saison für {season.get_ruleset_display()}, "
                f"hat aber {season.other_game} Partien eines anderen Spiels.",
                hint="Die Partien bleiben, wo sie sind; eine falsch eingetragene kann annulliert werden.",
                obj=season, id="league.W001"))
        if season.is_tournament and season.outside_rounds:
            found.append(checks.Warning(
                f"Turnier „{season.name}“ ({season.club.name}) hat {season.outside_rounds} Partien, "
                "die kein Tisch einer seiner Runden sind.",
                hint="Eine solche Partie zählt in der Turniertabelle; sie kann annulliert werden "
                     "(Seite der Partie).",
                obj=season, id="league.W002"))
    return found + _too_long()


def _too_long() -> list[checks.CheckMessage]:
    from protocol.models import Match
    from protocol.rules.envelope import MAX_EVENTS

    long = (Match.objects.select_related("club").annotate(entries=Count("events"))
            .filter(entries__gt=MAX_EVENTS))
    return [checks.Warning(
        f"Partie {match.pk} vom {match.date:%d.%m.%Y} ({match.club.name}) hat {match.entries} Einträge; eine Partie "
        f"hat höchstens {MAX_EVENTS}, gezeigt und gedruckt werden ihre ersten {MAX_EVENTS}.",
        hint="Sie stammt aus der Zeit vor dieser Grenze; die Einträge bleiben gespeichert.",
        obj=match, id="league.W003") for match in long.order_by("pk")]


@checks.register(checks.Tags.database)
def seasons_hold_their_games(app_configs=None, databases=None, **kwargs) -> list[checks.CheckMessage]:
    if not databases or "default" not in databases:
        return []
    try:
        return misfits()
    except DatabaseError:  # not migrated yet: nothing to list
        return []
