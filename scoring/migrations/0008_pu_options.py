"""PU's three house rules (docs/rules.md §3.1.7, §3.3, §3.4).

Three option fields, Sochi's values by default (today's scoring for every convention),
and the two PU presets take theirs: "PU home" gives help to the next seat clockwise and
writes trick whists on a failed checked ten, "FSPR (PU)" gives no dealer the zero-trick
bonus. The values are copied here, not imported, as in scoring.0006_presets_peers;
tests/test_convention_migration.py checks the presets against the engine.
"""

from django.db import migrations, models

PU_VALUES = {
    "pu-home": {"help_order": "clockwise", "checked_ten_trick_whists": True},
    "pu-fspr": {"allpass_zero_bonus_excludes_dealer": True},
}


def set_pu_presets(apps, schema_editor):
    Convention = apps.get_model("scoring", "Convention")
    for slug, values in PU_VALUES.items():
        Convention.objects.filter(slug=slug, is_preset=True).update(**values)


def unset_pu_presets(apps, schema_editor):
    """Nothing to undo: going back removes the three fields themselves."""


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0007_gchet_zero_bonus_returned_whist'),
    ]

    operations = [
        migrations.AddField(
            model_name='convention',
            name='allpass_zero_bonus_excludes_dealer',
            field=models.BooleanField(default=False, help_text='распасы: the dealer never earns the bonus for taking no trick, with three players neither.', verbose_name='no bonus for no trick to the dealer'),
        ),
        migrations.AddField(
            model_name='convention',
            name='checked_ten_trick_whists',
            field=models.BooleanField(default=False, help_text='проверяемая десятерная: on a failed checked ten the defenders write whists for their tricks as on any contract (needs a checked ten).', verbose_name='trick whists on a checked ten'),
        ),
        migrations.AddField(
            model_name='convention',
            name='help_order',
            field=models.CharField(choices=[('largest', 'the largest unclosed pulya'), ('clockwise', 'the next unclosed pulya clockwise')], default='largest', help_text='помощь: which unclosed pulya receives the points first (needs help).', max_length=12, verbose_name='help goes to'),
        ),
        migrations.RunPython(set_pu_presets, unset_pu_presets),
    ]
