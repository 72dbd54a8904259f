"""The site's URLs plus the bench's floors (bench.floors); used by the bench process and the
load test's gunicorn only."""

from django.urls import path

from bench import floors
from config.urls import urlpatterns as site

urlpatterns = [
    path("bench-floor/bare/", floors.bare, name="bench_bare"),
    path("bench-floor/cached/<str:name>/", floors.cached, name="bench_cached"),
    path("bench-floor/checked/<int:pk>/<str:name>/", floors.cached_checked, name="bench_checked"),
    path("bench-floor/aggregate/<int:club_pk>/<int:season_pk>/", floors.aggregate, name="bench_aggregate"),
    path("bench-floor/aggregate-all-time/<int:club_pk>/<str:game>/", floors.aggregate_all_time,
         name="bench_aggregate_all_time"),
    path("bench-floor/member-cold/<int:club_pk>/<int:season_pk>/<int:member_pk>/", floors.member_cold,
         name="bench_member_cold"),
    path("bench-floor/feed/<int:pk>/", floors.feed, name="bench_feed"),
    path("bench-floor/one-row/", floors.one_row, name="bench_one_row"),
    path("bench-floor/archive/<int:club_pk>/", floors.archive, name="bench_archive"),
    *site,
]
