from django.urls import path

from . import views

urlpatterns = [
    path("<uuid:pk>/", views.job_page, name="job"),
    path("<uuid:pk>/stand/", views.job_progress, name="job_progress"),
    path("<uuid:pk>/datei/", views.job_download, name="job_download"),
    path("<uuid:pk>/neu-starten/", views.job_retry, name="job_retry"),
]
