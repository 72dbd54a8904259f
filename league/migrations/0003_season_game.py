"""Every season has its game (``Season.ruleset``); league seasons had none so far.

A season without a game gets the game of its Partien: the only one, or the one most of
them are (such a season is listed by the check ``league.W001``, see league/checks.py), or
Chaotentrumpf if it has none. No Partie is deleted or moved.
"""

from collections import Counter

from django.db import migrations, models

DEFAULT_GAME = "chaotentrumpf"


def give_every_season_its_game(apps, schema_editor):
    Season = apps.get_model("league", "Season")
    Match = apps.get_model("protocol", "Match")
    for season in Season.objects.filter(ruleset=""):
        games = Counter(Match.objects.filter(season=season).values_list("ruleset", flat=True))
        # the most Partien; on a tie the first game the site knows (Chaotentrumpf first)
        order = [DEFAULT_GAME, "doppelkopf", "tarot"]
        ranked = sorted(games, key=lambda game: (-games[game], order.index(game) if game in order else len(order)))
        season.ruleset = ranked[0] if ranked else DEFAULT_GAME
        season.save(update_fields=["ruleset"])


class Migration(migrations.Migration):

    dependencies = [
        ("league", "0002_tournaments"),
        ("protocol", "0004_change_transcribe_action"),
    ]

    operations = [
        migrations.RunPython(give_every_season_its_game, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="season",
            name="ruleset",
            field=models.CharField(choices=[("chaotentrumpf", "Chaotentrumpf"), ("doppelkopf", "Doppelkopf"),
                                            ("tarot", "Tarot")], default="chaotentrumpf", max_length=20,
                                   verbose_name="game"),
        ),
    ]
