"""The page the owner link opens: it makes the server's owner (prefscore/clubs/owner.py)."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth.forms import UserCreationForm
from django.http import HttpResponse
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.views.decorators.debug import sensitive_post_parameters, sensitive_variables
from django.views.decorators.http import require_http_methods

from prefscore.web.htmx import HtmxHttpRequest, invalid_status, redirect_to, render_page

from . import owner, ratelimit
from .account_views import DisplayNameField


class OwnerForm(UserCreationForm):
    """The owner's username, name at the table, email if he has one, password twice."""

    first_name = DisplayNameField()
    email = forms.EmailField(
        label=_("Email (optional)"),
        max_length=254,
        required=False,
        help_text=_("For a link if you forget your password, where the server can send mail."),
    )

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "first_name", "email")

    def clean_email(self) -> str:
        return get_user_model().objects.normalize_email(self.cleaned_data.get("email") or "")


def used_page(request: HtmxHttpRequest) -> HttpResponse:
    """An unknown, used or ended link: one page for all, which says what to do."""
    return render_page(request, "registration/owner_link_used.html", {}, status=404)


@sensitive_variables("token")
@sensitive_post_parameters("password1", "password2")
@require_http_methods(["GET", "HEAD", "POST"])
def owner_setup(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """Make the server's owner, signed in at once; then on to creating his club."""
    if not owner.link_is_live(token):
        return used_page(request)
    form = OwnerForm(request.POST or None)
    if request.method == "POST":
        if not form.is_valid():
            context = {"form": form}
            status = invalid_status(request)
            return render_page(request, "registration/owner_setup.html", context, status=status)
        user = owner.claim(token, form)
        if user is None and not form.errors:
            return used_page(request)  # someone else used the link a moment before
        if user is not None:
            ratelimit.trust(user.get_username(), ratelimit.client_address(request))
            login(request, user, backend=settings.AUTHENTICATION_BACKENDS[0])
            messages.success(request, _("This server is yours. Create your club."))
            return redirect_to(request, reverse("clubs:home") + "#create-club")
    return render_page(request, "registration/owner_setup.html", {"form": form})
