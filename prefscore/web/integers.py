"""Whole numbers a request carries: every integer read from a query parameter, a form
field or a URL is bounded here, so none can reach ``int`` or the database and give a 500.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError

# The most digits of an id from a URL or a form: every id below 10**18 fits the 64-bit
# signed integers of SQLite and PostgreSQL (2**63 has 19 digits), so a longer one can
# name no row and never reaches the database (which would fail with OverflowError).
ID_DIGITS = 18


class IdConverter:
    """``<id:pk>`` in every URL pattern: an id of at most ``ID_DIGITS`` digits; a longer
    one matches no pattern, so it is a 404 on every database."""

    regex = f"[0-9]{{1,{ID_DIGITS}}}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


class IdsChoiceField(forms.ModelMultipleChoiceField):  # type: ignore[type-arg]  # generic only in the stubs
    """Rows picked by id in a form; an id that is no bounded whole number is the field's
    error (``request_int``), never a query with it."""

    def _check_values(self, value: Any) -> Any:
        for item in value:
            if request_int(str(item), max_digits=ID_DIGITS) is None:
                raise ValidationError(
                    self.error_messages["invalid_pk_value"],
                    code="invalid_pk_value",
                    params={"pk": item},
                )
        return super()._check_values(value)  # type: ignore[misc]


def request_int(value: object, *, max_digits: int = 9) -> int | None:
    """A whole number a request carries (a query parameter, a form field), else None.

    ASCII digits only, at most ``max_digits`` of them: ``"²".isdigit()`` is true but
    ``int("²")`` fails, ``int("٣")`` is 3, and a 5,000-digit string is beyond what
    ``int`` converts. Every integer read from a request goes through here, so none of
    these can reach ``int`` and give a 500.
    """
    if not isinstance(value, str) or not 0 < len(value) <= max_digits:
        return None
    return int(value) if value.isascii() and value.isdigit() else None
