"""Partien of eight players with long names: the phone-width walk's and the Protokollant's
evening (tests/browser/conftest.py), and the pages the walk visits."""


from django.urls import reverse

from league.models import Member
from tests.routes import ROUTES, all_route_names, kwargs_for, pattern_keys

LONG = "Anna-Katharina Oberhuber-Schwarzenegger"


EIGHT = [LONG, "Bernd", "Carla", "Dieter", "Emil", "Frieda", "Gustav", "Hannelore Müller-Lüdenscheidt"]


DOWNLOADS = ("pdf", "export", "download", "public_csv", "public_json",  # not pages: files the browser saves or shows itself
             "rules_pack", "service_worker", "manifest")


FRAGMENTS = {"protocol:sheet", "job_progress", "site_job_progress",  # swapped into their pages by htmx
             "protocol:entries_sync",  # JSON for the offline queue (static/js/offline/entry.js)
             "public_live_board"}  # the live board's part that its page swaps in (static/js/live.js)


def twins(players):
    """The first two share the Trumpfwertung on rank As (312 each); the others take no Stich (Art. 16)."""
    results = {p: {"tricks": 0, "points": 0, "trumps": 0} for p in players}
    for p in players[:2]:
        results[p] = {"tricks": 5, "points": 156, "trumps": 6}
    return {"results": results, "trump": {"level": "rank", "value": "A"}}


def fill_twins(page):
    """The same Spiel, typed into the entry form of the eight."""
    for seat in range(8):
        line = (5, 156, 6) if seat < 2 else (0, 0, 0)
        for field, value in zip(("tricks", "points", "trumps"), line, strict=True):
            page.locator(f"input[name=p{seat}_{field}]").fill(str(value))


def members_named(club, names) -> dict:
    """The club's members by name, each of ``names`` created where the club has none of that name."""
    members = {m.name: m for m in club.members.all()}
    for name in names:
        if name not in members:
            members[name] = Member.objects.create(club=club, name=name)
    return members


def pages_for(persona, w):
    for name in all_route_names():
        allowed, methods = ROUTES[name]
        if methods == "post" or persona not in allowed or any(d in name for d in DOWNLOADS) or name in FRAGMENTS:
            continue
        yield name, reverse(name, kwargs=kwargs_for(name, pattern_keys(name), w))
