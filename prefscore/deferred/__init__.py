"""Deferred work: what a request leaves for later, on one task library (docs/tasks.md).

Django's task API (``django.tasks`` from Django 6, the ``django-tasks`` backport on 5.2)
with ``django-tasks-db``'s backend: a task is a row of our own database, SQLite on a
club's laptop or PostgreSQL with several workers, and the worker runs it.
"""
