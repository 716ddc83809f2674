"""Abandoning a pulka in words: the sheet screen's panel and the audit trail's lines.

The rules are ``prefscore.games.abandon``'s; this only says what stands.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from prefscore.clubs.models import Role
from prefscore.clubs.names import display_name

from ..abandon import pending_with_answers
from ..models import Abandonment, AuditEvent, Pulka, PulkaSeat
from .bidi import isolate

ABANDON_ACTIONS = frozenset(
    {
        AuditEvent.Action.TO_ABANDON,
        AuditEvent.Action.ABANDON_ANSWER,
        AuditEvent.Action.ABANDON_LAPSED,
        AuditEvent.Action.ABANDONED,
    }
)
# Names stand apart from the verbs ("Анна: за"), so no sentence declines or genders them.
_LINES = {
    "to_abandon": gettext_lazy("Proposed abandoning the pulka. Reason: %(reason)s"),
    "yes": gettext_lazy("Abandoning the pulka — %(player)s: agrees."),
    "no": gettext_lazy("Abandoning the pulka — %(player)s: refuses; the pulka is kept."),
    "yes-guest": gettext_lazy(
        "Abandoning the pulka — %(player)s (a guest, answered on the guest's behalf): agrees."
    ),
    "no-guest": gettext_lazy(
        "Abandoning the pulka — %(player)s (a guest, answered on the guest's behalf): "
        "refuses; the pulka is kept."
    ),
    "abandon_off": gettext_lazy("Abandoning the pulka lapsed: the next deal was recorded."),
    "admin": gettext_lazy(
        "A club admin abandoned the pulka: it is archived and frozen. Reason: %(reason)s"
    ),
    "table": gettext_lazy(
        "Everyone at the table agreed: the pulka is abandoned, archived and frozen. "
        "Reason: %(reason)s"
    ),
}


def abandon_sentence(
    event: AuditEvent, details: Mapping[str, Any], user_of: Callable[[str], int | None]
) -> str:
    """One audit line of abandoning a pulka; ``user_of`` gives a seat's account by name."""
    player = str(details.get("player") or "")
    key = str(event.action)
    if event.action == AuditEvent.Action.ABANDON_ANSWER:
        own = event.user_id is not None and user_of(player) == event.user_id
        key = ("yes" if details.get("agreed") else "no") + ("" if own else "-guest")
    elif event.action == AuditEvent.Action.ABANDONED:
        key = "admin" if details.get("by") == "admin" else "table"
    return str(_LINES[key]) % {"player": player, "reason": details.get("reason") or "—"}


@dataclass(frozen=True, slots=True)
class AbandonSeat:
    name: str
    answer: str  # agreed, refused or waiting
    text: str  # "Анна: за"


@dataclass(frozen=True, slots=True)
class AbandonButtons:
    """Agree and Refuse for one seat the viewer answers for: his own, or a guest's."""

    seat: int
    label: str


@dataclass(frozen=True, slots=True)
class PendingAbandon:
    headline: str
    reason: str
    answers: tuple[AbandonSeat, ...]
    buttons: tuple[AbandonButtons, ...]
    action: str  # where answers are posted


@dataclass(frozen=True, slots=True)
class AbandonPanel:
    action: str  # where a proposal (or an admin's abandoning) is posted
    offered: bool  # the viewer may start it
    at_once: bool  # a club admin: abandoned at once, without the table's answers
    pending: PendingAbandon | None


def abandon_panel(
    pulka: Pulka,
    user: Any,
    seats: Sequence[PulkaSeat],
    role: str | None,
    pending: Callable[[Pulka], Abandonment | None] = pending_with_answers,
) -> AbandonPanel | None:
    """The panel for a club pulka that is not archived; None otherwise. One query, or
    none when ``pending`` takes the waiting proposal from the cache."""
    if pulka.tournament_id is not None or pulka.status == Pulka.Status.ARCHIVED:
        return None
    own = [row.seat for row in seats if user.is_authenticated and row.player.user_id == user.pk]
    found = pending(pulka)
    return AbandonPanel(
        action=reverse("games:abandon", args=[pulka.pk]),
        offered=found is None and (bool(own) or role == Role.ADMIN),
        at_once=role == Role.ADMIN,
        pending=_pending(pulka, found, seats, own) if found is not None else None,
    )


def _pending(
    pulka: Pulka, found: Abandonment, seats: Sequence[PulkaSeat], own: Sequence[int]
) -> PendingAbandon:
    by_player = {consent.player_id: consent.agreed for consent in found.consents.all()}
    answers, buttons = [], []
    for row in seats:
        agreed = by_player.get(row.player_id)
        state = "waiting" if agreed is None else ("agreed" if agreed else "refused")
        words = {"waiting": _("waiting"), "agreed": _("agrees"), "refused": _("refuses")}
        answers.append(
            AbandonSeat(row.player.name, state, f"{isolate(row.player.name)}: {words[state]}")
        )
        answerable = row.seat in own or (bool(own) and row.player.user_id is None)
        if agreed is None and answerable:
            buttons.append(AbandonButtons(row.seat, _answer_label(row, row.seat in own)))
    proposer = display_name(found.proposed_by) if found.proposed_by else "—"
    return PendingAbandon(
        headline=_("Abandon this pulka? Proposed by %(user)s; it is archived once everyone agrees.")
        % {"user": isolate(proposer)},
        reason=found.reason,
        answers=tuple(answers),
        buttons=tuple(buttons),
        action=reverse("games:abandon_answer", args=[pulka.pk, found.pk]),
    )


def _answer_label(row: PulkaSeat, own: bool) -> str:
    if own:
        return _("Your answer")
    return _("%(player)s (a guest): your answer on the guest's behalf") % {
        "player": isolate(row.player.name)
    }
