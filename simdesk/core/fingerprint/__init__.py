"""Fingerprints: what a text is reduced to for comparison (SimHash, MinHash), and the one similarity of two texts."""
