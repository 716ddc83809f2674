"""`manage.py check_season CLUB/SLUG`: the stored season table against a recount.

``CLUB/SLUG`` as the season's pages name it (or its short name alone, where only one
club has it). The recount reads the sheets themselves (``seasons.recount``), not the
summary rows and stored results the table is kept from, so a corruption of those is
found. It also names the coefficients stored under a name that is no convention of the
club (docs/seasons.md §3), which count nothing. Each finding is a line; it exits 1 on
any, 0 when the table agrees, 2 when no season has that name. It speaks the shell's
language (``LC_ALL``, ``LC_MESSAGES``, ``LANG``) and prints no traceback.
"""

from __future__ import annotations

import sys
from fractions import Fraction
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.utils import translation
from django.utils.translation import gettext as _

from prefscore.seasons import coefficients, recount
from prefscore.seasons.models import Season, SeasonLine
from prefscore.shell import find, shell_language


class Command(BaseCommand):
    help = "Recount a season's table from the sheets and compare it with the stored table."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("address", help="the season as club/slug (or its slug alone)")

    def handle(self, *args: Any, **options: Any) -> None:
        with translation.override(shell_language()):
            self._check(options["address"])

    def _check(self, address: str) -> None:
        season: Season = find(Season.objects.all(), address)
        try:
            findings = check(season)
        except Exception as error:  # noqa: BLE001 - a corrupt season is reported, never a traceback
            findings = [_("the recount could not finish: %(error)r") % {"error": error}]
        for finding in findings:
            self.stdout.write(finding)
        if findings:
            sys.exit(1)
        self.stdout.write(
            _("The table of %(name)s agrees with its sheets.") % {"name": season.name}
        )


def check(season: Season) -> list[str]:
    """Every finding, one line each: coefficients of no convention, then each player
    whose stored line differs from the recount."""
    findings = [
        _("coefficient %(value)s under “%(name)s”: no convention of the club has that name")
        % {"name": name, "value": season.coefficients[name]}
        for name in coefficients.unknown(season)
    ]
    names = dict(season.club.players.values_list("pk", "name"))
    stored = {row.player_id: row for row in season.lines.all()}
    lines = recount.table(season, findings)
    fresh = {line.player: line for line in recount.divided(season, lines)}
    for player in sorted(set(stored) | set(fresh), key=lambda p: names.get(p, "")):
        said = _difference(stored.get(player), fresh.get(player))
        if said:
            findings.append(f"{names.get(player, player)}: {said}")
    return findings


def _difference(row: SeasonLine | None, line: recount.Line | None) -> str:
    """How a stored line differs from the recounted one, in words; empty when it does not."""
    if row is None:
        return _("not in the stored table; the recount gives %(total)s") % {"total": _n(line.total)}  # type: ignore[union-attr]
    if line is None:
        return _("stored with %(total)s; the recount gives no line") % {"total": row.total}
    kept = [(key, Fraction(value), bool(counts)) for key, value, counts in row.points]
    counted = [(key, value, key in line.counted) for key, value in line.points]
    checks = [
        (_("total"), Fraction(row.total), line.total),
        (_("rank"), row.rank, line.rank),
        (_("tables won"), row.wins, line.wins),
        (_("events still needed"), row.needed, line.needed),
        (_("out by his cards"), row.excluded, line.excluded),
        (_("cards"), [tuple(c) for c in row.cards], line.cards),
        (_("events"), kept, counted),
    ]
    return "; ".join(
        _("%(what)s stored %(stored)s, recounted %(fresh)s")
        % {"what": what, "stored": _n(a), "fresh": _n(b)}
        for what, a, b in checks
        if a != b
    )


def _n(value: Any) -> str:
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else str(value)
    if isinstance(value, list):
        return "[" + ", ".join(_event(item) for item in value) + "]"
    return "—" if value is None else str(value)


def _event(item: Any) -> str:
    if isinstance(item, tuple) and len(item) == 3 and isinstance(item[1], Fraction):
        key, value, counts = item
        return f"{key}: {_n(value)}" + ("" if counts else " (-)")
    return str(item)
