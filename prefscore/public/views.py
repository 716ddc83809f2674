"""A club's public results page, its card and its settings (docs/design.md, "Sharing a
result"). The page is the club's members' until an admin makes it public; then anyone's,
with its card in a chat's preview. Its robots rule is the club's (meta robots and
``X-Robots-Tag``): search engines stay out unless the admin lets them in."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from prefscore.clubs.models import Club
from prefscore.clubs.permissions import ADMINS, club_and_role_for
from prefscore.games.views.sharing import card_response
from prefscore.web.htmx import HtmxHttpRequest, redirect_to, render_page

from . import presenters


def _readable(request: HtmxHttpRequest, slug: str) -> tuple[Club, str | None] | HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    role = club.role_of(request.user)
    if role is None and not club.public_page:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        raise PermissionDenied(_("You may not do this in this club."))
    return club, role


@require_safe
def club(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    found = _readable(request, slug)
    if isinstance(found, HttpResponse):
        return found
    shown, role = found
    page = presenters.club_page(shown)
    response = render_page(
        request, "public/club.html", presenters.context(request, shown, page, role)
    )
    response["X-Robots-Tag"] = presenters.robots(shown)
    if shown.public_page and not request.user.is_authenticated:
        # Nobody's own view of it: a stranger's browser or a proxy may keep it a minute.
        # Anyone signed in gets PrivateCacheMiddleware's "private, no-store".
        patch_cache_control(response, public=True, max_age=presenters.SECONDS)
    return response


@require_safe
def card(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    found = _readable(request, slug)
    if isinstance(found, HttpResponse):
        return found
    shown, _role = found
    response = card_response(
        request, presenters.club_card(presenters.club_page(shown)), public=shown.public_page
    )
    response["X-Robots-Tag"] = presenters.robots(shown)
    return response


@login_required
@require_POST
def settings(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """An admin makes the page public (``public=1``) or the members' again, and lets search
    engines index it (``index=1``) or not."""
    found, _role = club_and_role_for(request, slug, roles=ADMINS)
    found.public_page = request.POST.get("public") == "1"
    found.search_engines = found.public_page and request.POST.get("index") == "1"
    found.save(update_fields=["public_page", "search_engines"])
    return redirect_to(request, reverse("public:club", args=[found.slug]))
