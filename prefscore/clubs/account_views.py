"""Accounts: sign up, sign in (limited), and Django's own views for the rest.

Sign out, password change and password reset are Django's views with our templates
(templates/registration/); account_urls.py wires them.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.http import HttpResponse
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext_lazy as _
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods

from prefscore.web import HtmxHttpRequest, redirect_to, render_page

from . import accounts, names, ratelimit
from .names import normalise_name

TOO_MANY = "too_many_attempts"


class SignInForm(AuthenticationForm):
    """Django's sign-in form that says how long to wait once the limit is reached."""

    def clean(self) -> dict[str, Any]:
        username = self.cleaned_data.get("username")
        wait = ratelimit.wait_minutes(username, ratelimit.client_address(self.request))
        if wait:
            # "min." reads right after any number, in both languages: no plural forms.
            raise ValidationError(
                _("Too many failed sign-in attempts. Try again in %(minutes)d min."),
                code=TOO_MANY,
                params={"minutes": wait},
            )
        return super().clean()


class SignInView(auth_views.LoginView):
    form_class = SignInForm

    def form_invalid(self, form: AuthenticationForm) -> HttpResponse:
        response = super().form_invalid(form)
        if form.has_error(NON_FIELD_ERRORS, TOO_MANY):
            response.status_code = 429
        return response


class DisplayNameField(forms.CharField):
    """The name the table knows you by (clubs/names.py ``display_name``)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(
            label=_("Your name at the table"),
            max_length=60,  # a player's name (clubs/players.py NAME_LENGTH)
            required=False,
            help_text=_(
                "How the other players see you on the sheet: Vera, Boris M. Your username "
                "if left empty."
            ),
            **kwargs,
        )

    def clean(self, value: Any) -> str:
        return normalise_name(super().clean(value) or "")


class SignUpForm(UserCreationForm):
    """Username, the name at the table, email (for password resets) and the password
    twice, checked by AUTH_PASSWORD_VALIDATORS."""

    first_name = DisplayNameField()

    email = forms.EmailField(
        label=_("Email"),
        max_length=254,
        # The hint says what the field is: required (a reset link needs an address).
        help_text=_("Required. Used only to send you a link if you forget your password."),
    )

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "first_name", "email")

    def clean_email(self) -> str:
        # A registered address is not refused here: that would tell anyone who plays
        # here. accounts.create_account keeps it from the new account and mails its owner.
        return get_user_model().objects.normalize_email(self.cleaned_data["email"])


def safe_next(request: HtmxHttpRequest) -> str:
    """Where to go after signing up: ``next`` when it stays on this site, else home."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return str(settings.LOGIN_REDIRECT_URL)


@sensitive_post_parameters("password1", "password2")
@require_http_methods(["GET", "HEAD", "POST"])
def signup(request: HtmxHttpRequest) -> HttpResponse:
    """Create an account and sign in with it; then on to ``next`` (an invitation, say)."""
    if request.user.is_authenticated:
        return redirect_to(request, safe_next(request))
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = accounts.create_account(form, request)
        if user is not None:
            login(request, user, backend=settings.AUTHENTICATION_BACKENDS[0])
            return redirect_to(request, safe_next(request))
    context = {"form": form, "next": safe_next(request)}
    return render_page(request, "registration/signup.html", context)


class DisplayNameForm(forms.Form):
    first_name = DisplayNameField()


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def display_name(request: HtmxHttpRequest) -> HttpResponse:
    """The account's name at the table: shown wherever it is named; a new club's player
    takes it (clubs/players.py ``ensure_player``). Players already seated keep theirs."""
    user: Any = request.user  # signed in (login_required): the account itself
    form = DisplayNameForm(request.POST or None, initial={"first_name": user.first_name})
    if request.method == "POST" and form.is_valid():
        user.first_name = form.cleaned_data["first_name"]
        user.save(update_fields=["first_name"])
        messages.success(
            request,
            _("Saved: the table now calls you %(name)s.") % {"name": names.display_name(user)},
        )
        return redirect_to(request, reverse("display_name"))
    return render_page(request, "registration/display_name.html", {"form": form})
