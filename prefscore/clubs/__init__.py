"""Clubs, players, memberships and roles, sign-in."""
