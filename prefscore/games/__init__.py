"""Pulkas, deals, corrections; the score sheet views."""
