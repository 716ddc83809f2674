"""The log of refused requests: one line each (README, "Configuration", LOG_LEVEL).

Django logs every 4xx answer on ``django.request`` as a warning, and for a refusal
raised as an exception (``PermissionDenied``: a 403; ``BadRequest``, a bad
``SuspiciousOperation``: a 400) with the exception attached, so the console prints its
whole traceback: hundreds of lines for a walk of the site by someone probing it, where
each says no more than "Forbidden (Permission denied): /pulkas/7/". A refusal is the
site working as meant, not a fault: its line is kept, its traceback dropped. A 5xx keeps
everything.
"""

from __future__ import annotations

import logging


class OneLineRefusals(logging.Filter):
    """Drops the traceback of a log record for an answer below 500."""

    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        if isinstance(status, int) and status < 500:
            record.exc_info = None
            record.exc_text = None
        return True
