"""Two entries for one deal, side by side (docs/design.md, "Never lose a deal").

A phone that sends deal N after another device recorded it (both entered it offline,
or one lost its answer) is shown what is on the sheet, who recorded it, and what it
sent itself; the player chooses to record his entry as the next deal or to discard it.
Nothing is put into the next deal's form without the player deciding it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from uuid import UUID

from django.urls import reverse
from django.utils.translation import gettext as _

from prefscore.clubs.names import display_name
from scoring.engine.deals import parse_deal
from scoring.engine.errors import DealError
from scoring.engine.pulka import ScoredPulka, with_next_deal

from .. import services
from ..forms import DealForm
from ..models import Correction, Deal, Pulka
from ..recording import effective_facts
from .numbers import reader_notation
from .trail import describe_facts


@dataclass(frozen=True, slots=True)
class EntryConflict:
    """What the 409 for a deal recorded elsewhere shows in place of the entry form."""

    number: int  # the deal both entries claim
    recorder: str  # who recorded the one on the sheet
    theirs: str  # its notation (docs/protocol.md, 4.2.11)
    yours: str  # the notation of the entry sent, in the same deal's position
    # Each in words: the declarer, each defender's whist or pass, the tricks, so that the
    # player tells at a glance which is the deal that was played (trail.describe_facts).
    theirs_facts: str
    yours_facts: str
    next_number: int  # the deal the entry may be recorded as instead
    action: str  # where "record mine as the next deal" posts
    values: tuple[tuple[str, str], ...]  # the entry's fields, sent again as that deal
    client_id: str  # the entry's id on the device, kept for that post
    sheet_url: str  # "discard mine": the sheet as it stands


def entry_conflict(
    pulka: Pulka,
    deals: Sequence[Deal],
    corrections: Sequence[Correction],
    scored: ScoredPulka,
    number: int,
    data: Mapping[str, str],
    client_id: UUID | None,
) -> EntryConflict:
    """Deal ``number`` as it stands (in ``scored``, the fold of ``deals`` and
    ``corrections``) beside the entry ``data`` posted for it.

    The entry is read in the position deal ``number`` was dealt in (its dealer, who
    sat out), as the player meant it; it is judged again when recorded as the next deal.
    """
    earlier = [c for c in corrections if c.after_deal < number]
    before = services.score(pulka, list(deals[: number - 1]), earlier)
    form = DealForm(before.state, data)
    yours = _("not a valid deal in that position")
    yours_facts = ""
    if form.is_valid():
        yours_facts = describe_facts(form.facts, pulka.player_names)
        try:
            notation = with_next_deal(before, parse_deal(form.facts)).records[-1].notation
            yours = reader_notation(notation)
        except DealError:
            pass
    standing = effective_facts(deals, corrections)[number - 1]
    user = deals[number - 1].entered_by
    typed = DealForm(before.state, data).typed()
    return EntryConflict(
        number=number,
        recorder=display_name(user) if user is not None else _("someone"),
        theirs=reader_notation(scored.records[number - 1].notation),
        yours=yours,
        theirs_facts=describe_facts(standing, pulka.player_names),
        yours_facts=yours_facts,
        next_number=len(deals) + 1,
        action=reverse("games:record", args=[pulka.pk]),
        values=tuple((k, v) for k, v in typed.items() if v and k not in ("number", "client_id")),
        client_id=str(client_id) if client_id is not None else "",
        sheet_url=reverse("games:sheet", args=[pulka.pk]),
    )


__all__ = ["EntryConflict", "entry_conflict"]
