from django.urls import path

from . import views

app_name = "public"

urlpatterns = [
    path("clubs/<slug:slug>/results/", views.club, name="club"),
    path("clubs/<slug:slug>/results/card.png", views.card, name="card"),
    path("clubs/<slug:slug>/results/settings/", views.settings, name="settings"),
]
