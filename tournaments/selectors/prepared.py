"""Queries compiled once: the table link's hot reads and writes without compiling the same SQL
again.

Responsible for:

- ``Prepared``, a queryset built by a function of its parameters. The first run in the process
  compiles it with marker values, as Django would, and keeps the SQL, where each parameter
  goes, the columns' converters and how the select_related rows are split into instances;
  every later run executes that SQL with the new values and builds the instances as Django's
  ModelIterable does (the same rows, the same instances, their select_related relations
  cached).
- ``PreparedValues``, the same for a ``values_list()`` queryset (rows of a few columns, through
  the columns' converters).
- ``PreparedInsert``, the INSERT of one row that ``Model.save()`` sends for a new instance
  (every column but the auto id, ``RETURNING`` the id), optionally as Django's
  ``bulk_create(ignore_conflicts=True)`` writes it (PostgreSQL's ``ON CONFLICT DO NOTHING``,
  SQLite's ``INSERT OR IGNORE``): then a row a unique constraint refuses is not inserted and
  the run answers None, with no savepoint and no error.
- ``PreparedUpdate``, the UPDATE that ``instance.save(update_fields=…)`` sends for a fixed
  list of columns (``auto_now`` columns set as save() sets them).

The SQL stays the ORM's: each is compiled by Django's own compilers, once per process (and
database vendor): the SQL, where each parameter goes, the converters and the populators are
plain data that every thread shares, and each run executes on the calling thread's own
connection. A new thread (gunicorn starts its threads as the first phones arrive) no longer
compiles again: the table's read alone cost about 8 ms to compile, the first phone of every
thread paid it. Each run computes its parameters as those compilers do (``pre_save``,
``get_db_prep_save``); nothing here is written by hand or built from values.

Why: a table's read and a result's write run the same five or so queries for every phone,
and Django compiles each of them again every time — for the match read with its round,
phase, tournament and pairs (nine tables, 150 columns), the compiling costs more CPU than
PostgreSQL spends answering it; a submission's three writes (the submission, the match, the
audit entry) cost more to compile than the read. benchmarks/results_path.py measures it.

Must not: prepare a queryset whose SQL depends on the values (``__in`` with a list, a None
that becomes ``IS NULL``, a slice from a parameter): each parameter must appear once, as a
plain placeholder value (``Prepared`` and ``PreparedValues`` check this when they compile, and
refuse otherwise).
Annotations and select_related work; prefetch_related, values() and only()/defer() are not
supported (refused as well). A prepared write sends no pre_save/post_save signal (the models
written this way have no receivers) and takes plain values only, not expressions (refused).

Terms: none of the game's; "compile" is Django's word for turning a queryset into SQL.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

from django.db import DatabaseError, connections, transaction
from django.db.models import Expression, Model, QuerySet
from django.db.models.constants import OnConflict
from django.db.models.query import ModelIterable, get_related_populators
from django.db.models.sql import InsertQuery, UpdateQuery

#: Every prepared query of the process, for compile_all (a worker's warm-up, config/warmup.py).
_ALL: weakref.WeakSet = weakref.WeakSet()


def compile_all() -> int:
    """Compile every prepared query not compiled yet (the first request of a process would);
    returns how many there are. Needs the database (Django asks its version); runs in a
    transaction (Django compiles a locked read only inside one), which writes nothing."""
    with transaction.atomic():
        for prepared in list(_ALL):
            prepared._compiled()
    return len(_ALL)


def _apply_converters(rows, converters: dict, connection) -> list[list]:
    """The ORM's SQLCompiler.apply_converters, with the caller's connection (a compiled query
    is shared by every thread; a connection is not)."""
    items = list(converters.items())
    converted = []
    for row in map(list, rows):
        for pos, (convs, expression) in items:
            value = row[pos]
            for converter in convs:
                value = converter(value, expression, connection)
            row[pos] = value
        converted.append(row)
    return converted


def _fresh(compiled, using: str) -> bool:
    """A compiled query is kept for the process, unless the alias now names another kind of
    database (a test that swaps the settings)."""
    return compiled is not None and compiled.vendor == connections[using].vendor


class _CompiledSelect:
    """A SELECT compiled once: its SQL, where each marker's value goes and the columns'
    converters; ``rows(values)`` runs it on the calling thread's connection. ``who`` names the
    class in a refusal."""

    def __init__(self, compiler, markers: list[Any], using: str, who: str) -> None:
        self.vendor = connections[using].vendor
        self.using = using
        self.sql, params = compiler.as_sql()
        self.params = list(params)
        self.slots = []
        for marker in markers:
            found = [n for n, value in enumerate(self.params) if value == marker]
            if len(found) != 1:
                raise ValueError(f"{who}: a parameter appears {len(found)} times in the SQL")
            self.slots.append(found[0])
        fields = [s[0] for s in compiler.select[0 : compiler.col_count]]
        if compiler.has_composite_fields(fields):
            raise ValueError(f"{who}: composite fields are not supported")
        self.converters = compiler.get_converters(fields)

    def rows(self, values: tuple) -> list:
        params = list(self.params)
        for slot, value in zip(self.slots, values, strict=True):
            params[slot] = value
        connection = connections[self.using]
        with connection.cursor() as cursor:
            cursor.execute(self.sql, params)
            rows = cursor.fetchall()
        if self.converters:
            rows = _apply_converters(rows, self.converters, connection)
        return rows


class _Compiled(_CompiledSelect):
    def __init__(self, queryset: QuerySet, markers: list[Any], using: str) -> None:
        if queryset._prefetch_related_lookups or queryset._iterable_class is not ModelIterable:
            raise ValueError("Prepared: only a plain queryset of instances can be prepared")
        if queryset.query.deferred_loading != (frozenset(), True):
            raise ValueError("Prepared: only()/defer() are not supported")
        compiler = queryset.query.get_compiler(using=using)
        super().__init__(compiler, markers, using, "Prepared")
        klass_info = compiler.klass_info
        self.model = klass_info["model"]
        select_fields = klass_info["select_fields"]
        self.start, self.end = select_fields[0], select_fields[-1] + 1
        self.init_list = [f[0].target.attname for f in compiler.select[self.start : self.end]]
        self.populators = get_related_populators(klass_info, compiler.select, using)
        self.annotations = dict(compiler.annotation_col_map or {})

    def run(self, values: tuple, related: dict[str, Model]) -> list[Model]:
        found = []
        for row in self.rows(values):
            obj = self.model.from_db(self.using, self.init_list, row[self.start : self.end])
            for populator in self.populators:
                populator.populate(row, obj)
            for name, position in self.annotations.items():
                setattr(obj, name, row[position])
            for name, value in related.items():  # as a related manager's queryset does
                self.model._meta.get_field(name).set_cached_value(obj, value)
            found.append(obj)
        return found


class _Kept:
    """What every prepared query shares: its compiled form is the process's (``compiled``),
    made by ``_compile()`` on first use or by compile_all, and again only when the alias now
    names another kind of database; each registers itself for compile_all."""

    def _keep(self, using: str) -> None:
        self.using = using
        self.compiled: Any = None
        _ALL.add(self)

    def _compile(self) -> Any:
        raise NotImplementedError

    def _compiled(self) -> Any:
        compiled = self.compiled
        if not _fresh(compiled, self.using):
            compiled = self._compile()
            self.compiled = compiled  # two threads may both compile: the same, either wins
        return compiled


class Prepared(_Kept):
    """``Prepared(build, markers)``: ``build(*values)`` returns the queryset; ``markers`` are
    values of the parameters' types that no real value equals (they find the placeholders).

    ``run(*values)`` returns the list of instances; ``related={"match": match}`` sets a
    foreign key's instance on each (what ``match.submissions.all()`` does for free)."""

    def __init__(self, build: Callable[..., QuerySet], *markers: Any, using: str = "default"):
        self.build = build
        self.markers = list(markers)
        self._keep(using)

    def _compile(self) -> _Compiled:
        return _Compiled(self.build(*self.markers), self.markers, self.using)

    def run(self, *values: Any, related: dict[str, Model] | None = None) -> list[Model]:
        return self._compiled().run(values, related or {})


