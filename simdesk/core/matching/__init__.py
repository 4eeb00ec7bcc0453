"""Matching: from an up-to-date index to verified pairs and centred groups."""
