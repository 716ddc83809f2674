"""What the share panel and the public result page show (docs/design.md, "Sharing a
result"): the card's address, the result as text for a chat, the public link, and the
page's Open Graph and Twitter tags. The figures are the settlement's (the engine's)."""

from __future__ import annotations

from dataclasses import dataclass

from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import gettext as _

from prefscore.cards.layout import Preview

from .. import joining, sharing
from ..models import Pulka, TableLinks
from ..seating import Seating
from .card import SEPARATOR, result_text, subtitle
from .joining import absolute
from .settlement import SettlementView


@dataclass(frozen=True, slots=True)
class SharePanel:
    card_url: str
    file_name: str
    title: str
    text: str  # the result as players paste it into a chat
    link: str | None  # the public link, None while the result is not shared
    may_manage: bool  # may make it public or take it back
    action_url: str


def file_name(pulka: Pulka) -> str:
    return f"prefscore-{pulka.pk}.png"


def share_panel(
    request: HttpRequest,
    pulka: Pulka,
    settlement: SettlementView,
    token: str | None,
    may_manage: bool,
) -> SharePanel:
    link = absolute(request, reverse("games:result", args=[token])) if token else None
    return SharePanel(
        card_url=reverse("games:card", args=[pulka.pk]),
        file_name=file_name(pulka),
        title=str(pulka),
        text=result_text(pulka, settlement, link),
        link=link,
        may_manage=may_manage,
        action_url=reverse("games:result_link", args=[pulka.pk]),
    )


def share_panel_for(
    request: HttpRequest, pulka: Pulka, settlement: SettlementView
) -> SharePanel | None:
    """The settlement page's share panel: a finished pulka's only (two queries)."""
    if pulka.status != Pulka.Status.FINISHED:
        return None
    links = TableLinks.objects.filter(pulka=pulka).first()
    role = pulka.club.role_of(request.user)
    may_manage = joining.may_manage_links(pulka, request.user, role, Seating.of(pulka))
    return share_panel(request, pulka, settlement, sharing.result_token(links), may_manage)


def description(settlement: SettlementView) -> str:
    """One line for a preview: each player and his whole result."""
    return SEPARATOR.join(
        f"{row.name} {row.whole.signed or row.whole.text}" for row in settlement.rows
    )


def result_preview(
    request: HttpRequest, pulka: Pulka, settlement: SettlementView, page: str, card: str
) -> Preview:
    club = "".join(seg.text for seg in subtitle(pulka))
    return Preview(
        title=_("%(pulka)s: the result") % {"pulka": pulka},
        description=f"{description(settlement)} — {club}",
        url=absolute(request, page),
        image=absolute(request, card),
    )
