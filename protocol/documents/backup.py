"""Backup and restore of the whole site in one JSON file.

The backup holds the registry (users with their password hashes, so everyone can log in
after a restore, unless written ``without_passwords``; clubs with their secretaries,
members and seasons) and every Partie as its ``protocol/1`` document
with the ids, timestamps and history around it. Restoring fills an empty database and
checks every Partie with the rules engine on the way in: a damaged backup is refused whole.
Derived data (totals, winners, the league cache) is not in the file; it is computed again.
"""

from __future__ import annotations

import datetime
from collections import Counter
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.color import no_style
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from league.models import Club, Member, Round, Season, TableSeat
from league.registry import versions
from protocol import matches, reading, recording
from protocol.models import Change, Event, Lot, Match
from protocol.rules import DEFAULT, text

FORMAT = "trumpfbuch-backup/1"
USER_FIELDS = ("username", "first_name", "last_name", "email", "is_staff", "is_superuser", "is_active")


class RestoreRefused(Exception):
    """The backup can't be restored here; the message says why (German)."""


def _iso(value):
    return value.isoformat() if value else None


def dump(*, with_passwords: bool = True, progress=None) -> dict[str, Any]:
    """The whole site as one JSON-able dict; ``progress(done, total, phase)`` (e.g.
    ``jobs.work.Progress``, ``jobs.terminal.TerminalProgress``) hears of every Partie written."""
    User = get_user_model()
    total, done = Match.objects.count(), 0

    def counted(match):
        nonlocal done
        done += 1
        if progress:
            progress(done, total)
        return _dump_match(match)

    if progress:
        progress(0, total, gettext_noop("Writing the matches"))
    users = []
    for user in User.objects.order_by("pk"):
        row = {"id": user.pk, **{f: getattr(user, f) for f in USER_FIELDS}, "date_joined": _iso(user.date_joined)}
        if with_passwords:
            row["password"] = user.password
        users.append(row)
    clubs = []
    for club in Club.objects.order_by("pk").prefetch_related("secretaries"):
        clubs.append({
            "id": club.pk, "name": club.name, "slug": club.slug, "place": club.place,
            "standings_public": club.standings_public, "published": club.published,
            "embed_origins": club.embed_origins, "created": _iso(club.created),
            "correction_window_minutes": club.correction_window // datetime.timedelta(minutes=1),
            "secretaries": sorted(u.pk for u in club.secretaries.all()),
            "members": [{"id": m.pk, "name": m.name, "user": m.user_id, "is_guest": m.is_guest, "active": m.active,
                         "joined": _iso(m.joined)} for m in club.members.order_by("pk")],
            "seasons": [{"id": s.pk, "name": s.name, "start": _iso(s.start), "end": _iso(s.end),
                         "ranking_rule": s.ranking_rule, "mode": s.mode, "ruleset": s.ruleset,
                         "game_settings": s.game_settings, "tournament_format": s.tournament_format,
                         "rounds": [_dump_round(r) for r in s.rounds.order_by("number")]}
                        for s in club.seasons.order_by("pk")],
            "matches": [counted(m) for m in club.matches.order_by("pk").select_related("season", "club")],
        })
    return {"format": FORMAT, "created": _iso(timezone.now()), "passwords": with_passwords,
            "users": users, "clubs": clubs}


def _dump_round(round_: Round) -> dict[str, Any]:
    return {"id": round_.pk, "number": round_.number, "date": _iso(round_.date), "seed": round_.seed,
            "created_by": round_.created_by_id, "created_at": _iso(round_.created_at),
            "seats": [[seat.table, seat.position, seat.member_id]
                      for seat in round_.seats.order_by("table", "position")]}


