"""Errors a person can act on: every message names what is wrong and where."""

from __future__ import annotations


class ScoringError(ValueError):
    """Base of every engine error; the message is shown to people as it is."""


class ConventionError(ScoringError):
    """A convention option is unknown, of the wrong type, or contradicts another.

    ``option`` names the offending option (protocol.md, "Convention options"), so a
    form can show the message next to its field.
    """

    def __init__(self, option: str, message: str) -> None:
        super().__init__(message)
        self.option = option


class DealError(ScoringError):
    """A deal's facts break a rule; ``field`` names the fact at fault when known."""

    def __init__(self, message: str, field: str | None = None, number: int | None = None) -> None:
        super().__init__(message)
        self.field = field
        self.number = number


class ProtocolError(ScoringError):
    """A pulka file is malformed (protocol.md): the message names the deal or field."""


def shown(value: object, limit: int = 40) -> str:
    """A value as a message quotes it: its repr, on one line, cut to ``limit`` characters.

    Messages are one line that a person reads (protocol.md, "Bad input"), so a 400-digit
    number or a name holding a line break must not spill over.
    """
    try:
        text = repr(value)
    except ValueError:  # an int too long to print (sys.set_int_max_str_digits)
        return f"a number of more than {limit} digits"
    return text if len(text) <= limit else text[: limit - 1] + "…"
