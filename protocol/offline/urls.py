from django.urls import re_path

from protocol.offline import views

urlpatterns = [
    re_path(r"^offline/(?P<name>regeln-[0-9a-f]{16}\.zip)$", views.rules_pack, name="rules_pack"),
]
