from django.urls import path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("verein/<slug:slug>/", views.club, name="club"),
]
