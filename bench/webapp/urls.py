"""prefscore's URLs plus a bare view: the baseline both benches measure against."""

from django.http import HttpRequest, HttpResponse
from django.urls import include, path


def bare(request: HttpRequest) -> HttpResponse:
    """A view that does nothing: what the middleware and the server cost alone."""
    return HttpResponse("ok", content_type="text/plain")


urlpatterns = [
    path("bench/bare/", bare),
    path("", include("prefscore.urls")),
]
