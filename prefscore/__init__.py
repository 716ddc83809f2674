"""prefscore: the Django project and the web product."""
