"""The four presets of docs/protocol.md, read-only in the admin, with their options frozen here.

The values are the engine's presets (``scoring.engine.conventions.preset``) as they stood
when this migration was written, copied rather than imported: a migration must create the
same rows whatever the engine later becomes. tests/test_convention_migration.py checks
that they still match the engine's presets; when a preset changes, a new migration
changes the rows.
"""

from django.db import migrations

# (slug, name, description): the names as clubs call them. The pages show the names and
# descriptions in the reader's language (scoring.models.PRESET_LABELS, PRESET_DESCRIPTIONS).
PRESETS = (
    ("sochi", "Sochi", "The convention of the Кодекс преферанса (сочинка)."),
    ("leningrad", "Leningrad", "The Leningrad convention (ленинградка, питерка)."),
    ("rostov", "Rostov", "The Rostov convention (ростовка)."),
    ("fspr", "ФСПР", "The tournament convention of the ФСПР («Ленинградская»), played on time."),
)

# Every option field of scoring.Convention, Sochi's values (the Кодекс преферанса).
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
}

# The other presets: Sochi's values but for these.
OPTIONS = {
    "sochi": SOCHI,
    "leningrad": {
        **SOCHI,
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
        **SOCHI,
        "whist_style": "gentleman",
        "whister_liability": "half",
        "allpass_scoring": "whists",
        "allpass_amnesty": False,
        "allpass_dealer_talon": False,
    },
    "fspr": {
        **SOCHI,
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
    },
}


def create_presets(apps, schema_editor):
    Convention = apps.get_model("scoring", "Convention")
    for slug, name, description in PRESETS:
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
    dependencies = [("scoring", "0001_initial")]

    operations = [migrations.RunPython(create_presets, delete_presets)]