class PreparedValues(_Kept):
    """A ``values_list()`` queryset compiled once per process, then run with new
    values: what ``Prepared`` does for instances, for small reads of a few columns (the
    ratings' sync). ``build(*markers)`` returns the queryset; each marker
    (a value no real one equals) must appear once among its parameters. The SQL is the ORM's;
    the columns go through the ORM's converters (a JSON list comes back a list)."""

    def __init__(self, build: Callable[..., QuerySet], *markers: Any, using: str = "default"):
        self.build = build
        self.markers = markers
        self._keep(using)

    def _compile(self) -> _CompiledSelect:
        compiler = self.build(*self.markers).query.get_compiler(using=self.using)
        return _CompiledSelect(compiler, list(self.markers), self.using, "PreparedValues")

    def run(self, *values) -> list[tuple]:
        return self._compiled().rows(values)


# --- Writes ------------------------------------------------------------------------------------


def _plain_fields(fields: list) -> None:
    """A field that builds its own placeholder (GIS, ranges) would make the SQL depend on the
    value: refused, as Prepared refuses a parameter whose SQL depends on its value."""
    for field in fields:
        if hasattr(field, "get_placeholder"):
            raise ValueError(f"Prepared: {field.name} builds its own placeholder")


def _db_value(field, value: Any, connection) -> Any:
    """What Django's insert and update compilers send for a plain value."""
    if hasattr(value, "resolve_expression"):
        raise ValueError(f"Prepared: {field.name} is given an expression, not a value")
    return field.get_db_prep_save(value, connection=connection)


