"""A club's members page, its admins' changes, and joining by an invitation link.

Every club is looked up, and who may do what is decided, in
``prefscore.clubs.permissions``. Each change answers an htmx request with the region
it changed (``clubs/members.html#members`` or ``#invitations``) and a plain form post
with a redirect back to the page (POST/redirect/GET), its outcome in a message.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from prefscore.web.htmx import HtmxHttpRequest, redirect_to, render_page
from prefscore.web.integers import request_int

from . import invitations, players, ratelimit
from .models import Club, Invitation, Membership, Player, Role
from .names import display_name, isolate
from .permissions import ADMINS, MEMBERS, RANK, club_and_role_for, may


class RoleForm(forms.Form):
    role = forms.ChoiceField(label=gettext_lazy("Role"), choices=Role.choices)


class InvitationForm(RoleForm):
    days = forms.IntegerField(label=gettext_lazy("Valid for, days"), min_value=1, max_value=30)
    guest = forms.ModelChoiceField(
        label=gettext_lazy("For the guest (optional)"),
        queryset=Player.objects.none(),
        required=False,
        empty_label=gettext_lazy("nobody: a new player"),
        help_text=gettext_lazy(
            "Only the person the link is sent to can then take that guest's place."
        ),
    )

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["guest"].queryset = players.claimable_guests(club)  # type: ignore[attr-defined]


def _members_context(request: HtmxHttpRequest, club: Club, role: str) -> dict[str, object]:
    is_admin = may(role, ADMINS)
    memberships = sorted(
        club.memberships.select_related("user"),
        key=lambda m: (-RANK[Role(m.role)], m.user.get_username().lower()),
    )
    pending = club.invitations.pending().select_related("guest") if is_admin else []
    # Every member is one of the club's players: say which, in one query.
    plays_as = dict(
        club.players.filter(user__isnull=False).values_list("user_id", "name").iterator()
    )
    return {
        "club": club,
        "role": role,
        "is_admin": is_admin,
        "memberships": [(m, plays_as.get(m.user_id, "")) for m in memberships],
        "invitations": [
            (invitation, request.build_absolute_uri(invitation_path(invitation)))
            for invitation in pending
        ],
        "role_choices": Role.choices,
        "invitation_form": InvitationForm(
            initial={"role": Role.MEMBER, "days": settings.INVITATION_DAYS}, club=club
        ),
    }


def invitation_path(invitation: Invitation) -> str:
    return reverse("members:invitation", args=[invitation.token])


def _after_change(request: HtmxHttpRequest, club: Club, role: str, region: str) -> HttpResponse:
    """The changed region for htmx, else back to the page."""
    if not request.htmx:
        return redirect_to(request, reverse("members:list", args=[club.slug]))
    return render_page(request, "clubs/members.html", _members_context(request, club, role), region)


@login_required
@require_safe
def members(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Who is in the club and with what role; for admins, the controls and invitations."""
    club, role = club_and_role_for(request, slug, roles=MEMBERS)
    return render_page(request, "clubs/members.html", _members_context(request, club, role))


@login_required
@require_POST
def change_role(request: HtmxHttpRequest, slug: str, pk: int) -> HttpResponse:
    club, role = club_and_role_for(request, slug, roles=ADMINS)
    membership = get_object_or_404(club.memberships.select_related("user"), pk=pk)
    form = RoleForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose a role: member, organiser or admin."))
    else:
        try:
            invitations.change_role(membership, form.cleaned_data["role"])
        except invitations.LastAdmin as error:
            messages.error(request, str(error))
        else:
            messages.success(
                request,
                _("%(user)s is now %(role)s.")
                % {
                    "user": isolate(display_name(membership.user)),
                    "role": membership.get_role_display(),
                },
            )
    return _after_change_of_self(request, club, role, membership)


@login_required
@require_POST
def remove_member(request: HtmxHttpRequest, slug: str, pk: int) -> HttpResponse:
    club, role = club_and_role_for(request, slug, roles=ADMINS)
    membership = get_object_or_404(club.memberships.select_related("user"), pk=pk)
    try:
        invitations.remove_member(membership)
    except invitations.LastAdmin as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request,
            _("%(user)s is no longer a member of %(club)s.")
            % {"user": isolate(display_name(membership.user)), "club": isolate(club.name)},
        )
    return _after_change_of_self(request, club, role, membership)


