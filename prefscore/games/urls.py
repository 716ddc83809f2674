from django.urls import path

from .views import (
    abandon,
    calculator,
    corrections,
    events,
    io,
    join,
    settlement,
    sharing,
    sheet,
    spectator,
)
from .views import manual as manual_views

app_name = "games"

# Every view module defines the names used here; see each module's docstring.
urlpatterns = [
    path("pulkas/<id:pk>/", sheet.sheet_page, name="sheet"),
    path("pulkas/<id:pk>/poll/", sheet.poll, name="poll"),
    # The change signal (views/events.py, streams.py): under ASGI only; its path mirrors the poll's.
    path("pulkas/<id:pk>/events/", events.sheet_events, name="events"),
    path("pulkas/<id:pk>/deals/", sheet.record, name="record"),
    path("pulkas/<id:pk>/deals/<id:number>/pencil/", sheet.pencil, name="pencil"),
    path("pulkas/<id:pk>/deals/<id:number>/correct/", corrections.correct, name="correct"),
    path("pulkas/<id:pk>/deals/<id:number>/arbiter/", corrections.arbiter, name="arbiter"),
    path("pulkas/<id:pk>/forgotten/", corrections.propose, name="propose"),
    path("pulkas/<id:pk>/forgotten/<id:proposal>/answer/", corrections.answer, name="answer"),
    path("pulkas/<id:pk>/audit/", corrections.audit_page, name="audit"),
    path("pulkas/<id:pk>/abandon/", abandon.abandon, name="abandon"),
    path(
        "pulkas/<id:pk>/abandon/<id:abandonment>/answer/",
        abandon.abandon_answer,
        name="abandon_answer",
    ),
    path("pulkas/<id:pk>/settlement/", settlement.settlement_page, name="settlement"),
    path("pulkas/<id:pk>/export.json", io.export, name="export"),
    path("clubs/<slug:slug>/pulkas/new/", io.new_pulka, name="new"),
    path("clubs/<slug:slug>/pulkas/import/", io.import_pulka, name="import"),
    path("calculator/", calculator.calculator, name="calculator"),
    # A table's join link and spectator link (views/join.py, views/spectator.py;
    # docs/design.md, "Joining a table, and watching it").
    path("join/<str:token>/", join.join, name="join"),
    path("pulkas/<id:pk>/join-link/", join.rotate_join, name="rotate_join"),
    path("pulkas/<id:pk>/spectator-link/", join.spectator_link, name="spectator_link"),
    path("watch/<str:token>/", spectator.watch, name="watch"),
    path("watch/<str:token>/poll/", spectator.watch_poll, name="watch_poll"),
    path("watch/<str:token>/events/", events.watch_events, name="watch_events"),
    path("watch/<str:token>/settlement/", sharing.watch_settlement, name="watch_settlement"),
    # A finished pulka's result card, and its result made public (views/sharing.py;
    # docs/design.md, "Sharing a result").
    path("pulkas/<id:pk>/card.png", sharing.card, name="card"),
    path("pulkas/<id:pk>/result-link/", sharing.result_link, name="result_link"),
    path("results/<str:token>/", sharing.result, name="result"),
    path("results/<str:token>/card.png", sharing.result_card, name="result_card"),
    # Manual entries on the sheet (docs/rules.md §3.11; views/manual.py).
    path("pulkas/<id:pk>/manual/", manual_views.manual_entry, name="manual"),
    path("pulkas/<id:pk>/manual/<id:number>/", manual_views.manual_correct, name="manual_correct"),
]
