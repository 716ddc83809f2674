"""Accounts: sign up, sign in (limited), and Django's own views for the rest.

Sign out, password change and password reset are Django's views with our templates
(templates/registration/); account_urls.py wires them.
"""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm, UserCreationForm
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods

from prefscore.web.htmx import HtmxHttpRequest, invalid_status, redirect_to, render_page

from . import accounts, approvals, mail_queue, names, ratelimit, signin_codes
from .models import Player
from .name_rules import NO_LETTER, refuse_look_alike, shown_name, shows

TOO_MANY = "too_many_attempts"
TOO_MANY_REQUESTS = _("Too many requests from your network. Try again in an hour.")
CHALLENGE_MESSAGE = _(
    "Too many failed sign-in attempts on this account or from this network. If the "
    "username and password were right, this device can still sign in once a person "
    "approves it."
)
MAILED_MESSAGE = _(
    "If the account has an email address, we have also mailed it a one-time code: enter "
    "it here to sign in at once."
)


class SignInForm(AuthenticationForm):
    """Django's sign-in form; a challenged attempt (ratelimit.py) asks for a mailed code."""

    def clean(self) -> dict[str, Any]:
        try:
            return super().clean()
        except ValidationError:
            challenge = getattr(self.request, "signin_challenge", None)
            if challenge is None or self.request is None:
                raise
            username = self.cleaned_data.get("username", "")
            signin_codes.start(self.request, challenge, username)
            approvals.start(self.request, challenge, username)
            raise ValidationError(CHALLENGE_MESSAGE, code=TOO_MANY) from None


class SignInView(auth_views.LoginView):
    """Sign in; a challenged attempt answers 429 with the code form, whatever the password."""

    form_class = SignInForm

    def form_invalid(self, form: AuthenticationForm) -> HttpResponse:
        if form.has_error(NON_FIELD_ERRORS, TOO_MANY):
            request = cast(HtmxHttpRequest, self.request)
            return code_page(request, CodeForm(), self.get_redirect_url(), status=429)
        return super().form_invalid(form)


class CodeForm(forms.Form):
    code = forms.CharField(
        label=_("Code from the email"),
        max_length=20,
        widget=forms.TextInput(attrs={"autocomplete": "one-time-code", "inputmode": "numeric"}),
    )


def code_page(
    request: HtmxHttpRequest, form: CodeForm, next_url: str, status: int = 200
) -> HttpResponse:
    """The challenged sign-in's page: this device's code for a person to approve it and,
    where the server has mail, the mailed code's field (prefscore/clubs/approvals.py)."""
    context = {
        "form": form,
        "next": next_url,
        "message": CHALLENGE_MESSAGE,
        "mailed_message": MAILED_MESSAGE,
        "mail": settings.MAIL_CONFIGURED,
        "approval_code": _spaced(approvals.pending_code(request)),
    }
    return render_page(request, "registration/signin_code.html", context, status=status)


def _spaced(code: str | None) -> str | None:
    """123 456: six digits read out in two halves."""
    return f"{code[:3]} {code[3:]}" if code else None


