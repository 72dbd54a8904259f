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

        # A Partie deleted (the admin) moves the versions of the pages kept of it.
        from django.db.models.signals import pre_delete

        from protocol.models import Match
        from protocol.recording import kept_pages_of_deleted
        pre_delete.connect(kept_pages_of_deleted, sender=Match, dispatch_uid="recording.match_deleted")

        # The protocol's background work: the long sheet, the backup (and the daily one).
        from protocol.documents import background as backup_work  # noqa: F401
        from protocol.sheet import background as sheet_work  # noqa: F401
