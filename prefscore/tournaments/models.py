"""Models come with the features that need them."""
