"""The presets' options (docs/protocol.md, "Preset defaults"; docs/rules.md §3.9).

Each preset names only the options where it differs from Sochi's values, the defaults of
``conventions.Convention``. Kept apart from ``conventions.py`` so that the validation stays
short to read; ``conventions.preset`` builds and validates them.
"""

from __future__ import annotations

from typing import Any

# ФСПР's tournament rules; "pu-fspr" below is these with PU's house rules on top.
FSPR_OPTIONS: dict[str, Any] = {
    "whist_scale": 2,
    "gora_scale": 2,
    "whist_style": "gentleman",
    "whister_liability": "half",
    "joint_liability": "both",
    "prikup_whists": True,
    "allpass_ladder": [1, 2, 3],
    "allpass_amnesty": False,
    "allpass_zero_bonus": "gora_double",
    "allpass_reset": "whisted_game",
    "exit_ladder": [6, 7, 7],
    "help": False,
    "end": "deals",
    "pulya_to_gora": 2,
}

PRESET_OPTIONS: dict[str, dict[str, Any]] = {
    "sochi": {},
    "leningrad": {
        "whist_scale": 2,
        "gora_scale": 2,
        "whist_style": "gentleman",
        "whister_liability": "half",
        "consolation": ["whisters", "passer"],
        "allpass_ladder": [1, 2, 3],
        "exit_ladder": [6, 7, 8],
        "help": False,
        "end": "sum_reached",
        "pulya_to_gora": 2,
    },
    "rostov": {
        "whist_style": "gentleman",
        "whister_liability": "half",
        "allpass_scoring": "whists",
        "allpass_amnesty": False,
        "allpass_dealer_talon": False,
    },
    "fspr": FSPR_OPTIONS,
    # The peers' own conventions, so that a club moving from one of those apps
    # keeps its scores: each value read from the app's code, docs/rules.md §3.9, second
    # table. What they play that no option states yet is listed there too.
    "pu-home": {  # refinishru-Andre/pulka, src/engine/conventions.ts HOME_RULES
        "whist_scale": 2,
        "gora_scale": 2,
        "whister_liability": "half",
        "joint_liability": "both",
        "ten": "checked",
        "consolation": ["whisters", "passer"],
        "allpass_ladder": [1, 2, 3],
        "allpass_zero_bonus": "gora_double",
        "allpass_dealer_talon": False,
        "allpass_reset": "made_game_or_misere",
        "exit_ladder": [6, 7, 8],
        "allpass_exit_round": True,
        "pulya_to_gora": 2,
        "help_writeoff": "pulya_rate",
        "concede_levels": [6, 7, 8, 9, 10],
        "half_whist_first": True,
        "returned_whist_alone": True,
        "help_order": "clockwise",
        "checked_ten_trick_whists": True,
    },
    # FSPR as PU plays it: prefscore's FSPR, but for PU's house rules (docs/rules.md §3.9).
    "pu-fspr": {  # refinishru-Andre/pulka, src/engine/conventions.ts FSPR_RULES
        **FSPR_OPTIONS,
        "allpass_reset": "made_whisted_game",
        "gentleman_on_made": True,
        "half_whist_first": True,
        "returned_whist_alone": True,
        "dealer_whist": "unliable",
        "allpass_zero_bonus_excludes_dealer": True,
    },
    "rs-sochi": {  # rostiktc2-star/preferans-score, src/domain/engine.ts and finalize.ts
        "joint_liability": "second_own",
        "consolation": [],
        "allpass_ladder": [1, 2, 3],
        "allpass_dealer_talon": False,
        "allpass_reset": "played_game_or_misere",
        "allpass_zero_bonus_flat": True,
        "rounding": "exact",
        "personal_quota": True,
        "help_writeoff_stops_at_zero": True,
        "mountain_divisor": "others",
        "half_whist_played": True,
    },
    "gchet": {  # gchet/Preferans, internal/game/rules.go DefaultRules and score.go
        "whist_scale": 2,
        "gora_scale": 2,
        "whist_style": "gentleman",
        "whister_liability": "half",
        "ten": "checked",
        "consolation": ["whisters", "passer"],
        "prikup_whists": True,
        "allpass_ladder": [1, 2, 4],
        "allpass_zero_bonus": "pulya_scaled",
        "allpass_reset": "made_played_game",
        "exit_ladder": [6, 7],
        "allpass_zero_bonus_dealer": True,
        "finish_after_allpass_run": True,
        "help": False,
        "end": "sum_reached",
        "pulya_to_gora": 2,
        "rounding": "exact",
        "checked_ten_consolation": "none",
        "concede_levels": [6, 7],
        "half_whist_first": True,
        "returned_whist_alone": True,
        "dealer_whist": "liable",
        "talon_shown_penalty": "whists",
        "returned_whist_consolation": "both",
    },
}
