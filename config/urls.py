from django.contrib import admin
from django.urls import include, path, register_converter

from config.converters import IdConverter
from protocol.views import backups, check

register_converter(IdConverter, "id")

urlpatterns = [
    path("", include("league.urls")),
    path("", include("protocol.offline.urls")),  # the rules pack, /sw.js, the manifest: the offline pack
    path("", include("league.publishing.urls")),
    path("verein/<slug:slug>/partien/", include("protocol.urls")),
    # the public check page of a printed sheet (its QR code and typed code): no login
    path("pruefen/", check.check_form, name="sheet_check_form"),
    path("pruefen/<str:code>/", check.check_page, name="sheet_check"),
    path("verein/<slug:slug>/auftrag/", include("jobs.urls")),
    # the operators' pages (staff only): the backups, and the pages of the site's own jobs
    path("betrieb/sicherung/", backups.backup_list, name="backups"),
    path("betrieb/sicherung/datei/<str:name>", backups.backup_download, name="backup_download"),
    path("betrieb/", include("jobs.site_urls")),
    path("", include("league.accounts.urls")),  # first run, invitations, profile: before Django's konto/
    path("konto/", include("django.contrib.auth.urls")),
    path("sprache/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
