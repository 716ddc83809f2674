"""The home page and a club's pages: the "clubs" namespace, served by games (views/clubs.py)."""

from django.urls import path

from .views import clubs as views

app_name = "clubs"

urlpatterns = [
    path("", views.home, name="home"),
    path("clubs/", views.create_club, name="create"),
    path("clubs/<slug:slug>/", views.club_page, name="club"),
    path("clubs/<slug:slug>/guests/", views.add_guest, name="add_guest"),
]
