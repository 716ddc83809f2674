"""Games views, one module per screen (design.md: split by screen early)."""
