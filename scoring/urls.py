"""The player pages of conventions, under /conventions/ (prefscore/urls.py)."""

from django.urls import path

from . import views

app_name = "conventions"

# "compare" comes before the slug pattern; no convention may take it as a slug.
urlpatterns = [
    path("", views.convention_list, name="list"),
    path("compare/", views.compare, name="compare"),
    path("<slug:slug>/", views.convention_detail, name="detail"),
]
