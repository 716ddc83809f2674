"""The form that imports a tournament file (docs/tournaments.md §6): pasted or
uploaded, valid once ``imports.read_file`` has read every part of it."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from prefscore.clubs.models import Club

from .. import imports, jobs
from ..models import ImportJob, Tournament


class TournamentFileForm(forms.Form):
    text = forms.CharField(
        label=_("Paste the tournament file"),
        required=False,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}),
    )
    file = forms.FileField(label=_("or upload it"), required=False)
    slug = forms.SlugField(
        label=_("Short name for links"),
        max_length=60,
        required=False,
        help_text=_("Leave empty to keep the file's; a name already taken gets a new one."),
    )

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.club = club

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        if self.errors:
            return cleaned
        text, upload = cleaned.get("text") or "", cleaned.get("file")
        if upload is not None and text.strip():
            self.add_error("file", _("Paste the file or upload it, not both."))
            return cleaned
        if upload is None and not text.strip():
            self.add_error("text", _("Paste a tournament file or choose one to upload."))
            return cleaned
        field = "file" if upload is not None else "text"
        try:
            if upload is not None:
                if upload.size > imports.MAX_FILE_BYTES:
                    raise imports.ImportRefused(imports.too_large_message())
                text = imports.decode(upload.read(imports.MAX_FILE_BYTES + 1))
            if len(text.encode("utf-8", "surrogatepass")) > imports.MAX_FILE_BYTES:
                raise imports.ImportRefused(imports.too_large_message())
            if jobs.needs_job(text):
                cleaned["deferred_text"] = text  # read and stored after the request (jobs)
            else:
                cleaned["tournament_file"] = imports.read_file(text)
                cleaned["text_read"] = text
        except imports.ImportRefused as error:
            self.add_error(field, str(error))
        cleaned["field"] = field
        return cleaned

    def save(self, user: Any) -> Tournament | ImportJob | None:
        """The new tournament; for a large file the job that will import it; or None
        with the refusal added to the form."""
        data = self.cleaned_data
        if "deferred_text" in data:
            return jobs.submit(self.club, user, data["deferred_text"], data.get("slug") or "")
        found = imports.already(self.club, data["tournament_file"].fields)
        if found is not None:  # the organiser is asked first, the file kept meanwhile
            return jobs.submit(self.club, user, data["text_read"], data.get("slug") or "", found)
        try:
            return imports.import_tournament(
                self.club, data["tournament_file"], user, data.get("slug") or ""
            )
        except imports.ImportRefused as error:
            self.add_error(data["field"], str(error))
            return None
