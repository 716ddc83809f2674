"""Every state a director's decision leaves has its decision in the audit (§4.15).

Closing a table, cutting the field, dropping, disqualifying and taking back a player are
now ``TournamentEvent`` rows, which ``check_tournament`` proves each state against. The
states left before they were recorded get their record here, from what the state keeps
(a closing's author, time and reason; the players a stage seated), marked
``reconstructed``: the audit says it was written afterwards.
"""

from django.db import migrations, models

OUT = {"dropped": "dropped", "disqualified": "disqualified", "absent": "no_show"}
LEAVING = ("dropped", "disqualified", "no_show")


def record(apps, schema_editor):
    Event = apps.get_model("tournaments", "TournamentEvent")
    Closure = apps.get_model("tournaments", "TableClosure")
    Entry = apps.get_model("tournaments", "TournamentEntry")
    Round = apps.get_model("tournaments", "Round")
    # A no-show was written about the player by name only: it names his entry now.
    for event in Event.objects.filter(action="no_show", entry__isnull=True):
        name = (event.details or {}).get("player")
        entry = Entry.objects.filter(tournament_id=event.tournament_id, player__name=name).first()
        if entry is not None:
            Event.objects.filter(pk=event.pk).update(entry=entry)
    for closure in Closure.objects.select_related("pulka"):
        pulka = closure.pulka
        if pulka.tournament_id is None:
            continue
        event = Event.objects.create(
            tournament_id=pulka.tournament_id,
            action="table_closed",
            reason=closure.note,
            user_id=closure.closed_by_id,
            details={
                "pulka": pulka.pk,
                "round": pulka.round_number,
                "kind": closure.reason,
                "whists": closure.whists,
                "players": list(pulka.player_names or []),
                "reconstructed": True,
            },
        )
        Event.objects.filter(pk=event.pk).update(at=closure.closed_at)
    for entry in Entry.objects.filter(state__in=list(OUT)).select_related("player"):
        if Event.objects.filter(entry=entry, action__in=LEAVING).exists():
            continue
        Event.objects.create(
            tournament_id=entry.tournament_id,
            entry=entry,
            action=OUT[entry.state],
            details={"player": entry.player.name, "reconstructed": True},
        )
    seen = set()
    for round_ in Round.objects.exclude(stage="qualifying").order_by("tournament_id", "number"):
        if (round_.tournament_id, round_.stage) in seen:
            continue
        seen.add((round_.tournament_id, round_.stage))
        players = [k for t in round_.tables or [] if isinstance(t, dict) for k in t.get("players", [])]
        Event.objects.create(
            tournament_id=round_.tournament_id,
            action="cut",
            details={
                "round": round_.number,
                "stage": round_.stage,
                "size": len(players),
                "players": [str(k) for k in players],
                "reconstructed": True,
            },
        )


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0008_tournament_after_drop"),
    ]

    operations = [
        migrations.AlterField(
            model_name="tournamentevent",
            name="action",
            field=models.CharField(
                choices=[
                    ("reopened", "tournament reopened"),
                    ("table_closed", "table closed"),
                    ("closure_corrected", "arbiter's final sheet corrected"),
                    ("cut", "field cut"),
                    ("no_show", "withdrawn: not checked in"),
                    ("dropped", "dropped out"),
                    ("reinstated", "taken back"),
                    ("yellow_card", "yellow card"),
                    ("red_card", "red card"),
                    ("fine", "whist fine"),
                    ("disqualified", "disqualified"),
                    ("checked_in", "checked in by the player"),
                ],
                max_length=20,
                verbose_name="action",
            ),
        ),
        migrations.RunPython(record, migrations.RunPython.noop),
    ]
