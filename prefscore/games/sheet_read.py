"""The sheet's one query.

The sheet page and the poll's 200 read the pulka, its club, its links, the viewer's
role and the seats with their players on every request. Through the ORM that is three
queries, and building them costs far more CPU than the database's answer (about
8 ms of a 12 ms page). So they are one SQL statement, made once per process from
the models' own fields, its rows turned into model instances with the ORM's own
converters (``Model.from_db``), as a queryset would: the same objects, without
compiling a query each time.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection
from django.db.models import Field, Model

from prefscore.clubs.models import Club, Membership, Player

from .models import Pulka, PulkaSeat


@dataclass(frozen=True)
class _Part:
    model: type[Model]
    alias: str
    fields: tuple[Field[Any, Any], ...]


_PARTS: dict[str, tuple[str, tuple[_Part, ...]]] = {}


def _parts() -> tuple[_Part, ...]:
    from .models import TableLinks

    models = ((Pulka, "p"), (Club, "c"), (TableLinks, "l"), (PulkaSeat, "s"), (Player, "pl"))
    return tuple(_Part(m, alias, tuple(m._meta.concrete_fields)) for m, alias in models)


def _statement() -> tuple[str, tuple[_Part, ...]]:
    """The statement for this connection's database, made once."""
    found = _PARTS.get(connection.vendor)
    if found is None:
        parts = _parts()
        quote = connection.ops.quote_name
        columns = ", ".join(
            f"{part.alias}.{quote(str(field.column))}" for part in parts for field in part.fields
        )
        tables = {part.alias: quote(part.model._meta.db_table) for part in parts}
        membership = quote(Membership._meta.db_table)
        sql = (
            f"SELECT {columns}, (SELECT m.role FROM {membership} m WHERE m.club_id = p.club_id"
            " AND m.user_id = %s ORDER BY m.id LIMIT 1)"
            f" FROM {tables['p']} p JOIN {tables['c']} c ON c.id = p.club_id"
            f" LEFT JOIN {tables['l']} l ON l.pulka_id = p.id"
            f" LEFT JOIN {tables['s']} s ON s.pulka_id = p.id"
            f" LEFT JOIN {tables['pl']} pl ON pl.id = s.player_id"
            " WHERE p.id = %s ORDER BY s.seat"
        )
        found = _PARTS[connection.vendor] = (sql, parts)
    return found


@dataclass(frozen=True)
class _Reader:
    """How one model's columns become an instance: the ORM's converters of each."""

    part: _Part
    converters: tuple[tuple[int, tuple[Any, ...], Any], ...]  # (position, converters, col)
    names: tuple[str, ...]
    key: int  # the primary key's position

    @classmethod
    def of(cls, part: _Part) -> _Reader:
        found = []
        for position, field in enumerate(part.fields):
            col = field.get_col(part.alias)
            made = (*connection.ops.get_db_converters(col), *col.get_db_converters(connection))
            if made:
                found.append((position, made, col))
        key = [field.primary_key for field in part.fields].index(True)
        return cls(part, tuple(found), tuple(f.attname for f in part.fields), key)

    def instance(self, values: Sequence[Any]) -> Any:
        """The instance, converted as a queryset converts it; None for a LEFT JOIN that
        found nothing (its primary key is NULL)."""
        if values[self.key] is None:
            return None
        row = list(values)
        for position, converters, col in self.converters:
            for convert in converters:
                row[position] = convert(row[position], col, connection)
        return self.part.model.from_db(connection.alias, list(self.names), row)


_READERS: dict[str, tuple[_Reader, ...]] = {}


def read_sheet(user_id: Any, pk: int) -> tuple[Any, tuple[Any, ...], str | None] | None:
    """The pulka ``pk`` with its club and links cached on it, its seats in order with
    their players, and the user's role in its club: one query. None: no such pulka."""
    sql, parts = _statement()
    readers = _READERS.get(connection.vendor)
    if readers is None:
        readers = _READERS[connection.vendor] = tuple(_Reader.of(part) for part in parts)
    with connection.cursor() as cursor:
        cursor.execute(sql, [user_id, pk])
        rows = cursor.fetchall()
    if not rows:
        return None
    spans, start = [], 0
    for part in parts:
        spans.append((start, start + len(part.fields)))
        start += len(part.fields)

    def made(index: int, row: Sequence[Any]) -> Any:
        first, last = spans[index]
        return readers[index].instance(row[first:last])

    pulka, club, links = (made(i, rows[0]) for i in range(3))
    Pulka.club.field.set_cached_value(pulka, club)
    Pulka.links.related.set_cached_value(pulka, links)  # None: the table has none yet
    if links is not None:
        type(links).pulka.field.set_cached_value(links, pulka)
    seats = []
    for row in rows:
        seat, player = made(3, row), made(4, row)
        if seat is not None:
            PulkaSeat.player.field.set_cached_value(seat, player)
            PulkaSeat.pulka.field.set_cached_value(seat, pulka)
            seats.append(seat)
    return pulka, tuple(seats), rows[0][-1]
