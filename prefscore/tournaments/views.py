"""Views of tournaments and standings: none yet."""