def _after_change_of_self(
    request: HtmxHttpRequest, club: Club, role: str, membership: Membership
) -> HttpResponse:
    """An admin who demoted or removed himself can't manage the page any more: reload it
    (or go home, no longer a member)."""
    now = club.role_of(request.user) if membership.user_id == request.user.pk else role
    if may(now, ADMINS):
        return _after_change(request, club, role, "members")
    target = reverse("members:list", args=[club.slug]) if now else reverse("clubs:home")
    return redirect_to(request, target, htmx_status=204)  # nothing to swap: the page goes


@login_required
@require_POST
def invite(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """A new invitation link, shown in the list of pending invitations."""
    club, role = club_and_role_for(request, slug, roles=ADMINS)
    form = InvitationForm(request.POST, club=club)
    if not ratelimit.allow_hourly(ratelimit.Scope.INVITE, request):
        messages.error(request, _("Too many requests from your network. Try again in an hour."))
    elif form.is_valid():
        invitations.create_invitation(
            club,
            request.user,
            form.cleaned_data["role"],
            form.cleaned_data["days"],
            form.cleaned_data["guest"],
        )
        messages.success(request, _("New invitation link: copy it and send it to the player."))
    else:
        messages.error(request, _("Choose a role, and between 1 and 30 days."))
    return _after_change(request, club, role, "invitations")


@login_required
@require_POST
def revoke(request: HtmxHttpRequest, slug: str, pk: int) -> HttpResponse:
    club, role = club_and_role_for(request, slug, roles=ADMINS)
    invitation = get_object_or_404(club.invitations, pk=pk)
    try:
        invitations.revoke(invitation)
    except invitations.InvitationGone as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("The invitation link no longer works."))
    return _after_change(request, club, role, "invitations")


@require_http_methods(["GET", "HEAD", "POST"])
def invitation(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The page an invitation link opens: sign up or in, then accept (POST), as a new
    player or as one of the club's guests ("I am Анна")."""
    try:
        found = invitations.invitation_for(token)
    except invitations.InvitationGone as error:
        return _gone(request, str(error), status=410)
    except Http404:
        return _gone(request, _("This invitation link is not known."), status=404)
    if request.method == "POST":
        return _accept(request, found)
    return render_page(request, "clubs/invite.html", _invitation_context(request, found))


def _invitation_context(
    request: HtmxHttpRequest, found: Invitation, error: str = ""
) -> dict[str, object]:
    is_member = request.user.is_authenticated and found.club.role_of(request.user) is not None
    own: Player | None = None
    guests: list[Player] = []
    if request.user.is_authenticated and not is_member:
        own, guests = invitations.seat_choices(found, request.user)
    return {
        "invitation": found,
        "club": found.club,
        "is_member": is_member,
        "own_player": own,
        "guests": guests,
        "seat_error": error,
    }


def _claimed_guest(request: HtmxHttpRequest) -> tuple[bool, int | None]:
    """(valid, the guest's pk or None for a new player) from the accept form's choice."""
    choice = request.POST.get("player", "new")
    if choice == "new":
        return True, None
    pk = request_int(choice)
    return pk is not None, pk


def _accept(request: HtmxHttpRequest, found: Invitation) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    valid, claim = _claimed_guest(request)
    if not valid:
        error = _("Choose one of the guests, or to be a new player.")
        context = _invitation_context(request, found, error)
        return render_page(request, "clubs/invite.html", context, status=400)
    try:
        membership = invitations.accept(found, request.user, claim)
    except invitations.InvitationGone as error:
        return _gone(request, str(error), status=410)
    except invitations.AlreadyMember as error:
        messages.info(request, str(error))
        return redirect_to(request, reverse("members:list", args=[found.club.slug]))
    except players.PlayersRefused as error:
        context = _invitation_context(request, found, str(error))
        return render_page(request, "clubs/invite.html", context, status=409)
    messages.success(
        request,
        _("Welcome to %(club)s: you are a %(role)s.")
        % {"club": isolate(found.club.name), "role": membership.get_role_display()},
    )
    return redirect_to(request, reverse("members:list", args=[found.club.slug]))


def _gone(request: HtmxHttpRequest, message: str, status: int) -> HttpResponse:
    return render_page(request, "clubs/invite_gone.html", {"message": message}, status=status)
