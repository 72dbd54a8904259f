"""The versions the kept pages are validated by: ``Club.data_version`` (the club's tables, the
places over time) and ``Member.data_version`` (a member's own Partien and sanctions), moved in
the transaction of every write that changes what those pages show (league.standings.table_cache).

A page reads them with the club's or member's row it fetches anyway: checking a kept page costs
no query of its own, however many Partien the club has played (an aggregate over them grew with
the history).

Who moves them:

- the recording door (protocol.recording), for every write to a Partie: its members always,
  the club when a finished Partie is written or a Partie finishes or stops being finished (only
  finished ones count in a table, so the tables being played tonight keep the club's);
- here, a member saved or deleted (renamed, guest, active, linked: the club and the member), a
  season saved or deleted (name, ranking rule, mode, game: the club) and a secretary added or
  removed (the club: the viewers' roles are kept per its version), whatever saves them (forms,
  the admin, imports);
- a Partie deleted (protocol.apps connects it) and the bulk writers that bypass both: the text
  audit, the history generator, a backup's restore, an import's end of day;
- the ratings' pass (league.ratings.ledger): the members whose ratings it wrote again (a
  member's page shows his rating).

Each is one ``UPDATE ... SET data_version = data_version + 1``: two writers never lose a move.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import connection
from django.db.models import F
from django.db.models.signals import m2m_changed, post_delete, post_save

from league.models import Club, Member, Season


def touch_club(club_id: int) -> None:
    """What the club's tables show may have changed."""
    Club.objects.filter(pk=club_id).update(data_version=F("data_version") + 1)


def touch_members(member_ids: Iterable[int]) -> None:
    """What these members' own pages show may have changed. The statement is written here, not
    by the ORM: every save of a Spiel sends it, and building the update cost Django several
    times what running it does. The rows in the order of their ids, as every writer locks them,
    at most ``_AT_ONCE`` a statement (SQLite binds at most 999 values in older builds)."""
    ids = sorted(set(member_ids))
    quote = connection.ops.quote_name
    table, key, column = quote(Member._meta.db_table), quote(Member._meta.pk.column), quote("data_version")
    with connection.cursor() as cursor:
        for start in range(0, len(ids), _AT_ONCE):
            some = ids[start:start + _AT_ONCE]
            cursor.execute(f"UPDATE {table} SET {column} = {column} + 1 "  # noqa: S608 - names quoted, values bound
                           f"WHERE {key} IN ({', '.join(['%s'] * len(some))})", some)


_AT_ONCE = 500


def _member_written(sender, instance: Member, raw: bool = False, **kwargs) -> None:
    if raw:  # a fixture loads rows as they were
        return
    touch_club(instance.club_id)
    touch_members([instance.pk])


def _member_deleted(sender, instance: Member, **kwargs) -> None:
    touch_club(instance.club_id)


def _season_written(sender, instance: Season, raw: bool = False, **kwargs) -> None:
    if not raw:
        touch_club(instance.club_id)


def _secretaries_changed(sender, instance, action: str, reverse: bool, pk_set, **kwargs) -> None:
    """A secretary added or removed: the roles kept per club version (league.registry.access)."""
    if not reverse:
        if action in ("post_add", "post_remove", "post_clear"):
            touch_club(instance.pk)  # and the club in hand asks by its new version from now on
            instance.data_version = Club.objects.values_list("data_version", flat=True).get(pk=instance.pk)
    elif action in ("post_add", "post_remove"):  # user.<clubs>.add(club): the clubs are the pks
        for club_id in pk_set:
            touch_club(club_id)
    elif action == "pre_clear":  # the clubs he keeps the books of, while they are known
        for club_id in Club.objects.filter(secretaries=instance).values_list("pk", flat=True):
            touch_club(club_id)


m2m_changed.connect(_secretaries_changed, sender=Club.secretaries.through, dispatch_uid="versions.secretaries")
post_save.connect(_member_written, sender=Member, dispatch_uid="versions.member_saved")
post_delete.connect(_member_deleted, sender=Member, dispatch_uid="versions.member_deleted")
post_save.connect(_season_written, sender=Season, dispatch_uid="versions.season_saved")
post_delete.connect(_season_written, sender=Season, dispatch_uid="versions.season_deleted")
