"""Changes to a frozen standings policy, written down (docs/seasons.md §8)."""

from __future__ import annotations

import json
from typing import Any

from .models import POLICY_FIELDS, PolicyChange, Season


def _text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def record_changes(season: Season, before: dict[str, Any], user: Any) -> list[PolicyChange]:
    """One ``PolicyChange`` per setting changed after the policy froze; none before."""
    if season.policy_frozen_at is None:
        return []
    changes = [
        PolicyChange(
            season=season,
            field=name,
            before=_text(before[name]),
            after=_text(getattr(season, name)),
            changed_by=user if user.is_authenticated else None,
        )
        for name in POLICY_FIELDS
        if before.get(name) != getattr(season, name)
    ]
    return PolicyChange.objects.bulk_create(changes)


def record_marks(season: Season, before: list[int], after: list[int], user: Any) -> None:
    """Which pulkas count is the policy too: a change after it froze is written down (§8)."""
    if season.policy_frozen_at is None or before == after:
        return
    PolicyChange.objects.create(
        season=season,
        field="marked_pulkas",
        before=_text(before),
        after=_text(after),
        changed_by=user if user.is_authenticated else None,
    )
