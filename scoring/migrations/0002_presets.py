"""The four presets of protocol.md, read-only in the admin, from the engine's own values.

The options are taken from ``scoring.engine.conventions.preset(name).to_options()`` when
the migration runs, so the database starts with exactly the engine's presets.
"""

from django.db import migrations

from scoring.engine.conventions import preset

# (slug, name, description): the names as clubs call them. The pages show the names and
# descriptions in the reader's language (scoring.models.PRESET_LABELS, PRESET_DESCRIPTIONS).
PRESETS = (
    ("sochi", "Sochi", "The convention of the Кодекс преферанса (сочинка)."),
    ("leningrad", "Leningrad", "The Leningrad convention (ленинградка, питерка)."),
    ("rostov", "Rostov", "The Rostov convention (ростовка)."),
    ("fspr", "ФСПР", "The tournament convention of the ФСПР («Ленинградская»), played on time."),
)


def fields_from_options(options):
    fields = {f"price_{key}": value for key, value in options["prices"].items()}
    fields.update((name, value) for name, value in options.items() if name != "prices")
    return fields


def create_presets(apps, schema_editor):
    Convention = apps.get_model("scoring", "Convention")
    for slug, name, description in PRESETS:
        fields = fields_from_options(preset(slug).to_options())
        Convention.objects.update_or_create(
            slug=slug,
            defaults={
                "name": name,
                "description": description,
                "owner": None,
                "is_preset": True,
                **fields,
            },
        )


def delete_presets(apps, schema_editor):
    Convention = apps.get_model("scoring", "Convention")
    Convention.objects.filter(is_preset=True, slug__in=[p[0] for p in PRESETS]).delete()


class Migration(migrations.Migration):
    dependencies = [("scoring", "0001_initial")]

    operations = [migrations.RunPython(create_presets, delete_presets)]
