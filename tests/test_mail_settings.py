"""make run reads the club's SMTP settings from data/mail.env (settings.mail_environment),
and then mails the sign-in codes and resets as a hosted server does."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from prefscore.settings import email_backend, mail_environment

SMTP = "django.core.mail.backends.smtp.EmailBackend"
CONSOLE = "django.core.mail.backends.console.EmailBackend"


def test_the_file_gives_the_smtp_settings(tmp_path):
    path = tmp_path / "mail.env"
    path.write_text(
        "# the club's mailbox\n"
        "EMAIL_HOST=smtp.club.example\n"
        "export EMAIL_PORT=465\n"
        "EMAIL_HOST_PASSWORD='s3cret = yes'\n"
        "\n"
    )

    env = mail_environment({"MAIL_SETTINGS_FILE": str(path)})

    assert env["EMAIL_HOST"] == "smtp.club.example"
    assert env["EMAIL_PORT"] == "465"
    assert env["EMAIL_HOST_PASSWORD"] == "s3cret = yes"
    assert email_backend(env) == SMTP


def test_the_environment_wins_over_the_file(tmp_path):
    path = tmp_path / "mail.env"
    path.write_text("EMAIL_HOST=smtp.club.example\n")

    env = mail_environment({"MAIL_SETTINGS_FILE": str(path), "EMAIL_HOST": "smtp.other"})

    assert env["EMAIL_HOST"] == "smtp.other"


def test_without_the_file_there_is_no_mail(tmp_path):
    env = mail_environment({"MAIL_SETTINGS_FILE": str(tmp_path / "absent.env")})

    assert email_backend(env) == CONSOLE


@pytest.mark.parametrize("line", ["SECRET_KEY=stolen", "EMAIL_HOST smtp.club.example"])
def test_a_line_that_is_not_a_mail_setting_is_refused_with_its_number(tmp_path, line):
    path = tmp_path / "mail.env"
    path.write_text(f"EMAIL_HOST=smtp.club.example\n{line}\n")

    with pytest.raises(ImproperlyConfigured, match="line 2"):
        mail_environment({"MAIL_SETTINGS_FILE": str(path)})
