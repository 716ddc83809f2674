"""Tournament URLs, under ``tournaments/<club slug>/``: a club's list, one tournament,
its controls, and its standings and bracket (open to anyone when public)."""

from django.urls import path

from .views import (
    card,
    checkin,
    constraints,
    control,
    decisions,
    discipline,
    events,
    files,
    room,
    time,
    tournament,
)

app_name = "tournaments"

T = "<slug:club>/<slug:slug>"

urlpatterns = [
    path("<slug:club>/", tournament.tournament_list, name="list"),
    path("<slug:club>/new/", tournament.create, name="create"),
    path(f"{T}/", tournament.detail, name="detail"),
    path(f"{T}/entries/", control.register, name="register"),
    path(f"{T}/entries/check-in/", checkin.bulk_check_in, name="bulk_check_in"),
    path(f"{T}/check-in/<str:token>/", checkin.check_in_self, name="check_in_self"),
    path(f"{T}/entries/<id:entry>/state/", control.entry_state, name="entry_state"),
    path(f"{T}/entries/<id:entry>/leave/", control.leave, name="leave"),
    path(
        f"{T}/entries/<id:entry>/discipline/",
        discipline.discipline_view,
        name="discipline",
    ),
    path(f"{T}/constraints/", constraints.seating_constraints, name="constraints"),
    path(f"{T}/rounds/", control.draw, name="draw"),
    path(f"{T}/rounds/<id:number>/publish/", control.publish_round, name="publish_round"),
    path(f"{T}/rounds/<id:number>/start/", time.schedule_round, name="schedule_round"),
    path(f"{T}/rounds/<id:number>/redraw/", control.redraw, name="redraw"),
    path(f"{T}/rounds/<id:number>/discard/", control.discard_round, name="discard_round"),
    path(f"{T}/rounds/<id:number>/swap/", control.swap, name="swap"),
    path(f"{T}/rounds/<id:number>/move/", control.move, name="move"),
    path(f"{T}/tables/<id:pulka>/close/", control.close_table, name="close_table"),
    path(
        f"{T}/tables/<id:pulka>/correct/",
        decisions.correct_closure,
        name="correct_closure",
    ),
    path(f"{T}/reopen/", decisions.reopen, name="reopen"),
    path(f"{T}/redo-cut/", decisions.redo_cut, name="redo_cut"),
    path(f"{T}/regulations/", control.edit_regulations, name="regulations"),
    path(f"{T}/cut/", control.cut, name="cut"),
    path(f"{T}/finish/", control.finish, name="finish"),
    path(f"{T}/publish/", tournament.publish, name="publish"),
    path(f"{T}/standings/", tournament.standings, name="standings"),
    path(f"{T}/bracket/", tournament.bracket, name="bracket"),
    path(f"{T}/standings/card.png", card.standings_card_png, name="standings_card"),
    # The tournament file in (docs/tournaments.md §6): views/files.py.
    path("<slug:club>/new/import/", files.import_json, name="import"),
    path("<slug:club>/new/import/<id:job>/", files.import_job, name="import_job"),
    path("<slug:club>/new/import/<id:job>/answer/", files.import_answer, name="import_answer"),
    # The room (docs/tournaments.md §4.11-4.12): views/room.py.
    path("<slug:club>/<slug:slug>/room/", room.dashboard, name="room"),
    path("<slug:club>/<slug:slug>/projector/", room.projector, name="projector"),
    path("<slug:club>/<slug:slug>/my-table/", room.my_table, name="my_table"),
    # Their change signals (views/events.py): under ASGI only; each path mirrors its screen's.
    path("<slug:club>/<slug:slug>/room/events/", events.room_events, name="room_events"),
    path(
        "<slug:club>/<slug:slug>/projector/events/",
        events.projector_events,
        name="projector_events",
    ),
    path(
        "<slug:club>/<slug:slug>/my-table/events/",
        events.my_table_events,
        name="my_table_events",
    ),
    path("<slug:club>/<slug:slug>/print/seating/", room.print_seating, name="print_seating"),
    path("<slug:club>/<slug:slug>/print/cards/", room.print_cards, name="print_cards"),
    path(
        "<slug:club>/<slug:slug>/print/standings/",
        room.print_standings,
        name="print_standings",
    ),
    path("<slug:club>/<slug:slug>/print/protocol/", room.print_protocol, name="print_protocol"),
    # The tournament file out (docs/tournaments.md §6): views/files.py.
    path("<slug:club>/<slug:slug>/export.csv", files.export_csv, name="export_csv"),
    path("<slug:club>/<slug:slug>/export.json", files.export_json, name="export_json"),
    path("<slug:club>/<slug:slug>/export/<id:job>/", files.export_job, name="export_job"),
    path("<slug:club>/<slug:slug>/export/<id:job>/file/", files.export_file, name="export_file"),
]
