from django.urls import path, re_path

from protocol.offline import views

urlpatterns = [
    re_path(r"^offline/(?P<name>regeln-[0-9a-f]{16}\.zip)$", views.rules_pack, name="rules_pack"),
    path("sw.js", views.service_worker, name="service_worker"),
    path("manifest.webmanifest", views.manifest, name="manifest"),
]
