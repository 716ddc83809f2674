"""Usernames and emails unique whatever their case, in the database itself.

Sign-up forms check this too, but two sign-ups at the same instant both pass the
form's check; only the database can refuse the second (prefscore/clubs/accounts.py).
Accounts that already share an email keep it on the oldest one; the others' email is
emptied (they can set it again once it is theirs alone).
"""

from django.db import migrations

INDEXES = (
    ("auth_user_email_lower_unique", "lower(email)", "WHERE email <> ''"),
    ("auth_user_username_lower_unique", "lower(username)", ""),
)


def empty_repeated_emails(apps, schema_editor):
    User = apps.get_model("auth", "User")
    seen = set()
    for user in User.objects.exclude(email="").order_by("pk").iterator():
        key = user.email.lower()
        if key in seen:
            User.objects.filter(pk=user.pk).update(email="")
        seen.add(key)


def create_indexes(apps, schema_editor):
    for name, expression, where in INDEXES:
        schema_editor.execute(f"CREATE UNIQUE INDEX {name} ON auth_user ({expression}) {where}")


def drop_indexes(apps, schema_editor):
    for name, _, _ in INDEXES:
        schema_editor.execute(f"DROP INDEX {name}")


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("clubs", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(empty_repeated_emails, migrations.RunPython.noop),
        migrations.RunPython(create_indexes, drop_indexes),
    ]
