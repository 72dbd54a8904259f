"""Statements written once: the SQL Django writes for a read of a fixed shape, kept per process
and run with each call's values.

Building a query (filters, joins, aggregates with their conditions) and writing its SQL is
Python work Django does anew for every queryset: for the league table's grouped aggregates
2.4 ms a page on PostgreSQL, more than most of them take to run; for the state poll's one read
(protocol.views.state_tag) most of what an unchanged poll costs. In the registry so that every
app may use it. A
:class:`Statements` builds its querysets once per shape with *markers* in place of the values
(a negative id no row has, a string no game has), notes where each marker landed among the
statement's parameters, and from then on only puts the call's values in their places. A
moment (a ``datetime``) is put in its place as the database's driver takes it: Django adapts a
datetime on its way into the SQL (SQLite: as text in UTC), and does the same to the call's.

The querysets stay the one definition of what is read; the rows come back as dicts by the
names ``.values()`` gives them, with the values as the database driver reads them (Django's
converters are not applied: a count or a sum is a number either way, but SQLite gives a
date as text and a flag as 0 or 1). A shape is which values are given (a table of all time
has no season) and the database's vendor: a value of None is never put in a marker's place.
"""

from __future__ import annotations

import datetime
import itertools
from collections.abc import Callable
from typing import Any

from django.db import connection
from django.db.models.query import get_related_populators
from django.db.models.signals import post_save, pre_save

_MARKER_IDS = itertools.count(-7_000_001, -1)
# No Partie nor anything else was written at these moments (1901), one microsecond apart.
_MARKER_TIMES = (datetime.datetime(1901, 1, 1, tzinfo=datetime.UTC) + datetime.timedelta(microseconds=n)
                 for n in itertools.count(1))


def _as_given(value):
    return value


def _as_datetime(value):
    return connection.ops.adapt_datetimefield_value(value)


def _marker(name: str, kind: type):
    if kind is int:
        return next(_MARKER_IDS)
    if kind is datetime.datetime:
        return next(_MARKER_TIMES)
    return f"\x1f{name}\x1f"


class Statements:
    """``build(**values)`` returns querysets of ``.values()`` rows; ``run(**values)`` gives
    their rows, as lists of dicts, for these values (ints, strings or aware datetimes, or None
    where the build leaves a filter out)."""

    def __init__(self, build: Callable[..., tuple], **kinds: type) -> None:
        self.build, self.kinds = build, kinds
        self._written: dict[tuple, list[tuple[str, list[tuple[Callable | None, Any]], Any]]] = {}

    def _write(self, shape: tuple) -> list[tuple[str, list[tuple[Callable | None, Any]], Any]]:
        given = dict(shape[1:])
        markers = {name: _marker(name, kind) for name, kind in self.kinds.items() if given[name]}
        by_marker = {marker: (name, _as_given) for name, marker in markers.items()}
        by_marker |= {_as_datetime(marker): (name, _as_datetime) for name, marker in markers.items()
                      if isinstance(marker, datetime.datetime)}
        written = []
        for queryset in self.build(**{name: markers.get(name) for name in self.kinds}):
            compiler = queryset.query.get_compiler(using=queryset.db)
            sql, params = compiler.as_sql()
            # (prepare, name): the call's value of ``name`` as ``prepare`` gives it; (None,
            # value): a constant of the query
            slots = [by_marker[p][::-1] if isinstance(p, int | str | datetime.datetime) and p in by_marker
                     else (None, p) for p in params]
            written.append((sql, slots, compiler))
        placed = {name for _sql, slots, _compiler in written for prepare, name in slots if prepare}
        if placed != set(markers):  # a value Django changed on its way into the SQL: not ours to write
            raise ValueError(f"{sorted(set(markers) - placed)} not found among the statements' parameters")
        return written

    def _written_for(self, values: dict) -> list[tuple[str, list[tuple[Callable | None, Any]], Any]]:
        shape = (connection.vendor, *((name, values[name] is not None) for name in self.kinds))
        written = self._written.get(shape)
        if written is None:
            written = self._written[shape] = self._write(shape)
        return written

    def _statements(self, values: dict) -> list[tuple[str, list]]:
        return [(sql, [prepare(values[v]) if prepare else v for prepare, v in slots])
                for sql, slots, _ in self._written_for(values)]

    def objects(self, **values: Any) -> list:
        """The first statement's rows as its queryset gives them: model instances with the rows
        it joins (``select_related``), Django's converters applied. The compiler that wrote the
        SQL once reads the rows, as a queryset's iteration does (django.db.models.query.ModelIterable),
        so the instances are what the queryset itself would have given."""
        sql, slots, compiler = self._written_for(values)[0]
        with connection.cursor() as cursor:
            cursor.execute(sql, [prepare(values[v]) if prepare else v for prepare, v in slots])
            rows = cursor.fetchall()
        if not rows:
            return []
        db, select, klass_info = compiler.using, compiler.select, compiler.klass_info
        start, end = klass_info["select_fields"][0], klass_info["select_fields"][-1] + 1
        names = [column[0].target.attname for column in select[start:end]]
        populators = get_related_populators(klass_info, select, db)
        annotations = compiler.annotation_col_map.items()
        found = []
        for row in compiler.results_iter(results=[rows]):
            instance = klass_info["model"].from_db(db, names, row[start:end])
            for populator in populators:
                populator.populate(row, instance)
            for name, column in annotations:
                setattr(instance, name, row[column])
            found.append(instance)
        return found

    def rows(self, **values: Any) -> list[tuple]:
        """The first statement's rows as tuples, Django's converters applied as the queryset
        applies them (a moment an aware datetime on every database, not SQLite's text)."""
        sql, slots, compiler = self._written_for(values)[0]
        with connection.cursor() as cursor:
            cursor.execute(sql, [prepare(values[v]) if prepare else v for prepare, v in slots])
            rows = cursor.fetchall()
        return list(compiler.results_iter(results=[rows], tuple_expected=True)) if rows else []

    def instances(self, model, **values: Any) -> list:
        """The first statement's rows as instances of ``model`` (``Model.objects.raw``: Django's
        converters applied to the model's fields; any other column is an attribute as the
        driver reads it)."""
        sql, params = self._statements(values)[0]
        return list(model.objects.raw(sql, params))

    def run(self, **values: Any) -> list[list[dict]]:
        results = []
        with connection.cursor() as cursor:
            for sql, params in self._statements(values):
                cursor.execute(sql, params)
                names = [column[0] for column in cursor.description]
                results.append([dict(zip(names, row, strict=True)) for row in cursor.fetchall()])
        return results



