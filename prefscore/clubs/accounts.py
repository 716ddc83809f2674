"""Creating an account from the sign-up form, safe against races and silent about emails.

The sign-up page answers the same whether or not an email address is registered: an
address that already belongs to an account is not given to the new one, and its owner
is mailed instead (someone may be trying to find out who plays here, or the owner has
forgotten his account). The database keeps usernames and emails unique whatever their
case (clubs migration ``unique_email_and_username_ignoring_case``), so two sign-ups
racing each other give one account and a message to the other, never a 500.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _


def email_taken(email: str) -> Any:
    """The account that already has this address, ignoring case, or None."""
    if not email:
        return None
    return get_user_model().objects.filter(email__iexact=email).first()


def create_account(form: UserCreationForm, request: HttpRequest) -> Any:
    """The new account, or None with the reason added to the form."""
    owner = email_taken(form.cleaned_data.get("email", ""))
    user = _save(form, keep_email=owner is None)
    if user is None and owner is None:
        # The email was claimed meanwhile by a concurrent sign-up: treat it as taken.
        owner = email_taken(form.cleaned_data.get("email", ""))
        if owner is not None:
            user = _save(form, keep_email=False)
    if user is not None and owner is not None:
        tell_the_owner(owner, form.cleaned_data["email"], user, request)
    return user


def _save(form: UserCreationForm, keep_email: bool) -> Any:
    user = form.save(commit=False)
    if not keep_email:
        user.email = ""
    try:
        with transaction.atomic():
            user.save()
    except IntegrityError:
        if get_user_model().objects.filter(username__iexact=user.get_username()).exists():
            form.add_error("username", _("A user with that username already exists."))
        return None
    return user


def tell_the_owner(owner: Any, email: str, newcomer: Any, request: HttpRequest) -> None:
    """Mail the address's owner that someone signed up with it."""
    context = {
        "owner": owner,
        "newcomer": newcomer.get_username(),
        "sign_in": request.build_absolute_uri(reverse("login")),
        "reset": request.build_absolute_uri(reverse("password_reset")),
    }
    send_mail(
        _("Someone signed up at prefscore with your email address"),
        render_to_string("registration/email_in_use_email.txt", context, request=request),
        settings.DEFAULT_FROM_EMAIL,
        [email],
        fail_silently=True,  # the page must look the same whether or not mail goes out
    )