@sensitive_post_parameters("code")
@require_http_methods(["GET", "HEAD", "POST"])
def sign_in_code(request: HtmxHttpRequest) -> HttpResponse:
    """The mailed code of a challenged sign-in; then signed in and on to ``next``."""
    form = CodeForm(request.POST or None)
    if request.method != "POST":
        return code_page(request, form, safe_next(request))
    if not form.is_valid():
        return code_page(request, form, safe_next(request), status=invalid_status(request))
    outcome = signin_codes.verify(request, form.cleaned_data["code"])
    if outcome == signin_codes.WRONG:
        form.add_error("code", _("That code is not the one we mailed."))
        return code_page(request, form, safe_next(request), status=invalid_status(request))
    if isinstance(outcome, str):  # expired, used up or gone: start again with the password
        form.add_error(None, _("The code has expired. Sign in again to get a new one."))
        return code_page(request, form, safe_next(request), status=429)
    login(request, outcome, backend=settings.AUTHENTICATION_BACKENDS[0])
    return redirect_to(request, safe_next(request))


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
        return shown_name(super().clean(value) or "")


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

    def clean_username(self) -> str:
        username = str(super().clean_username() or "")
        if username and not shows(username):  # Django's \w takes a Hangul filler for a letter
            raise forms.ValidationError(NO_LETTER, code="no_letter")
        return username

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
    if request.method == "POST" and not ratelimit.allow_hourly(ratelimit.Scope.SIGNUP, request):
        form.add_error(None, TOO_MANY_REQUESTS)
        context = {"form": form, "next": safe_next(request)}
        return render_page(request, "registration/signup.html", context, status=429)
    if request.method == "POST" and form.is_valid():
        user = accounts.create_account(form, request)
        if user is not None:
            # Signed up from here: this address is the account's own, as after a sign-in.
            ratelimit.trust(user.get_username(), ratelimit.client_address(request))
            login(request, user, backend=settings.AUTHENTICATION_BACKENDS[0])
            return redirect_to(request, safe_next(request))
    context = {"form": form, "next": safe_next(request)}
    return render_page(request, "registration/signup.html", context)


class PasswordResetView(auth_views.PasswordResetView):
    """Django's reset, limited per address. The request only queues the job (mail_queue.py):
    whether the email has an account is looked up after the response, so the answer
    takes as long for a registered email as for any other."""

    def form_valid(self, form: PasswordResetForm) -> HttpResponse:
        if not ratelimit.allow_hourly(ratelimit.Scope.RESET, self.request):
            form.add_error(None, TOO_MANY_REQUESTS)
            return self.render_to_response(self.get_context_data(form=form), status=429)
        email = form.cleaned_data["email"]
        mail_queue.defer(
            "password_reset",
            to=email,
            email=email,
            domain=self.request.get_host(),
            use_https=self.request.is_secure(),
            language=get_language(),
        )
        return redirect_to(cast(HtmxHttpRequest, self.request), str(self.get_success_url()))


class SignOutView(auth_views.LogoutView):
    """Django's sign-out, telling the browser to forget the pages it kept for this person,
    so that the next person on a shared tablet finds none of them. Only "cache": the
    service worker (templates/offline/sw.js, served at /sw.js) drops this account's
    offline copies when it sees the signed-out page, while the outbox's unsent entries
    stay (docs/design.md, "Never lose a deal"): they are this account's, and go when it
    signs in again."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = super().post(request, *args, **kwargs)
        response.headers["Clear-Site-Data"] = '"cache"'
        return response


class DisplayNameForm(forms.Form):
    first_name = DisplayNameField()

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_first_name(self) -> str:
        """Not a name that passes for another player of the account's clubs."""
        name = str(self.cleaned_data["first_name"] or "")
        if name:
            others = Player.objects.filter(club__memberships__user=self.user).exclude(
                user=self.user
            )
            refuse_look_alike(name, others.only("name"))
        return name


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def display_name(request: HtmxHttpRequest) -> HttpResponse:
    """The account's name at the table: shown wherever it is named; a new club's player
    takes it (clubs/players.py ``ensure_player``). Players already seated keep theirs."""
    user: Any = request.user  # signed in (login_required): the account itself
    form = DisplayNameForm(request.POST or None, initial={"first_name": user.first_name}, user=user)
    if request.method == "POST" and form.is_valid():
        user.first_name = form.cleaned_data["first_name"]
        user.save(update_fields=["first_name"])
        messages.success(
            request,
            _("Saved: the table now calls you %(name)s.")
            % {"name": names.isolate(names.display_name(user))},
        )
        return redirect_to(request, reverse("display_name"))
    return render_page(request, "registration/display_name.html", {"form": form})
