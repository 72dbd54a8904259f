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

