from django.apps import AppConfig


class ProtocolConfig(AppConfig):
    """The Partie as the Protokollant keeps it: matches, Spiele, Strafen."""

    name = "protocol"
    default_auto_field = "django.db.models.BigAutoField"
