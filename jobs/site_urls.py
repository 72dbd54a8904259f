"""The pages of the site's own jobs under /betrieb/ (staff only); the backup page beside them
is the protocol's (config/urls.py)."""

from django.urls import path

from . import site_views

urlpatterns = [
    path("auftrag/<uuid:pk>/", site_views.site_job, name="site_job"),
    path("auftrag/<uuid:pk>/stand/", site_views.site_job_progress, name="site_job_progress"),
    path("auftrag/<uuid:pk>/neu-starten/", site_views.site_job_retry, name="site_job_retry"),
]
