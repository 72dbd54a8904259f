from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class JobsConfig(AppConfig):
    """Infrastructure: a job, its runner, progress and pages. The apps register their own work
    (``jobs.work.register``, ``jobs.housekeeping.register_daily_backup``) when they are ready."""

    name = "jobs"
    verbose_name = _("Background jobs")
