import secrets

from tests.helpers import run_python


def test_the_production_settings_pass_the_deploy_check():
    result = run_python(
        "manage.py",
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        env={
            "DEBUG": "0",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "ALLOWED_HOSTS": "example.com",
        },
    )

    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout
