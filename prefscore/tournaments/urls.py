"""Tournament URLs, under ``tournaments/<club slug>/``: a club's list, one tournament,
its controls, and its standings and bracket (open to anyone when public)."""

from django.urls import path

from . import (
    room_events,
    room_views,
    views,
    views_checkin,
    views_constraints,
    views_control,
    views_decisions,
    views_discipline,
    views_time,
)

app_name = "tournaments"

T = "<slug:club>/<slug:slug>"

urlpatterns = [
    path("<slug:club>/", views.tournament_list, name="list"),
    path("<slug:club>/new/", views.create, name="create"),
    path(f"{T}/", views.detail, name="detail"),
    path(f"{T}/entries/", views_control.register, name="register"),
    path(f"{T}/entries/check-in/", views_checkin.bulk_check_in, name="bulk_check_in"),
    path(f"{T}/check-in/<str:token>/", views_checkin.check_in_self, name="check_in_self"),
    path(f"{T}/entries/<id:entry>/state/", views_control.entry_state, name="entry_state"),
    path(f"{T}/entries/<id:entry>/leave/", views_control.leave, name="leave"),
    path(
        f"{T}/entries/<id:entry>/discipline/",
        views_discipline.discipline_view,
        name="discipline",
    ),
    path(f"{T}/constraints/", views_constraints.seating_constraints, name="constraints"),
    path(f"{T}/rounds/", views_control.draw, name="draw"),
    path(f"{T}/rounds/<id:number>/publish/", views_control.publish_round, name="publish_round"),
    path(f"{T}/rounds/<id:number>/start/", views_time.schedule_round, name="schedule_round"),
    path(f"{T}/rounds/<id:number>/redraw/", views_control.redraw, name="redraw"),
    path(f"{T}/rounds/<id:number>/discard/", views_control.discard_round, name="discard_round"),
    path(f"{T}/rounds/<id:number>/swap/", views_control.swap, name="swap"),
    path(f"{T}/rounds/<id:number>/move/", views_control.move, name="move"),
    path(f"{T}/tables/<id:pulka>/close/", views_control.close_table, name="close_table"),
    path(
        f"{T}/tables/<id:pulka>/correct/",
        views_decisions.correct_closure,
        name="correct_closure",
    ),
    path(f"{T}/reopen/", views_decisions.reopen, name="reopen"),
    path(f"{T}/redo-cut/", views_decisions.redo_cut, name="redo_cut"),
    path(f"{T}/regulations/", views_control.edit_regulations, name="regulations"),
    path(f"{T}/cut/", views_control.cut, name="cut"),
    path(f"{T}/finish/", views_control.finish, name="finish"),
    path(f"{T}/publish/", views.publish, name="publish"),
    path(f"{T}/standings/", views.standings, name="standings"),
    path(f"{T}/bracket/", views.bracket, name="bracket"),
    # The room (docs/tournaments.md §4.11-4.12): prefscore/tournaments/room_views.py.
    path("<slug:club>/new/import/", room_views.import_json, name="import"),
    path("<slug:club>/new/import/<id:job>/", room_views.import_job, name="import_job"),
    path("<slug:club>/new/import/<id:job>/answer/", room_views.import_answer, name="import_answer"),
    path("<slug:club>/<slug:slug>/room/", room_views.dashboard, name="room"),
    path("<slug:club>/<slug:slug>/projector/", room_views.projector, name="projector"),
    path("<slug:club>/<slug:slug>/my-table/", room_views.my_table, name="my_table"),
    # Their change signals (room_events.py): under ASGI only; each path mirrors its screen's.
    path("<slug:club>/<slug:slug>/room/events/", room_events.room_events, name="room_events"),
    path(
        "<slug:club>/<slug:slug>/projector/events/",
        room_events.projector_events,
        name="projector_events",
    ),
    path(
        "<slug:club>/<slug:slug>/my-table/events/",
        room_events.my_table_events,
        name="my_table_events",
    ),
    path("<slug:club>/<slug:slug>/print/seating/", room_views.print_seating, name="print_seating"),
    path("<slug:club>/<slug:slug>/print/cards/", room_views.print_cards, name="print_cards"),
    path(
        "<slug:club>/<slug:slug>/print/standings/",
        room_views.print_standings,
        name="print_standings",
    ),
    path(
        "<slug:club>/<slug:slug>/print/protocol/", room_views.print_protocol, name="print_protocol"
    ),
    path("<slug:club>/<slug:slug>/export.csv", room_views.export_csv, name="export_csv"),
    path("<slug:club>/<slug:slug>/export.json", room_views.export_json, name="export_json"),
    path("<slug:club>/<slug:slug>/export/<id:job>/", room_views.export_job, name="export_job"),
    path(
        "<slug:club>/<slug:slug>/export/<id:job>/file/",
        room_views.export_file,
        name="export_file",
    ),
]
