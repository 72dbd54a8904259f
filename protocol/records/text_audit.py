"""The stored texts the free-text boundary (:mod:`protocol.rules.text`) would now refuse.

Data saved before the boundary existed (or put into the database by other means) may still
hold control characters, NUL, lone surrogates, bidi controls, names of invisible characters only or names
that look alike. The exports cope with it (``league.spreadsheets.exports.writable``); this audit lists
it, each with the page where the secretary corrects it, for ``manage.py check_texts``.

A *finding* names the model and row, the field, the club, what is wrong (the validator's
German message) and how to fix it: a page address, or what to do where no page edits the
text (a Seat's name is the snapshot the protocol keeps).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass

from django.db.models import F
from django.urls import reverse
from django.utils import timezone

from league.models import Club, Member
from protocol.models import Match
from protocol.rules import text


@dataclass(frozen=True)
class Finding:
    model: str
    pk: int
    field: str
    club: str
    problem: str
    fix: str

    def line(self) -> str:
        return f"{self.model} {self.pk} {self.field} (Verein „{self.club}“): {self.problem} – {self.fix}"


# A Seat's name and a Partie's place are kept as recorded; no page changes them.
RECORD_AGAIN = ("Die Partie als Datei exportieren ({url}), den Text darin korrigieren, die Datei "
                "importieren und die alte Partie annullieren.")


def _club_findings(club: Club) -> Iterator[Finding]:
    settings = reverse("club_settings", kwargs={"slug": club.slug})
    for field, problem in (("name", text.name_problem(club.name, "Name des Vereins", 120)),
                           ("place", text.text_problem(club.place, "Ort", max_length=80))):
        if problem:
            yield Finding("Club", club.pk, field, club.name, problem, f"Korrigieren unter {settings}")
    members = list(club.members.order_by("pk"))
    for member in members:
        if problem := text.name_problem(member.name):
            yield _member_finding(club, member, problem)
    by_name = {m.name: m for m in members}
    for first, second in text.lookalikes(m.name for m in members):
        yield _member_finding(club, by_name[second], text.lookalike_message(first, second))
    for season in club.seasons.order_by("pk"):
        if problem := text.name_problem(season.name, "Name der Saison", 40):
            page = reverse("season_edit", kwargs={"slug": club.slug, "pk": season.pk})
            yield Finding("Season", season.pk, "name", club.name, problem, f"Korrigieren unter {page}")


def _member_finding(club: Club, member: Member, problem: str) -> Finding:
    page = reverse("member_edit", kwargs={"slug": club.slug, "pk": member.pk})
    return Finding("Member", member.pk, "name", club.name, problem,
                   f"Korrigieren unter {page} (alte Protokolle behalten den Namen, den sie verzeichnen)")


def _match_findings(match: Match) -> Iterator[Finding]:
    club = match.club
    export = reverse("protocol:export", kwargs={"slug": club.slug, "pk": match.pk})
    if problem := text.text_problem(match.place, "Ort", max_length=80):
        yield Finding("Match", match.pk, "place", club.name, problem, RECORD_AGAIN.format(url=export))
    seats = list(match.seats.all())
    for seat in seats:
        if problem := text.name_problem(seat.name, f"Spieler {seat.position + 1}"):
            yield Finding("Seat", seat.pk, "name", club.name, problem, RECORD_AGAIN.format(url=export))
    for first, second in text.lookalikes(s.name for s in seats):
        seat = next(s for s in seats if s.name == second)
        yield Finding("Seat", seat.pk, "name", club.name, text.lookalike_message(first, second),
                      RECORD_AGAIN.format(url=export))
    for event in match.events.all():
        for path, problem in text.string_problems(event.data):
            field = ".".join(str(p) for p in ("data", *path))
            page = reverse("protocol:entry_correct", kwargs={"slug": club.slug, "pk": match.pk,
                                                             "position": event.position})
            yield Finding("Event", event.pk, field, club.name, problem,
                          f"Eintrag {event.position + 1} korrigieren unter {page} (mit dem Grund der Korrektur)")


def stored_text_problems() -> Iterator[Finding]:
    """Every stored text the boundary refuses, club by club (after the clubs nobody could tell
    apart by their names)."""
    clubs = list(Club.objects.order_by("pk"))
    by_name = {c.name: c for c in clubs}
    for first, second in text.lookalikes(c.name for c in clubs):
        club = by_name[second]
        settings = reverse("club_settings", kwargs={"slug": club.slug})
        yield Finding("Club", club.pk, "name", club.name, text.lookalike_message(first, second),
                      f"Korrigieren unter {settings}")
    for club in clubs:
        yield from _club_findings(club)
        matches = (Match.objects.filter(club=club).select_related("club").order_by("pk")
                   .prefetch_related("seats", "events"))
        for match in matches.iterator(chunk_size=200):
            yield from _match_findings(match)



# -- repairing what no text may hold -----------------------------------------------------------

def repaired(value):
    """The JSON value with every string (keys too) free of what no text may hold (NUL, lone
    surrogates, control characters but tab and line breaks, bidi controls) and in NFC. The same
    mapping for every string, so a player's name stays the same in the seats, the results and
    the reasons."""
    if isinstance(value, str):
        return text.normalise(text.SURROGATE.sub("", "".join(
            c for c in value if not (unicodedata.category(c) == "Cc" and c not in text.MULTILINE_ALLOWED
                                     or c in text.BIDI_CONTROLS))))
    if isinstance(value, list):
        return [repaired(v) for v in value]
    if isinstance(value, dict):
        return {repaired(k): repaired(v) for k, v in value.items()}
    return value


REPAIR_REASON = ("Unzulässige Zeichen (Steuerzeichen, Nullzeichen, Surrogate, Steuerzeichen der Schreibrichtung) "
                 "aus den Texten entfernt.")


def repair_stored_texts(models=None) -> list[str]:
    """Remove what no text may hold from every stored text (see :func:`repaired`) so that the
    rules engine reads every stored Partie again; each repaired Partie gets an entry in its
    history. A row whose repaired name would clash with another is left as it is (``check_texts``
    lists it). ``models``: the model classes by name (a migration passes its historical ones).
    Returns what was repaired, one line each."""
    if models is None:
        from league.models import Season
        from protocol.models import Change, Event, SanctionLine, Seat
        models = {"Club": Club, "Member": Member, "Season": Season, "Match": Match, "Seat": Seat,
                  "Event": Event, "SanctionLine": SanctionLine, "Change": Change}
    done = []

    def moved(model, **rows):
        """The kept pages of these rows show their texts anew (league.registry.versions; a
        migration's models from before the versions have none to move)."""
        if any(f.name == "data_version" for f in models[model]._meta.concrete_fields):
            models[model].objects.filter(**rows).update(data_version=F("data_version") + 1)

    def fix_rows(model, fields, unique_within=None):
        for row in models[model].objects.all().iterator():
            changed = {f: repaired(getattr(row, f)) for f in fields if repaired(getattr(row, f)) != getattr(row, f)}
            if not changed:
                continue
            if unique_within and models[model].objects.filter(
                    **{unique_within: getattr(row, unique_within)}, **changed).exclude(pk=row.pk).exists():
                continue
            models[model].objects.filter(pk=row.pk).update(**changed)
            moved("Club", pk=row.pk if model == "Club" else row.club_id)
            if model == "Member":
                moved("Member", pk=row.pk)
            done.append(f"{model} {row.pk}: {', '.join(changed)}")

    fix_rows("Club", ["name", "place"])
    fix_rows("Member", ["name"], unique_within="club_id")
    fix_rows("Season", ["name"], unique_within="club_id")
    for match in models["Match"].objects.all().iterator():
        seats = list(models["Seat"].objects.filter(match_id=match.pk))
        events = list(models["Event"].objects.filter(match_id=match.pk))
        names = [repaired(s.name) for s in seats]
        if len(set(names)) != len(names):
            continue  # two seats would have the same name: left for the secretary
        changed = False
        if repaired(match.place) != match.place:
            models["Match"].objects.filter(pk=match.pk).update(place=repaired(match.place))
            changed = True
        for seat, name in zip(seats, names):
            if name != seat.name:
                models["Seat"].objects.filter(pk=seat.pk).update(name=name)
                changed = True
        for event in events:
            if repaired(event.data) != event.data:
                models["Event"].objects.filter(pk=event.pk).update(data=repaired(event.data))
                changed = True
        lines = False
        for line in models["SanctionLine"].objects.filter(match_id=match.pk):
            if repaired(line.reason) != line.reason:
                models["SanctionLine"].objects.filter(pk=line.pk).update(reason=repaired(line.reason))
                lines = True
        if changed or lines:
            # A new version of the Partie: what is kept per version or stamp (the engine's state,
            # a member's Partien and sanctions) is read anew, an offline phone replays on it.
            models["Match"].objects.filter(pk=match.pk).update(version=F("version") + 1, updated_at=timezone.now())
            moved("Club", pk=match.club_id)
            moved("Member", pk__in=[seat.member_id for seat in seats])
        if changed:
            models["Change"].objects.create(match_id=match.pk, action="correct", reason=REPAIR_REASON)
            done.append(f"Match {match.pk}")
    return done
