"""The site's session store (``SESSION_ENGINE``): sessions in the database, read with
one plain statement.

Django's own database sessions, but for the read that every signed-in request makes:
through the ORM, building that one-row query costs about a millisecond of CPU, more than
the database's answer (bench/cpu.py). The statement is the same (the session's key, not
yet expired), written once; saving, expiring and deleting stay Django's.

Why not sessions in the cache (``cached_db``) or in a signed cookie: with each worker's
own memory as the cache (the default, ``CACHE_URL`` unset) a session ended on one
worker (signing out, a changed password's other sessions) would live on in the others'
memory until it expired there; a signed cookie cannot be ended at all before its expiry
(signing out does not stop a copy of it). A database row is ended everywhere at once.
"""

from __future__ import annotations

from typing import Any

from django.contrib.sessions.backends import db
from django.db import connections, router
from django.utils import timezone


class SessionStore(db.SessionStore):
    """``django.contrib.sessions.backends.db`` with its read in plain SQL."""

    def _get_session_from_db(self) -> Any:
        model = self.model
        alias = router.db_for_read(model)
        connection = connections[alias]
        quote = connection.ops.quote_name
        sql = (
            f"SELECT {quote('session_data')} FROM {quote(model._meta.db_table)}"
            f" WHERE {quote('session_key')} = %s AND {quote('expire_date')} > %s"
        )
        now = connection.ops.adapt_datetimefield_value(timezone.now())
        with connection.cursor() as cursor:
            cursor.execute(sql, [self.session_key, now])
            row = cursor.fetchone()
        if row is None:
            self._session_key = None
            return None
        return model(session_key=self.session_key or "", session_data=row[0])
