"""The peers' conventions as four more read-only presets, their options frozen here.

"PU home" and "FSPR (PU)" are refinishru-Andre/pulka's two conventions, "RS Sochi" is
rostiktc2-star/preferans-score's, "gchet" gchet/Preferans's defaults: a club moving from
one of those apps keeps its scores (docs/rules.md §3.9, second table). As in
scoring.0002_presets, the values are the engine's presets as they stood when this
migration was written, copied rather than imported; tests/test_convention_migration.py
checks that they still match.
"""

from django.db import migrations

# (slug, name, description): the pages show them in the reader's language
# (scoring.models.PRESET_LABELS, PRESET_DESCRIPTIONS).
PRESETS = (
    (
        "pu-home",
        "PU home",
        "The home convention of the pulka app (refinishru-Andre/pulka): Piter prices, "
        "greedy whist, all-passes at 2-4-6, exit 6-7-8.",
    ),
    (
        "pu-fspr",
        "FSPR (PU)",
        "The ФСПР tournament convention as the pulka app (refinishru-Andre/pulka) plays it.",
    ),
    (
        "rs-sochi",
        "RS Sochi",
        "The Sochi convention of the Preferans Score app (rostiktc2-star/preferans-score): "
        "responsible greedy whist, no consolation, all-passes at 1-2-3.",
    ),
    (
        "gchet",
        "gchet",
        "The default rules of gchet/Preferans: Piter prices, gentleman whist, checked ten, "
        "all-passes at 2-4-8, played to a total.",
    ),
)

# Every option field of scoring.Convention, Sochi's values: 0002_presets's, then the
# options added since (0003_whists_options, 0004_allpass_options, 0005_facts_options).
SOCHI = {
    "price_6": 2,
    "price_7": 4,
    "price_8": 6,
    "price_9": 8,
    "price_10": 10,
    "price_misere": 10,
    "whist_scale": 1,
    "gora_scale": 1,
    "whist_style": "greedy",
    "whister_liability": "full",
    "joint_liability": "second",
    "half_whist_levels": [6, 7],
    "ten": "whisted",
    "consolation": ["whisters", "passer", "dealer"],
    "consolation_unit": "price",
    "misere_consolation": False,
    "prikup_whists": False,
    "allpass_scoring": "gora",
    "allpass_ladder": [1],
    "allpass_amnesty": True,
    "allpass_zero_bonus": "pulya",
    "allpass_dealer_talon": True,
    "allpass_whist_rate": 5,
    "allpass_reset": "any_game",
    "allpass_max_run": None,
    "exit_ladder": [6],
    "help": True,
    "help_excludes_remized_whister": False,
    "help_excludes_dealer": False,
    "end": "all_closed",
    "deal_limit": None,
    "pulya_to_gora": 1,
    "rounding": "codex",
    "rounding_compensation_4": 2,
    "indivisible_mountain": False,
    "gentleman_on_made": False,
    "personal_quota": False,
    "checked_ten_consolation": "defenders",
    "help_writeoff": "points",
    "help_writeoff_stops_at_zero": False,
    "allpass_zero_bonus_flat": False,
    "allpass_zero_bonus_dealer": False,
    "allpass_exit_round": False,
    "finish_after_allpass_run": False,
    "concede_levels": [],
    "half_whist_first": False,
    "returned_whist_alone": False,
    "dealer_whist": "none",
    "totus_bonus": 0,
    "talon_shown_penalty": "none",
}

# Piter prices: whists and gora at twice the price, half liability (PU, gchet).
PITER = {"whist_scale": 2, "gora_scale": 2, "whister_liability": "half", "pulya_to_gora": 2}

OPTIONS = {
    "pu-home": {
        **SOCHI,
        **PITER,
        "joint_liability": "both",
        "ten": "checked",
        "consolation": ["whisters", "passer"],
        "allpass_ladder": [1, 2, 3],
        "allpass_zero_bonus": "gora_double",
        "allpass_dealer_talon": False,
        "allpass_reset": "made_game_or_misere",
        "exit_ladder": [6, 7, 8],
        "allpass_exit_round": True,
        "help_writeoff": "pulya_rate",
        "concede_levels": [6, 7, 8, 9, 10],
        "half_whist_first": True,
        "returned_whist_alone": True,
    },
    "pu-fspr": {
        **SOCHI,
        **PITER,
        "whist_style": "gentleman",
        "joint_liability": "both",
        "prikup_whists": True,
        "allpass_ladder": [1, 2, 3],
        "allpass_amnesty": False,
        "allpass_zero_bonus": "gora_double",
        "allpass_reset": "made_whisted_game",
        "exit_ladder": [6, 7, 7],
        "help": False,
        "end": "deals",
        "gentleman_on_made": True,
        "half_whist_first": True,
        "returned_whist_alone": True,
        "dealer_whist": "unliable",
    },
    "rs-sochi": {
        **SOCHI,
        "joint_liability": "second_own",
        "consolation": [],
        "allpass_ladder": [1, 2, 3],
        "allpass_dealer_talon": False,
        "allpass_reset": "played_game_or_misere",
        "allpass_zero_bonus_flat": True,
        "rounding": "exact",
        "personal_quota": True,
        "help_writeoff_stops_at_zero": True,
    },
    "gchet": {
        **SOCHI,
        **PITER,
        "whist_style": "gentleman",
        "ten": "checked",
        "consolation": ["whisters", "passer"],
        "prikup_whists": True,
        "allpass_ladder": [1, 2, 4],
        "allpass_zero_bonus": "gora_double",
        "allpass_reset": "made_played_game",
        "exit_ladder": [6, 7],
        "allpass_zero_bonus_dealer": True,
        "finish_after_allpass_run": True,
        "help": False,
        "end": "sum_reached",
        "rounding": "exact",
        "checked_ten_consolation": "none",
        "concede_levels": [6, 7],
        "half_whist_first": True,
        "returned_whist_alone": True,
        "dealer_whist": "liable",
        "talon_shown_penalty": "whists",
    },
}


def _move_aside(Convention, slug):
    """A club may already call its own convention "gchet": it keeps it under a free slug.

    (Slugs are unique; the preset must not take over, or change, the club's options.)
    """
    own = Convention.objects.filter(slug=slug, is_preset=False).first()
    if own is None:
        return
    number = 2
    while Convention.objects.filter(slug=f"{slug}-{number}").exists():
        number += 1
    own.slug = f"{slug}-{number}"
    own.save(update_fields=["slug"])


def create_presets(apps, schema_editor):
    Convention = apps.get_model("scoring", "Convention")
    for slug, name, description in PRESETS:
        _move_aside(Convention, slug)
        Convention.objects.update_or_create(
            slug=slug,
            defaults={
                "name": name,
                "description": description,
                "owner": None,
                "is_preset": True,
                **OPTIONS[slug],
            },
        )


def delete_presets(apps, schema_editor):
    Convention = apps.get_model("scoring", "Convention")
    Convention.objects.filter(is_preset=True, slug__in=[p[0] for p in PRESETS]).delete()


class Migration(migrations.Migration):
    dependencies = [("scoring", "0005_facts_options")]

    operations = [migrations.RunPython(create_presets, delete_presets)]
