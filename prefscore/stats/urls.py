from django.urls import path

from . import views

app_name = "stats"

urlpatterns = [
    path("clubs/<slug:slug>/stats/players/<id:player>/", views.player_stats, name="player"),
    path(
        "clubs/<slug:slug>/stats/players/<id:player>/stats.csv",
        views.player_csv,
        name="player_csv",
    ),
    path("clubs/<slug:slug>/rating/", views.leaderboard, name="leaderboard"),
    path(
        "clubs/<slug:slug>/rating/settings/",
        views.leaderboard_settings,
        name="leaderboard_settings",
    ),
    path("clubs/<slug:slug>/results.csv", views.club_results_csv, name="club_csv"),
    path("account/my-data.json", views.my_data, name="my_data"),
]
