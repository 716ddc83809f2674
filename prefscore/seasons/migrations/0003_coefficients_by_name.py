"""Seasons saved with coefficients under a typed name are keyed by the convention's name.

The season form used to take "Leningrad = 4/3" as free text and store "Leningrad",
while a pulka stores "leningrad": the coefficient never applied (docs/seasons.md §3).
Each stored name that is no convention of the season's club is renamed where the match
is unambiguous: the same name in another case, or a preset's title in English or in
Russian. The rest stay as they were; ``check_season`` lists them and the form refuses
them until the organiser says which convention he meant.

The presets' titles are frozen here (a migration imports no live code).
"""

from django.db import migrations

# The presets' titles as the pages showed them (scoring.models.PRESET_LABELS in English
# and Russian) and the names players call them by.
PRESET_TITLES = {
    "sochi": ("Sochi", "Сочи", "сочинка"),
    "leningrad": ("Leningrad", "Ленинград", "ленинградка", "питерка"),
    "rostov": ("Rostov", "Ростов", "ростовка"),
    "fspr": ("FSPR (tournament)", "ФСПР (турнирная)", "FSPR", "ФСПР"),
    "pu-home": ("PU home", "Домашняя (Пулька)"),
    "pu-fspr": ("FSPR (PU)", "ФСПР (Пулька)"),
    "rs-sochi": ("RS Sochi", "Сочинка (RS)"),
    "gchet": ("gchet", "Правила gchet"),
}


def _known(apps, club_id):
    """The names a pulka of the club stores: presets by slug, the others by name, and
    whatever its pulkas and tournaments were played under."""
    Convention = apps.get_model("scoring", "Convention")
    Pulka = apps.get_model("games", "Pulka")
    Tournament = apps.get_model("tournaments", "Tournament")
    names = set()
    for slug, name, is_preset, owner in Convention.objects.values_list(
        "slug", "name", "is_preset", "owner_id"
    ):
        if owner is None or owner == club_id:
            names.add(slug if is_preset else name)
    for model in (Pulka, Tournament):
        rows = model.objects.filter(club_id=club_id).order_by().values_list("convention_name")
        names.update(name for (name,) in rows.distinct())
    return names


def _match(typed, known):
    """The one known name ``typed`` means, or None when none or several could be it."""
    wanted = typed.strip().casefold()
    found = {name for name in known if name.casefold() == wanted}
    for slug, titles in PRESET_TITLES.items():
        if slug in known and wanted in {title.casefold() for title in titles}:
            found.add(slug)
    return found.pop() if len(found) == 1 else None


def repair(apps, schema_editor):
    Season = apps.get_model("seasons", "Season")
    for season in Season.objects.all():
        stored = dict(season.coefficients or {})
        known = _known(apps, season.club_id)
        repaired = {}
        for name, value in stored.items():
            match = None if name in known else _match(name, known)
            clash = match is not None and (match in stored or match in repaired)
            repaired[name if match is None or clash else match] = value
        if repaired != stored:
            season.coefficients = repaired
            season.save(update_fields=["coefficients"])


class Migration(migrations.Migration):
    dependencies = [
        ("seasons", "0002_rating_and_discipline"),
        ("scoring", "0010_rounding_adjusts"),
        ("games", "0005_title_parts"),
        ("tournaments", "0008_tournament_after_drop"),
    ]

    operations = [migrations.RunPython(repair, migrations.RunPython.noop)]
