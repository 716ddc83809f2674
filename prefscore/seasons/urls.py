from django.urls import path

from . import views

app_name = "seasons"

urlpatterns = [
    path("clubs/<slug:slug>/seasons/", views.archive, name="archive"),
    path("clubs/<slug:slug>/seasons/new/", views.edit, name="create"),
    path("clubs/<slug:slug>/seasons/<slug:season>/", views.table, name="table"),
    path("clubs/<slug:slug>/seasons/<slug:season>/edit/", views.edit, name="edit"),
    path("clubs/<slug:slug>/seasons/<slug:season>/projector/", views.projector, name="projector"),
    path("clubs/<slug:slug>/seasons/<slug:season>/table.csv", views.table_csv, name="csv"),
    path("clubs/<slug:slug>/seasons/<slug:season>/card.png", views.card, name="card"),
    path("clubs/<slug:slug>/seasons/<slug:season>/table.json", views.table_json, name="json"),
    path(
        "clubs/<slug:slug>/seasons/<slug:season>/divisions/",
        views.divisions_page,
        name="divisions",
    ),
    path("clubs/<slug:slug>/seasons/<slug:season>/pulkas/", views.marked, name="marked"),
    path("clubs/<slug:slug>/seasons/<slug:season>/final/", views.qualify, name="qualify"),
    path(
        "clubs/<slug:slug>/seasons/<slug:season>/players/<id:player>/",
        views.player_line,
        name="player",
    ),
]
