from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeagueConfig(AppConfig):
    """The registry: clubs, members, seasons and who may do what in them."""

    name = "league"
    verbose_name = _("League")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from . import checks  # noqa: F401  (registers the check of the seasons' games)
        from .ratings import models, triggers  # noqa: F401 - the ratings' tables; they follow each write
        from .registry import versions  # noqa: F401 - moves the kept pages' versions on every save of a member or season
        from .spreadsheets import background  # noqa: F401 - registers the league's background work
