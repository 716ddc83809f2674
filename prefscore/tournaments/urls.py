"""Tournament URLs, under ``tournaments/<club slug>/``: a club's list, one tournament,
and its standings (open to anyone when public)."""

from django.urls import path

from . import views

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
]
