"""A finished pulka's result card and its text for a chat (docs/design.md, "Sharing a
result").

Both are built from the settlement's view model (``settlement``), which holds the
engine's figures already formatted: the card computes nothing. The card's words are in
the page's language; the card's key follows everything it shows, so that each version,
language and figure is drawn once (``prefscore.cards.store``).
"""

from __future__ import annotations

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from prefscore.cards.layout import Card, Line, Row, name, sentence, words
from scoring.conventions import convention_label

from ..models import Pulka
from .settlement import SettlementView, Transfer

SEPARATOR = " · "


def played_on(pulka: Pulka) -> str:
    return date_format(timezone.localtime(pulka.created_at), "DATE_FORMAT")


def subtitle(pulka: Pulka) -> Line:
    """The club, the convention, the target and the date."""
    target = _("to %(target)s") % {"target": pulka.target}
    rest = SEPARATOR.join((convention_label(pulka.convention_name), target, played_on(pulka)))
    return (name(pulka.club.name), words(SEPARATOR + rest))


def _payment_template(transfer: Transfer) -> str:
    if transfer.money is None:
        return _("%(payer)s → %(payee)s: %(whists)s whists")
    return _("%(payer)s → %(payee)s: %(whists)s whists, %(money)s in money")


def payment_line(transfer: Transfer) -> Line:
    return sentence(
        _payment_template(transfer),
        {"payer": transfer.payer, "payee": transfer.payee},
        {"whists": transfer.whists, "money": transfer.money or ""},
    )


def pulka_card(pulka: Pulka, settlement: SettlementView) -> Card:
    """The card of a finished pulka: each player's pulya, gora, whole result and money,
    and who pays whom."""
    money = settlement.stake is not None
    headings = (_("Pulya"), _("Gora"), _("Whists"), *((_("Money"),) if money else ()))
    rows = []
    for row in settlement.rows:
        cells = [row.pulya, row.gora, row.whole.signed or row.whole.text]
        negative = [False, False, row.whole.negative]
        if row.money is not None:
            cells.append(row.money.signed or row.money.text)
            negative.append(row.money.negative)
        rows.append(Row(row.name, tuple(cells), tuple(negative)))
    return Card(
        title=(name(str(pulka)),),
        subtitle=subtitle(pulka),
        name_heading=_("Player"),
        headings=headings,
        rows=tuple(rows),
        notes=tuple(payment_line(t) for t in settlement.transfers),
        footer=_("prefscore: the preferans score sheet"),
    )


def result_text(pulka: Pulka, settlement: SettlementView, link: str | None) -> str:
    """The result as players paste it into a chat: a line of what was played, a line per
    player with his whists (and money), who pays whom, the link."""
    lines = [f"{pulka} — {''.join(seg.text for seg in subtitle(pulka))}"]
    for row in settlement.rows:
        figure = row.whole.signed or row.whole.text
        if row.money is not None:
            figure += f" ({row.money.signed or row.money.text})"
        lines.append(f"{row.name}: {figure}")
    lines.extend(_payment_template(t) % _values(t) for t in settlement.transfers)
    if link:
        lines.append(link)
    return "\n".join(lines)


def _values(transfer: Transfer) -> dict[str, str]:
    return {
        "payer": transfer.payer,
        "payee": transfer.payee,
        "whists": transfer.whists,
        "money": transfer.money or "",
    }
