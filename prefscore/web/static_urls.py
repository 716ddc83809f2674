"""Each static file's URL, worked out once per process (docs/benchmarks.md, "The sheet
page": kept only with its A/B figure there).

The ``{% static %}`` tag asks the static storage for a file's URL on every render, 14
times a sheet page: production's manifest storage cleans the name, looks it up in the
manifest and joins it to ``STATIC_URL`` each time. The manifest is read once, when the
storage is made, and a new release is a new process, so a name's URL is the same for the
life of the process: it is worked out the first time it is asked for and kept. Under
DEBUG nothing is kept (files come and go while one works). A name the manifest lacks
raises as before, and nothing is kept for it.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.staticfiles.storage import StaticFilesStorage
from whitenoise.storage import CompressedManifestStaticFilesStorage  # type: ignore[import-untyped]


class RememberedUrls(StaticFilesStorage):
    """The plain storage (files from their folders), each URL worked out once."""

    def url(self, name: str | None, *args: bool, **kwargs: bool) -> str:
        """``name``'s URL; the manifest's ``force`` (collectstatic's) is never kept."""
        if args or kwargs or settings.DEBUG or name is None:
            return str(super().url(name, *args, **kwargs))
        urls: dict[str, str] = self.__dict__.setdefault("_remembered_urls", {})
        found = urls.get(name)
        if found is None:
            found = urls[name] = str(super().url(name))
        return found


class ManifestStorage(RememberedUrls, CompressedManifestStaticFilesStorage):  # type: ignore[misc]
    """Production's: hashed, compressed files named by the manifest, each URL once."""
