"""What every view and every request goes through, below every app: it imports Django
and django-htmx only, and no app of the project.

- ``htmx``: how every view answers a browser, with htmx or without it (``render_page``,
  ``render_partials``, ``redirect_to``);
- ``integers``: whole numbers a request carries (``request_int``), the ``<id:…>`` URL
  converter and the form field that picks rows by id;
- ``words``: the site's fixed words, rendered once per process and language;
- ``middleware``: the site's own middleware (compression, the Content-Security-Policy,
  private caching, the page's account);
- ``sessions``: the session store, read with one plain statement;
- ``auth``: the user read with one plain statement, for the authentication backend.
"""
