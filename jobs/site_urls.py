"""The site operators' pages under /betrieb/ (staff only)."""

from django.urls import path

from . import site_views

urlpatterns = [
    path("sicherung/", site_views.backup_list, name="backups"),
    path("sicherung/datei/<str:name>", site_views.backup_download, name="backup_download"),
    path("auftrag/<uuid:pk>/", site_views.site_job, name="site_job"),
    path("auftrag/<uuid:pk>/stand/", site_views.site_job_progress, name="site_job_progress"),
    path("auftrag/<uuid:pk>/neu-starten/", site_views.site_job_retry, name="site_job_retry"),
]
