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
from django.utils import translation
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from . import mail_queue


def email_taken(email: str) -> Any:
    """The account that already has this address, ignoring case, or None."""
    if not email:
        return None
    return get_user_model().objects.filter(email__iexact=email).first()


def create_account(form: UserCreationForm, request: HttpRequest) -> Any:
    """The new account, or None with the reason added to the form.

    Every sign-up queues the "your email is in use" job, taken email or not: the
    sender looks the owner up after the response (:func:`tell_the_owner`), so the
    request does the same work whatever the email (prefscore/clubs/mail_queue.py).
    """
    owner = email_taken(form.cleaned_data.get("email", ""))
    user = _save(form, keep_email=owner is None)
    if user is None and owner is None:
        # The email was claimed meanwhile by a concurrent sign-up: treat it as taken.
        owner = email_taken(form.cleaned_data.get("email", ""))
        if owner is not None:
            user = _save(form, keep_email=False)
    if user is not None and form.cleaned_data.get("email"):
        mail_queue.defer(
            "email_in_use",
            to=form.cleaned_data["email"],
            email=form.cleaned_data["email"],
            newcomer=user.pk,
            sign_in=request.build_absolute_uri(reverse("login")),
            reset=request.build_absolute_uri(reverse("password_reset")),
            language=get_language(),
        )
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


@mail_queue.composes("email_in_use")
def tell_the_owner(params: dict[str, Any]) -> None:
    """Mail the address's owner that someone else signed up with it, if someone did."""
    owner = email_taken(params["email"])
    newcomer = get_user_model().objects.filter(pk=params["newcomer"]).first()
    if owner is None or newcomer is None or owner.pk == newcomer.pk:
        return  # the email was free: the newcomer has it now
    context = {
        "owner": owner,
        "newcomer": newcomer.get_username(),
        "sign_in": params["sign_in"],
        "reset": params["reset"],
    }
    with translation.override(params["language"]):
        send_mail(
            _("Someone signed up at prefscore with your email address"),
            render_to_string("registration/email_in_use_email.txt", context),
            settings.DEFAULT_FROM_EMAIL,
            [params["email"]],
            fail_silently=True,
        )
