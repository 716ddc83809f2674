"""The tasks in the admin: what runs, what waits for a retry, and what failed, with its
error (docs/tasks.md §3). The server's owner looks here when something did not happen.

The library registers an admin of its own, in English only: it is replaced by this one,
worded in both languages, on :class:`TaskRecord` (the library's rows). Each task is
named in words where its module gave it some (``titles.titled``); a failed one may be
tried again, with its full count of tries, once what made it fail is mended (an SMTP
server's settings, a full disk).
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from django_tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from prefscore.admin_words import WordedAdmin

from .models import TaskRecord
from .titles import TITLES

if admin.site.is_registered(DBTaskResult):
    admin.site.unregister(DBTaskResult)

STATES = {
    "waiting": _("Waiting to run"),
    "retrying": _("Waiting for another try"),
    "running": _("Running now"),
    "done": _("Done"),
    "failed": _("Failed"),
}


def state_of(row: DBTaskResult[..., Any]) -> str:
    if row.status == TaskResultStatus.READY:
        return "retrying" if row.traceback else "waiting"
    if row.status == TaskResultStatus.RUNNING:
        return "running"
    return "done" if row.status == TaskResultStatus.SUCCESSFUL else "failed"


class StateFilter(admin.SimpleListFilter):
    title = _("state")
    parameter_name = "state"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return list(STATES.items())

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        ready = queryset.filter(status=TaskResultStatus.READY)
        return {
            "waiting": ready.filter(traceback=""),
            "retrying": ready.exclude(traceback=""),
            "running": queryset.filter(status=TaskResultStatus.RUNNING),
            "done": queryset.filter(status=TaskResultStatus.SUCCESSFUL),
            "failed": queryset.filter(status=TaskResultStatus.FAILED),
        }.get(self.value() or "", queryset)


@admin.register(TaskRecord)
class TaskRecordAdmin(WordedAdmin):
    list_display = ["name", "state", "tries", "queued", "finished", "error"]
    list_filter = [StateFilter]
    actions = ["try_again"]
    ordering = ["-enqueued_at"]
    readonly_fields = [
        "name",
        "state",
        "tries",
        "queued",
        "started",
        "finished",
        "arguments",
        "details",
    ]
    fields = ("name", "state", "tries", "queued", "started", "finished", "arguments", "details")
    search_fields = ["task_path"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_retry_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_superuser)

    @admin.action(description=_("Try the failed tasks again now"), permissions=["retry"])
    def try_again(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        again = queryset.filter(status=TaskResultStatus.FAILED).update(
            status=TaskResultStatus.READY, run_after=timezone.now(), worker_ids=[]
        )
        self.message_user(
            request,
            ngettext(
                "%(count)d task will be tried again.",
                "%(count)d tasks will be tried again.",
                again,
            )
            % {"count": again},
        )

    @admin.display(description=_("task"))
    def name(self, row: TaskRecord) -> str:
        return str(TITLES.get(row.task_path) or row.task_path.rsplit(".", 1)[-1])

    @admin.display(description=_("state"))
    def state(self, row: TaskRecord) -> str:
        return str(STATES[state_of(row)])

    @admin.display(description=_("tries"))
    def tries(self, row: TaskRecord) -> int:
        return len(row.worker_ids)

    @admin.display(description=_("queued at"), ordering="enqueued_at")
    def queued(self, row: TaskRecord) -> Any:
        return row.enqueued_at

    @admin.display(description=_("started at"))
    def started(self, row: TaskRecord) -> Any:
        return row.started_at

    @admin.display(description=_("finished at"), ordering="finished_at")
    def finished(self, row: TaskRecord) -> Any:
        return row.finished_at

    @admin.display(description=_("arguments"))
    def arguments(self, row: TaskRecord) -> str:
        return str(row.args_kwargs)

    @admin.display(description=_("error"))
    def error(self, row: TaskRecord) -> str:
        lines = row.traceback.strip().splitlines()
        return lines[-1] if lines else ""

    @admin.display(description=_("error in full"))
    def details(self, row: TaskRecord) -> SafeString | str:
        return format_html("<pre>{}</pre>", row.traceback) if row.traceback else ""
