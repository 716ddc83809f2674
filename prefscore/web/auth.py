"""The user every signed-in request reads, in one plain statement, for the site's
authentication backend (``PlainUserRead``, the base of ``clubs.ratelimit``'s).

What every signed-in request reads (the user, for ``request.user``) costs, through the
ORM, more CPU building the query than the database takes to answer it (bench/cpu.py,
docs/benchmarks.md), as the session's read did: so it is one statement, made once per
model and database from the model's own fields, its row turned into an instance with the
ORM's own converters (``Model.from_db``), as a queryset would.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.db import connections, router
from django.db.models import Model

_ROWS: dict[tuple[type[Model], str], tuple[str, list[str], tuple[Any, ...]]] = {}


def row_by_pk(model: type[Model], pk: Any) -> Any:
    """``model``'s row ``pk`` as ``model._default_manager.get(pk=pk)`` gives it, or None."""
    alias = router.db_for_read(model)
    connection = connections[alias]
    made = _ROWS.get((model, alias))
    if made is None:
        made = _ROWS[(model, alias)] = _statement(model, connection)
    sql, names, converters = made
    key = model._meta.pk.get_db_prep_value(pk, connection)
    with connection.cursor() as cursor:
        cursor.execute(sql, [key])
        row = cursor.fetchone()
    if row is None:
        return None
    values = list(row)
    for position, found, col in converters:
        for convert in found:
            values[position] = convert(values[position], col, connection)
    return model.from_db(alias, names, values)


def _statement(model: type[Model], connection: Any) -> tuple[str, list[str], tuple[Any, ...]]:
    meta = model._meta
    fields = meta.concrete_fields
    quote = connection.ops.quote_name
    columns = ", ".join(quote(field.column) for field in fields)
    sql = f"SELECT {columns} FROM {quote(meta.db_table)} WHERE {quote(meta.pk.column)} = %s"
    converters = []
    for position, field in enumerate(fields):
        col = field.get_col(meta.db_table)
        found = (*connection.ops.get_db_converters(col), *col.get_db_converters(connection))
        if found:
            converters.append((position, found, col))
    return sql, [field.attname for field in fields], tuple(converters)


class PlainUserRead(ModelBackend):
    """``ModelBackend`` with the user read by :func:`row_by_pk`: every signed-in request
    reads him (``get_user``); an inactive account is refused as ``ModelBackend`` refuses it."""

    def get_user(self, user_id: Any) -> Any:
        user = row_by_pk(get_user_model(), user_id)
        return user if user is not None and self.user_can_authenticate(user) else None