class _CompiledInsert:
    def __init__(self, model: type[Model], ignore_conflicts: bool, using: str) -> None:
        connection = connections[using]
        self.vendor = connection.vendor
        if not connection.features.can_return_columns_from_insert:
            raise ValueError("Prepared: this database cannot return an inserted row's id")
        meta = model._meta
        if meta.auto_field is None:
            raise ValueError("Prepared: only a model with an automatic id can be inserted")
        # the columns Model.save() inserts for a new instance, and what it reads back
        self.fields = [
            f for f in meta.local_concrete_fields if not f.generated and f is not meta.auto_field
        ]
        _plain_fields(self.fields)
        self.returning_fields = meta.db_returning_fields
        query = InsertQuery(model, on_conflict=OnConflict.IGNORE if ignore_conflicts else None)
        query.insert_values(self.fields, [model()])
        compiler = query.get_compiler(using=using)
        compiler.returning_fields = self.returning_fields
        [(self.sql, params)] = compiler.as_sql()
        # each column's value is one placeholder; what follows them (RETURNING's) is fixed
        self.tail = list(params[len(self.fields) :])
        if self.sql.count("%s") != len(params):
            raise ValueError("Prepared: a column's value is not one placeholder")
        self.returning_params = compiler.returning_params
        self.converters = compiler.get_converters(
            [f.get_col(meta.db_table) for f in self.returning_fields]
        )
        self.model = model
        self.using = using

    def run(self, values: dict[str, Any]) -> Model | None:
        obj = self.model(**values)
        connection = connections[self.using]
        params = [_db_value(f, f.pre_save(obj, True), connection) for f in self.fields]
        params += self.tail
        with transaction.mark_for_rollback_on_error(self.using), connection.cursor() as cursor:
            cursor.execute(self.sql, params)
            row = connection.ops.fetch_returned_insert_columns(cursor, self.returning_params)
        if row is None:  # refused by a unique constraint (ignore_conflicts)
            return None
        if self.converters:
            [row] = _apply_converters([row], self.converters, connection)
        for value, field in zip(row, self.returning_fields, strict=True):
            setattr(obj, field.attname, value)
        obj._state.adding = False
        obj._state.db = self.using
        return obj


