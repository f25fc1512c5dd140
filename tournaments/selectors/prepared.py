"""Querysets compiled once: the table link's hot reads without compiling the same SQL again.

Responsible for: ``Prepared``, a queryset built by a function of its parameters. The first run
in a thread compiles it with marker values, as Django would, and keeps the SQL, where each
parameter goes, the columns' converters and how the select_related rows are split into
instances; every later run executes that SQL with the new values and builds the instances as
Django's ModelIterable does (the same rows, the same instances, their select_related
relations cached). The SQL stays the ORM's: nothing here is written by hand.

Why: a table's read and a result's write run the same five or so queries for every phone,
and Django compiles each of them again every time — for the match read with its round,
phase, tournament and pairs (nine tables, 150 columns), the compiling costs more CPU than
PostgreSQL spends answering it. benchmarks/results_path.py measures it.

Must not: prepare a queryset whose SQL depends on the values (``__in`` with a list, a None
that becomes ``IS NULL``, a slice from a parameter): each parameter must appear once, as a
plain placeholder value (``Prepared`` checks this when it compiles, and refuses otherwise).
Annotations and select_related work; prefetch_related, values() and only()/defer() are not
supported (refused as well).

Terms: none of the game's; "compile" is Django's word for turning a queryset into SQL.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.db import connections
from django.db.models import Model, QuerySet
from django.db.models.query import ModelIterable, get_related_populators


class _Compiled:
    def __init__(self, queryset: QuerySet, markers: list[Any], using: str) -> None:
        if queryset._prefetch_related_lookups or queryset._iterable_class is not ModelIterable:
            raise ValueError("Prepared: only a plain queryset of instances can be prepared")
        if queryset.query.deferred_loading != (frozenset(), True):
            raise ValueError("Prepared: only()/defer() are not supported")
        self.connection = connections[using]
        compiler = queryset.query.get_compiler(using=using)
        self.sql, params = compiler.as_sql()
        self.params = list(params)
        self.slots = []
        for marker in markers:
            found = [n for n, value in enumerate(self.params) if value == marker]
            if len(found) != 1:
                raise ValueError(f"Prepared: a parameter appears {len(found)} times in the SQL")
            self.slots.append(found[0])
        fields = [s[0] for s in compiler.select[0 : compiler.col_count]]
        if compiler.has_composite_fields(fields):
            raise ValueError("Prepared: composite fields are not supported")
        self.compiler = compiler
        self.converters = compiler.get_converters(fields)
        klass_info = compiler.klass_info
        self.model = klass_info["model"]
        select_fields = klass_info["select_fields"]
        self.start, self.end = select_fields[0], select_fields[-1] + 1
        self.init_list = [f[0].target.attname for f in compiler.select[self.start : self.end]]
        self.populators = get_related_populators(klass_info, compiler.select, using)
        self.annotations = dict(compiler.annotation_col_map or {})
        self.using = using

    def run(self, values: tuple, related: dict[str, Model]) -> list[Model]:
        params = list(self.params)
        for slot, value in zip(self.slots, values, strict=True):
            params[slot] = value
        with self.connection.cursor() as cursor:
            cursor.execute(self.sql, params)
            rows = cursor.fetchall()
        if self.converters:
            rows = self.compiler.apply_converters(rows, self.converters)
        found = []
        for row in rows:
            obj = self.model.from_db(self.using, self.init_list, row[self.start : self.end])
            for populator in self.populators:
                populator.populate(row, obj)
            for name, position in self.annotations.items():
                setattr(obj, name, row[position])
            for name, value in related.items():  # as a related manager's queryset does
                self.model._meta.get_field(name).set_cached_value(obj, value)
            found.append(obj)
        return found


class Prepared:
    """``Prepared(build, markers)``: ``build(*values)`` returns the queryset; ``markers`` are
    values of the parameters' types that no real value equals (they find the placeholders).

    ``run(*values)`` returns the list of instances; ``related={"match": match}`` sets a
    foreign key's instance on each (what ``match.submissions.all()`` does for free)."""

    def __init__(self, build: Callable[..., QuerySet], *markers: Any, using: str = "default"):
        self.build = build
        self.markers = list(markers)
        self.using = using
        self._local = threading.local()  # a compiler holds its thread's connection

    def _compiled(self) -> _Compiled:
        compiled = getattr(self._local, "compiled", None)
        if compiled is None or compiled.connection is not connections[self.using]:
            compiled = _Compiled(self.build(*self.markers), self.markers, self.using)
            self._local.compiled = compiled
        return compiled

    def run(self, *values: Any, related: dict[str, Model] | None = None) -> list[Model]:
        return self._compiled().run(values, related or {})