def _dump_match(match: Match) -> dict[str, Any]:
    return {
        "id": match.pk, "season": match.season_id, "round": match.round_id, "table_number": match.table_number,
        "created_by": match.created_by_id,
        "created_at": _iso(match.created_at), "updated_at": _iso(match.updated_at), "version": match.version,
        "finished_at": _iso(match.finished_at),
        "members": [seat.member_id for seat in match.seats.all()],
        "protocol": reading.document(match),
        "events": [{"created_by": e.created_by_id, "created_at": _iso(e.created_at),
                    "submission": str(e.submission) if e.submission else None} for e in match.events.all()],
        "history": [{"action": c.action, "position": c.position, "before": c.before, "after": c.after,
                     "reason": c.reason, "user": c.user_id, "at": _iso(c.at), "recorded_at": _iso(c.recorded_at),
                     "submission": str(c.submission) if c.submission else None, "version": c.version}
                    for c in match.changes.all()],
        "lots": [{"purpose": lot.purpose, "data": lot.data, "drawn_by": lot.drawn_by_id, "at": _iso(lot.at)}
                 for lot in match.lots.all()],
    }


def load(data: Any) -> dict[str, int]:
    """Fill an empty database from a backup; every Partie is checked by the rules engine."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RestoreRefused(f'Das ist keine Trumpfbuch-Sicherung (Format "{FORMAT}" erwartet).')
    User = get_user_model()
    if Club.objects.exists() or Match.objects.exists() or User.objects.exists():
        raise RestoreRefused("Die Datenbank ist nicht leer; eine Sicherung wird nur in eine leere Datenbank "
                             "zurückgespielt (erst `manage.py flush`).")
    _refuse_unstorable_texts(data)
    counts = {"users": 0, "clubs": 0, "members": 0, "seasons": 0, "matches": 0, "without_password": 0}
    try:
        with transaction.atomic():
            for row in data["users"]:
                user = User(pk=row["id"], **{f: row[f] for f in USER_FIELDS})
                user.date_joined = _dt(row["date_joined"]) or timezone.now()
                if row.get("password"):
                    user.password = row["password"]
                else:  # a backup written without passwords: this user must set a new one
                    user.set_unusable_password()
                    counts["without_password"] += 1
                user.save()
                counts["users"] += 1
            for row in data["clubs"]:
                _load_club(row, counts)
            _reset_sequences()
    except recording.RuleViolation as refused:
        raise RestoreRefused("Eine Partie der Sicherung verletzt die Regeln: "
                             + "; ".join(e.message for e in refused.errors[:3])) from refused
    except (KeyError, TypeError, ValueError) as broken:
        raise RestoreRefused(f"Die Sicherung ist unvollständig oder beschädigt ({broken!r}).") from broken
    return counts


def _refuse_unstorable_texts(data: dict) -> None:
    """NUL and lone surrogates can't be stored in PostgreSQL: a backup of old data holding them
    is refused with where they are, before anything is written (protocol.rules.text)."""
    for path, message in text.string_problems(data):
        if "Nullzeichen" in message or "Surrogat" in message:
            where = "/".join(str(p) for p in path)
            raise RestoreRefused(f"Die Sicherung kann so nicht zurückgespielt werden: bei {where}: {message} "
                                 "In der alten Datenbank `manage.py check_texts --repair` ausführen und neu sichern.")


def _load_club(row: dict, counts: dict) -> None:
    club = Club.objects.create(pk=row["id"], name=row["name"], slug=row["slug"], place=row["place"],
                               standings_public=row["standings_public"], published=row.get("published", False),
                               embed_origins=row.get("embed_origins", ""))
    if "correction_window_minutes" in row:  # a backup from before the window: the default
        Club.objects.filter(pk=club.pk).update(
            correction_window=datetime.timedelta(minutes=row["correction_window_minutes"]))
    if row.get("created"):
        Club.objects.filter(pk=club.pk).update(created=_dt(row["created"]))
    club.secretaries.set(row["secretaries"])
    members = {}
    for m in row["members"]:
        members[m["id"]] = Member.objects.create(
            pk=m["id"], club=club, name=m["name"], user_id=m["user"], is_guest=m["is_guest"], active=m["active"],
            joined=datetime.date.fromisoformat(m["joined"]) if m["joined"] else None)
    counts["members"] += len(members)
    seasons = {}
    for s in row["seasons"]:
        # a backup from before every season had its game: the game of its Partien
        game = s.get("ruleset") or _game_of_partien(row["matches"], s["id"])
        seasons[s["id"]] = Season.objects.create(
            pk=s["id"], club=club, name=s["name"], start=datetime.date.fromisoformat(s["start"]),
            end=datetime.date.fromisoformat(s["end"]), ranking_rule=s["ranking_rule"], ruleset=game,
            **{key: s[key] for key in ("mode", "game_settings", "tournament_format") if key in s})
        for r in s.get("rounds", []):  # a tournament's rounds with their seating
            round_ = Round.objects.create(pk=r["id"], season=seasons[s["id"]], number=r["number"],
                                          date=datetime.date.fromisoformat(r["date"]), seed=r["seed"],
                                          created_by_id=r["created_by"])
            Round.objects.filter(pk=round_.pk).update(created_at=_dt(r["created_at"]))
            TableSeat.objects.bulk_create([TableSeat(round=round_, table=table, position=position,
                                                     member=members[member]) for table, position, member in r["seats"]])
    counts["seasons"] += len(seasons)
    counts["clubs"] += 1
    for m in row["matches"]:
        _load_match(club, m, members, seasons)
        counts["matches"] += 1
    # the Partien's rows were put back as stored after the recording door saw them
    versions.touch_club(club.pk)
    versions.touch_members(members)


def _game_of_partien(matches: list[dict], season_id: int) -> str:
    """The game of most of the season's Partien, the default game if it has none (as the
    migration league/0003 gave the seasons stored before)."""
    games = Counter(m["protocol"]["ruleset"] for m in matches if m["season"] == season_id)
    return max(sorted(games), key=lambda game: (games[game], game == DEFAULT)) if games else DEFAULT


def _load_match(club, row: dict, members: dict, seasons: dict) -> None:
    doc = row["protocol"]
    table = [members[pk] for pk in row["members"]]
    scorekeeper = table[doc["players"].index(doc["scorekeeper"])]
    match = matches.create_match(
        club=club, season=seasons.get(row["season"]), date=datetime.date.fromisoformat(doc["date"]),
        place=doc.get("place", ""), ruleset=doc["ruleset"], members=table, scorekeeper=scorekeeper,
        settings=doc.get("settings", {}), events=doc["events"], seat_names=doc["players"],
        user=None, restore={"id": row["id"]})
    Match.objects.filter(pk=match.pk).update(
        round_id=row.get("round"), table_number=row.get("table_number"), created_by=row["created_by"], created_at=_dt(row["created_at"]), updated_at=_dt(row["updated_at"]),
        version=row["version"])
    for position, meta in enumerate(row["events"]):
        Event.objects.filter(match=match, position=position).update(
            created_by=meta["created_by"], created_at=_dt(meta["created_at"]), submission=meta["submission"])
    for c in row["history"]:
        # recorded_at, submission and version: absent from backups written before they were kept
        change = Change.objects.create(match=match, action=c["action"], position=c["position"], before=c["before"],
                                       after=c["after"], reason=c["reason"], user_id=c["user"],
                                       recorded_at=_dt(c.get("recorded_at")), submission=c.get("submission"),
                                       version=c.get("version"))
        Change.objects.filter(pk=change.pk).update(at=_dt(c["at"]))
    if match.finished_at is not None:  # when it finished, not when it was restored (the correction window)
        last = [_dt(c["at"]) for c in row["history"] if c["action"] != Change.Action.CONFIRM]
        Match.objects.filter(pk=match.pk).update(finished_at=_dt(row.get("finished_at")) or max(last, default=None))
    for lot in row["lots"]:
        stored = Lot.objects.create(match=match, purpose=lot["purpose"], data=lot["data"], drawn_by_id=lot["drawn_by"])
        Lot.objects.filter(pk=stored.pk).update(at=_dt(lot["at"]))


def _dt(value):
    return datetime.datetime.fromisoformat(value) if value else None


def _reset_sequences() -> None:
    """Rows were inserted with their ids: move PostgreSQL's sequences past them."""
    from django.apps import apps
    models = [m for app in ("auth", "league", "protocol") for m in apps.get_app_config(app).get_models()]
    with connection.cursor() as cursor:
        for sql in connection.ops.sequence_reset_sql(no_style(), models):
            cursor.execute(sql)
