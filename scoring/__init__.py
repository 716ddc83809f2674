"""The rules of preferans: the pure engine and its Django side (conventions in the admin)."""
