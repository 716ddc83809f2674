"""Sign-ins approved by a person (prefscore/clubs/approvals.py): the waiting device's
check, and the page where the account itself, a club admin or the owner approves."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods, require_POST

from prefscore.web.htmx import HtmxHttpRequest, invalid_status, redirect_to, render_page

from . import approvals, names
from .account_views import safe_next


@require_POST
def login_approval(request: HtmxHttpRequest) -> HttpResponse:
    """The waiting device asks whether a person approved it (htmx every few seconds, or
    its button): signed in and on to ``next`` once approved."""
    outcome = approvals.complete(request)
    if outcome == approvals.WAITING:
        if request.htmx:
            return HttpResponse(status=204)  # nothing yet: the page stays as it is
        messages.info(request, _("Not approved yet. Ask again once it is."))
        return redirect_to(request, reverse("login_code") + _next_query(request))
    if outcome == approvals.ENDED:
        if request.htmx:  # the waiting page, asking by itself: on to signing in again
            return redirect_to(request, reverse("login") + _next_query(request))
        context = {"next": safe_next(request)}
        return render_page(request, "registration/signin_ended.html", context)
    login(request, outcome, backend=settings.AUTHENTICATION_BACKENDS[0])
    return redirect_to(request, safe_next(request))


def _next_query(request: HtmxHttpRequest) -> str:
    target = request.POST.get("next", "")
    return f"?next={target}" if target and target == safe_next(request) else ""


class ApproveForm(forms.Form):
    code = forms.CharField(
        label=_("The code the new device shows"),
        max_length=12,
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def signin_approvals(request: HtmxHttpRequest) -> HttpResponse:
    """The sign-ins waiting for this person: his own account's, his club members' (an
    admin), everyone's (the owner); approved by typing the device's code."""
    user: Any = request.user
    form = ApproveForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        row = approvals.approve(user, form.cleaned_data["code"])
        if row is not None:
            who = names.isolate(names.display_name(row.user))
            messages.success(
                request, _("Approved: %(name)s now signs in on that device.") % {"name": who}
            )
            return redirect_to(request, reverse("signin_approvals"))
        form.add_error("code", _("No sign-in you may approve is waiting with this code."))
    rows = approvals.approvable_by(user).select_related("user").order_by("created_at")
    context = {"form": form, "rows": list(rows), "me": user.pk}
    status = invalid_status(request) if form.errors else 200
    return render_page(request, "registration/signin_approvals.html", context, status=status)


@login_required
@require_POST
def refuse_signin(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Refuse one waiting sign-in: "this is not me", or not a member the admin knows."""
    if not approvals.refuse(request.user, pk):
        raise Http404
    messages.success(request, _("Refused: that device does not sign in."))
    return redirect_to(request, reverse("signin_approvals"))
