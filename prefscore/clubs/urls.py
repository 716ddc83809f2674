from django.urls import path

from . import views

app_name = "clubs"

urlpatterns = [
    path("", views.home, name="home"),
    path("clubs/", views.create_club, name="create"),
    path("clubs/<slug:slug>/", views.club_page, name="club"),
    path("clubs/<slug:slug>/guests/", views.add_guest, name="add_guest"),
]
