from django.contrib import admin
from django.urls import include, path, register_converter

from config.converters import IdConverter

register_converter(IdConverter, "id")

urlpatterns = [
    path("", include("league.urls")),
    path("", include("protocol.offline.urls")),  # the rules pack, /sw.js, the manifest (issue 17)
    path("", include("league.publishing.urls")),
    path("verein/<slug:slug>/partien/", include("protocol.urls")),
    path("verein/<slug:slug>/auftrag/", include("jobs.urls")),
    path("betrieb/", include("jobs.site_urls")),  # the operators' pages: backups
    path("", include("league.accounts.urls")),  # first run, invitations, profile: before Django's konto/
    path("konto/", include("django.contrib.auth.urls")),
    path("sprache/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