class PreparedInsert(_Kept):
    """``PreparedInsert(Model)``: ``run(**values)`` inserts one row as
    ``Model.objects.create(**values)`` does and returns the instance, its id set.

    ``ignore_conflicts=True``: the INSERT of ``bulk_create(ignore_conflicts=True)`` with the id
    returned; a row that a unique constraint refuses is not inserted and ``run`` returns None.
    On PostgreSQL a row inserted by a transaction not yet committed makes this one wait for
    it, as a plain INSERT would, and then returns None if that one committed."""

    def __init__(self, model: type[Model], *, ignore_conflicts: bool = False, using="default"):
        self.model = model
        self.ignore_conflicts = ignore_conflicts
        self._keep(using)

    def _compile(self) -> _CompiledInsert:
        return _CompiledInsert(self.model, self.ignore_conflicts, self.using)

    def run(self, **values: Any) -> Any:
        return self._compiled().run(values)


class _Slot(Expression):
    """Where a column's value goes in the compiled UPDATE: the one placeholder a plain value
    compiles to (the compiler writes ``= NULL`` for None, which a None parameter does too)."""

    def as_sql(self, compiler, connection):
        return "%s", [self]


class _CompiledUpdate:
    _PK = -7_000_000_003  # no real id

    def __init__(self, model: type[Model], names: tuple[str, ...], using: str) -> None:
        self.vendor = connections[using].vendor
        meta = model._meta
        self.fields = [meta.get_field(name) for name in names]
        if any(not f.concrete or f.primary_key or f.generated for f in self.fields):
            raise ValueError("Prepared: only concrete columns other than the id are updated")
        _plain_fields(self.fields)
        query = model._base_manager.using(using).filter(pk=self._PK).query.chain(UpdateQuery)
        query.add_update_fields([(f, None, _Slot()) for f in self.fields])
        self.sql, params = query.get_compiler(using=using).as_sql()
        slots = [n for n, p in enumerate(params) if isinstance(p, _Slot)]
        where = [n for n, p in enumerate(params) if p == self._PK]
        if slots != list(range(len(self.fields))) or where != [len(self.fields)]:
            raise ValueError("Prepared: the UPDATE's parameters are not one per column and the id")
        if len(params) != len(self.fields) + 1 or self.sql.count("%s") != len(params):
            raise ValueError("Prepared: a column's value is not one placeholder")
        self.pk_attname = meta.pk.attname
        self.using = using

    def run(self, obj: Model) -> None:
        connection = connections[self.using]
        # as Model.save(update_fields=…): pre_save (auto_now) and each field's database value
        params = [_db_value(f, f.pre_save(obj, False), connection) for f in self.fields]
        params.append(getattr(obj, self.pk_attname))
        with transaction.mark_for_rollback_on_error(self.using), connection.cursor() as cursor:
            cursor.execute(self.sql, params)
            updated = cursor.rowcount
        if not updated:
            raise DatabaseError("Save with update_fields did not affect any rows.")


class PreparedUpdate(_Kept):
    """``PreparedUpdate(Model, ("status", "version", …))``: ``run(instance)`` saves those
    columns of the instance's row, as ``instance.save(update_fields=[…])`` does (its
    ``auto_now`` columns among them set to now); DatabaseError when no row has its id."""

    def __init__(self, model: type[Model], fields: tuple[str, ...], *, using="default"):
        self.model = model
        self.names = tuple(fields)
        self._keep(using)

    def _compile(self) -> _CompiledUpdate:
        return _CompiledUpdate(self.model, self.names, self.using)

    def run(self, obj: Model) -> None:
        self._compiled().run(obj)
