"""Tournaments, stages, rounds, tables, standings views."""
