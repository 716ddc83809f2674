"""The site's URLs: each app's own, sign-in, the language switch and the admin."""

from django.contrib import admin
from django.urls import include, path
from django.utils.translation import gettext_lazy as _

from prefscore import offline

# The admin's name in its header and the browser's tab, in the page's language.
admin.site.site_header = admin.site.site_title = _("prefscore administration")

urlpatterns = [
    # The installable app: the service worker from the root, its manifest, the favicon,
    # and the outbox's fresh token (prefscore/offline.py).
    path("sw.js", offline.service_worker, name="service_worker"),
    path("manifest.webmanifest", offline.manifest, name="manifest"),
    path("favicon.ico", offline.favicon, name="favicon"),
    path("outbox/session/", offline.outbox_session, name="outbox_session"),
    path("", include("prefscore.games.club_urls")),
    path("", include("prefscore.games.urls")),
    path("tournaments/", include("prefscore.tournaments.urls")),
    path("", include("prefscore.stats.urls")),
    path("", include("prefscore.seasons.urls")),
    # A club's public results page (prefscore/public/).
    path("", include("prefscore.public.urls")),
    path("conventions/", include("scoring.urls")),
    # Sign-in (rate-limited), sign-up, sign-out, passwords; a club's members and invitations.
    path("", include("prefscore.clubs.account_urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]

# Styled, translated error pages instead of Django's bare English ones (prefscore/errors.py).
handler400 = "prefscore.errors.bad_request"
handler403 = "prefscore.errors.permission_denied"
handler404 = "prefscore.errors.page_not_found"
handler500 = "prefscore.errors.server_error"
