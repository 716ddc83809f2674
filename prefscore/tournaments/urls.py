"""Tournament URLs, under ``tournaments/<club slug>/``: a club's list, one tournament,
and its standings (open to anyone when public)."""

from django.urls import path

from . import room_views, views

app_name = "tournaments"

urlpatterns = [
    path("<slug:club>/", views.tournament_list, name="list"),
    path("<slug:club>/new/", views.create, name="create"),
    path("<slug:club>/<slug:slug>/", views.detail, name="detail"),
    path("<slug:club>/<slug:slug>/entries/", views.register, name="register"),
    path("<slug:club>/<slug:slug>/entries/<int:entry>/drop/", views.drop, name="drop"),
    path("<slug:club>/<slug:slug>/rounds/", views.draw, name="draw"),
    path("<slug:club>/<slug:slug>/cut/", views.cut, name="cut"),
    path("<slug:club>/<slug:slug>/publish/", views.publish, name="publish"),
    path("<slug:club>/<slug:slug>/standings/", views.standings, name="standings"),
    # The room (docs/tournaments.md §4.11-4.12): prefscore/tournaments/room_views.py.
    path("<slug:club>/new/import/", room_views.import_json, name="import"),
    path("<slug:club>/<slug:slug>/room/", room_views.dashboard, name="room"),
    path("<slug:club>/<slug:slug>/projector/", room_views.projector, name="projector"),
    path("<slug:club>/<slug:slug>/my-table/", room_views.my_table, name="my_table"),
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
]
