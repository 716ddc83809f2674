"""Tournament URLs, under ``tournaments/<club slug>/``: a club's list, one tournament,
its controls, and its standings and bracket (open to anyone when public)."""

from django.urls import path

from . import views, views_control

app_name = "tournaments"

T = "<slug:club>/<slug:slug>"

urlpatterns = [
    path("<slug:club>/", views.tournament_list, name="list"),
    path("<slug:club>/new/", views.create, name="create"),
    path(f"{T}/", views.detail, name="detail"),
    path(f"{T}/entries/", views_control.register, name="register"),
    path(f"{T}/entries/<int:entry>/state/", views_control.entry_state, name="entry_state"),
    path(f"{T}/rounds/", views_control.draw, name="draw"),
    path(f"{T}/rounds/<int:number>/publish/", views_control.publish_round, name="publish_round"),
    path(f"{T}/rounds/<int:number>/redraw/", views_control.redraw, name="redraw"),
    path(f"{T}/rounds/<int:number>/discard/", views_control.discard_round, name="discard_round"),
    path(f"{T}/rounds/<int:number>/swap/", views_control.swap, name="swap"),
    path(f"{T}/tables/<int:pulka>/close/", views_control.close_table, name="close_table"),
    path(f"{T}/regulations/", views_control.edit_regulations, name="regulations"),
    path(f"{T}/cut/", views_control.cut, name="cut"),
    path(f"{T}/publish/", views.publish, name="publish"),
    path(f"{T}/standings/", views.standings, name="standings"),
    path(f"{T}/bracket/", views.bracket, name="bracket"),
]