class Insert:
    """The INSERT of a model's rows, written as SQL once per process and database vendor: every
    column Django's ``save`` would write, each value prepared as Django prepares it
    (``pre_save``: a moment ``auto_now_add``; ``get_db_prep_save``: JSON, UUIDs, moments), with
    the new id read back where ``returning`` asks for it (one row at a time) and otherwise all
    rows in one ``executemany``.

    The save of a Spiel writes its event, its line in the history and the players' score lines:
    through ``Model.save`` and ``bulk_create`` Django built and wrote each statement anew, a
    tenth of a millisecond apiece, more than SQLite takes to run it. Where a receiver of
    ``pre_save`` or ``post_save`` is connected for the model, each row is saved by Django
    (``save``, which sends them) instead."""

    def __init__(self, model, *, returning: bool = False) -> None:
        self.model, self.returning = model, returning
        self._written: dict[tuple[str, bool], tuple[str, list]] = {}

    def _sql(self, returns: bool) -> tuple[str, list]:
        """The statement and its fields; ``returns``: it reads the new id back (``RETURNING``)."""
        written = self._written.get((connection.vendor, returns))
        if written is None:
            meta, quote = self.model._meta, connection.ops.quote_name
            fields = [f for f in meta.concrete_fields if f is not meta.auto_field and not f.generated]
            sql = (f"INSERT INTO {quote(meta.db_table)} ({', '.join(quote(f.column) for f in fields)}) "
                   f"VALUES ({', '.join(['%s'] * len(fields))})")
            if returns:
                sql += f" RETURNING {quote(meta.pk.column)}"
            written = self._written[(connection.vendor, returns)] = (sql, fields)
        return written

    def rows(self, objs: list) -> list:
        """Write ``objs`` (unsaved instances of the model); they are saved instances then, with
        their ids where ``returning``."""
        if not objs:
            return objs
        if pre_save.has_listeners(self.model) or post_save.has_listeners(self.model):
            for obj in objs:
                obj.save(force_insert=True)
            return objs
        # an SQLite before 3.35 knows no RETURNING: the id the insert gave, as Django reads it then
        returns = self.returning and connection.features.can_return_columns_from_insert
        sql, fields = self._sql(returns)
        values = [[f.get_db_prep_save(f.pre_save(obj, True), connection) for f in fields] for obj in objs]
        with connection.cursor() as cursor:
            if self.returning:
                pk = self.model._meta.pk
                for obj, row in zip(objs, values, strict=True):
                    cursor.execute(sql, row)
                    setattr(obj, pk.attname, cursor.fetchone()[0] if returns else cursor.lastrowid)
            else:
                cursor.executemany(sql, values)
        for obj in objs:
            obj._state.adding, obj._state.db = False, connection.alias
        return objs


class Update:
    """``UPDATE`` of the fields ``sets`` of the rows whose fields ``where`` equal the values
    given, written as SQL once per process and database vendor (as :class:`Insert`; the values
    prepared as Django's ``update`` prepares them); :meth:`run` says how many rows it changed.
    No signal: Django's ``update`` sends none either."""

    def __init__(self, model, *, sets: tuple[str, ...], where: tuple[str, ...]) -> None:
        meta = model._meta
        self.model = model
        self.sets = [meta.get_field(name) for name in sets]
        self.where = [meta.get_field(name) for name in where]
        self._written: dict[str, str] = {}

    def _sql(self) -> str:
        sql = self._written.get(connection.vendor)
        if sql is None:
            quote = connection.ops.quote_name
            sql = self._written[connection.vendor] = (
                f"UPDATE {quote(self.model._meta.db_table)} SET "
                + ", ".join(f"{quote(f.column)} = %s" for f in self.sets)
                + " WHERE " + " AND ".join(f"{quote(f.column)} = %s" for f in self.where))
        return sql

    def run(self, sets: dict[str, Any], where: dict[str, Any]) -> int:
        """Set each field of ``sets`` to its value there, in the rows where each field of
        ``where`` has its value there (a field by its name or attribute name: ``winner`` or
        ``winner_id``)."""
        params = [f.get_db_prep_save(_value(sets, f), connection) for f in self.sets]
        params += [f.get_db_prep_value(_value(where, f), connection, prepared=False) for f in self.where]
        with connection.cursor() as cursor:
            cursor.execute(self._sql(), params)
            return cursor.rowcount


def _value(values: dict[str, Any], field) -> Any:
    return values[field.attname] if field.attname in values else values[field.name]
