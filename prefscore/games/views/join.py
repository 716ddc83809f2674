"""Joining a table by its link, and changing a table's links.

``join`` is what the link and its QR code open: a member of the club goes on to the
sheet; anyone else is asked to sign in or sign up (and comes back here), then to ask for
membership, which a club admin approves on the members page. ``rotate_join`` and
``spectator_link`` are the panel's buttons, for the club's admins and the players at
the table (docs/design.md, "Joining a table, and watching it").
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from prefscore.clubs import membership_requests
from prefscore.clubs.invitations import AlreadyMember
from prefscore.clubs.models import MembershipRequest
from prefscore.web.htmx import HtmxHttpRequest, redirect_to, render_page

from .. import joining
from ..access import pulka_for
from ..models import Pulka
from ..seating import Seating


def _gone(request: HtmxHttpRequest) -> HttpResponse:
    """A join link that no longer works (changed, or never was): a page that says so."""
    return render_page(request, "games/join_gone.html", {}, status=404)


@require_http_methods(["GET", "HEAD", "POST"])
def join(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The join link: the sheet for a member; sign in, then ask to join, for anyone else."""
    pulka = joining.pulka_for_join(token)
    if pulka is None:
        return _gone(request)
    club = pulka.club
    if club.role_of(request.user) is not None:
        return redirect_to(request, reverse("games:sheet", args=[pulka.pk]))
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.path)
        return _ask(request, pulka)
    here = request.path
    latest = membership_requests.latest_of(club, request.user)
    context = {
        "club": club,
        "here": here,
        "login_url": f"{reverse('login')}?{urlencode({'next': here})}",
        "signup_url": f"{reverse('signup')}?{urlencode({'next': here})}",
        "pending": latest is not None and latest.status == MembershipRequest.Status.PENDING,
        "declined": latest is not None and latest.status == MembershipRequest.Status.DECLINED,
    }
    return render_page(request, "games/join.html", context)


def _ask(request: HtmxHttpRequest, pulka: Pulka) -> HttpResponse:
    try:
        membership_requests.ask(pulka.club, request.user)
    except AlreadyMember:
        return redirect_to(request, reverse("games:sheet", args=[pulka.pk]))
    except membership_requests.RequestRefused as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request,
            _(
                "Your request is sent. Once an admin of %(club)s approves it, this link opens the table."
            )
            % {"club": pulka.club.name},
        )
    return redirect_to(request, request.path)


class Refused(Exception):
    """A member of the club may not make this change; the message says why."""


def _managed(request: HtmxHttpRequest, pk: int) -> Pulka:
    """The pulka, if the user may change its links: a club admin or a player at the table.

    404/403 (``pulka_for``) for anyone outside the club; Refused for a member who may not.
    """
    pulka = pulka_for(request, pk)
    role = pulka.club.role_of(request.user)
    if not joining.may_manage_links(pulka, request.user, role, Seating.of(pulka)):
        raise Refused(_("Only the players at this table and the club's admins change its links."))
    return pulka


def _refuse(request: HtmxHttpRequest, pulka: Pulka | None, message: str) -> HttpResponse:
    """403: the panel again with the reason for htmx (the table's script swaps a 403 in),
    the styled error page without it."""
    if not request.htmx or pulka is None:
        raise PermissionDenied(message)
    context = {"pulka": pulka, "join_notice": message}
    return render_page(request, "games/_join.html", context, status=403)


def _back_to_panel(request: HtmxHttpRequest, pulka: Pulka) -> HttpResponse:
    """The panel again, unfolded: in place for htmx, else the sheet page at the panel.

    Not ``HX-Redirect`` to the sheet: an address that differs from the page's only by
    its ``#join`` would scroll, not reload, and the panel would show the old links.
    """
    if request.htmx:
        return render_page(request, "games/_join.html", {"pulka": pulka})
    url = reverse("games:sheet", args=[pulka.pk])
    return redirect_to(request, f"{url}?links=open#join")


@login_required
@require_POST
def rotate_join(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """A new join link: the old one, and its printed or shared QR code, stop working."""
    try:
        pulka = _managed(request, pk)
    except Refused as error:
        return _refuse(request, pulka_for(request, pk), str(error))
    joining.rotate_join_code(pulka, request.user)
    return _back_to_panel(request, pulka)


@login_required
@require_POST
def spectator_link(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """``action=open``: a new spectator link (the old one stops); ``revoke``: none."""
    try:
        pulka = _managed(request, pk)
    except Refused as error:
        return _refuse(request, pulka_for(request, pk), str(error))
    action = request.POST.get("action")
    if action == "revoke":
        joining.revoke_spectator_link(pulka, request.user)
    elif action == "open":
        try:
            joining.open_spectator_link(pulka, request.user)
        except joining.SpectatorsOff:
            return _refuse(request, pulka, _("The club has switched spectator links off."))
    else:
        return render_page(request, "errors/400.html", {}, status=400)
    return _back_to_panel(request, pulka)
