"""gchet's two remaining rules (docs/rules.md §3.3, §3.10.3): the option
returned_whist_consolation, the zero-trick bonus value pulya_scaled, and the gchet preset
playing both.

Sochi's values (the field's default, allpass_zero_bonus left alone) keep every other
convention as it scored. The gchet preset row gets gchet/Preferans's values, copied here
rather than imported, as scoring.0006_presets_peers does; a club's own conventions are
left alone.
"""

from django.db import migrations, models

GCHET = {"allpass_zero_bonus": "pulya_scaled", "returned_whist_consolation": "both"}
# What scoring.0006_presets_peers wrote before this migration.
GCHET_BEFORE = {"allpass_zero_bonus": "gora_double", "returned_whist_consolation": "whister"}


def play_gchets_rules(apps, schema_editor):
    Convention = apps.get_model("scoring", "Convention")
    Convention.objects.filter(slug="gchet", is_preset=True).update(**GCHET)


def write_them_as_before(apps, schema_editor):
    Convention = apps.get_model("scoring", "Convention")
    Convention.objects.filter(slug="gchet", is_preset=True).update(**GCHET_BEFORE)


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0006_presets_peers'),
    ]

    operations = [
        migrations.AddField(
            model_name='convention',
            name='returned_whist_consolation',
            field=models.CharField(choices=[('whister', 'his own only'), ('both', "his own and the half-whister's")], default='whister', help_text="пас — полвиста — вист: on a remiz the returner writes his own consolation, or the half-whister's too (needs a returned whist played alone).", max_length=12, verbose_name='a returned whist consoles with'),
        ),
        migrations.AlterField(
            model_name='convention',
            name='allpass_zero_bonus',
            field=models.CharField(choices=[('pulya', 'the price to the pulya'), ('pulya_scaled', 'the price of a trick in the gora, to the pulya'), ('gora', 'the price off the gora'), ('gora_double', 'twice the price off the gora'), ('none', 'nothing')], default='pulya', help_text='ноль взяток на распасах: what a player who takes no trick gets.', max_length=12, verbose_name='no trick on an all-pass earns'),
        ),
        migrations.RunPython(play_gchets_rules, write_them_as_before),
    ]
