"""The one-time code a challenged sign-in asks for (prefscore/clubs/ratelimit.py).

A challenged attempt gets the same answer whether or not its password was right: a code
is "mailed if the password was right", and the pending challenge is kept in the
session (the database's, so the code's digest never leaves the server) either way. Only
a right password for an account with an email address mails a real code; any other
challenge can never be met, and its tries are counted all the same. A code is 8 digits,
lasts ``SIGNIN_CODE_MINUTES`` and allows ``SIGNIN_CODE_TRIES`` tries; after that the
person signs in again with the password, which mails a new one (and the mail queue limits
the mails an address receives, prefscore/clubs/mail_queue.py).
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import send_mail
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from . import mail_queue, ratelimit

SESSION_KEY = "signin_challenge"
# What verify() answers besides a user.
NONE_PENDING, EXPIRED, WRONG = "none", "expired", "wrong"


def _digest(salt: str, code: str) -> str:
    return salted_hmac(f"prefscore.signin-code.{salt}", code).hexdigest()


def start(request: HttpRequest, challenge: ratelimit.Challenge, username: str) -> None:
    """Keep a pending challenge in the session; mail its code when the password was right."""
    code = f"{secrets.randbelow(10**8):08d}"
    salt = secrets.token_hex(8)
    user = challenge.user
    reachable = user is not None and bool(user.email)
    lifetime = settings.SIGNIN_CODE_MINUTES * 60
    request.session[SESSION_KEY] = {
        "user": user.pk if reachable else None,
        "username": username,
        "salt": salt,
        "digest": _digest(salt, code),
        "expires": timezone.now().timestamp() + lifetime,
        "tries": 0,
    }
    # One job queued either way: a right password is not told by the time it takes.
    mail_queue.defer(
        "signin_code",
        to=user.email if reachable else "",
        user=user.pk if reachable else None,
        code=code if reachable else "",
        language=get_language(),
    )


@mail_queue.composes("signin_code")
def mail_code(params: dict[str, Any]) -> None:
    """The code's mail, composed after the response (mail_queue.py); none for a wrong password."""
    user = get_user_model().objects.filter(pk=params["user"]).first()
    if params["user"] is None or user is None or not user.email:
        return
    context = {"user": user, "code": params["code"], "minutes": settings.SIGNIN_CODE_MINUTES}
    with translation.override(params["language"]):
        send_mail(
            _("Your prefscore sign-in code"),
            render_to_string("registration/signin_code_email.txt", context),
            settings.DEFAULT_FROM_EMAIL,
            [user.email],
            fail_silently=True,
        )


def verify(request: HttpRequest, code: str) -> Any:
    """The account the code opens (its address now trusted), else why not."""
    challenge = request.session.get(SESSION_KEY)
    if not challenge:
        return NONE_PENDING
    expired = challenge["expires"] < timezone.now().timestamp()
    if expired or challenge["tries"] >= settings.SIGNIN_CODE_TRIES:
        del request.session[SESSION_KEY]
        return EXPIRED
    code = "".join(code.split())
    right = constant_time_compare(_digest(challenge["salt"], code), challenge["digest"])
    if challenge["user"] is None or not right:
        challenge["tries"] += 1
        request.session[SESSION_KEY] = challenge
        return WRONG
    del request.session[SESSION_KEY]
    user = get_user_model().objects.filter(pk=challenge["user"], is_active=True).first()
    if user is None:
        return EXPIRED
    ratelimit.trust(challenge["username"], ratelimit.client_address(request))
    return user
