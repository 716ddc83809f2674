"""Games views, one module per screen (docs/design.md: split by screen early)."""
