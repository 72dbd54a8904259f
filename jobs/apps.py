from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class JobsConfig(AppConfig):
    name = "jobs"
    verbose_name = _("Background jobs")

    def ready(self):
        from . import backups, sheets  # noqa: F401 - register the backup's and the long sheet's work
