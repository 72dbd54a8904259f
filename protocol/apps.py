from django.apps import AppConfig


class ProtocolConfig(AppConfig):
    """The Partie as the Protokollant keeps it: matches, Spiele, Strafen."""

    name = "protocol"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        # The engine's words (protocol/rules/words.py) are translated by Django's gettext, in
        # the language of the request.
        from django.utils.translation import gettext

        from protocol.rules import words
        words.use_translator(gettext)

        # The protocol's background work: the long sheet, the backup (and the daily one).
        from protocol.documents import background as backup_work  # noqa: F401
        from protocol.sheet import background as sheet_work  # noqa: F401
