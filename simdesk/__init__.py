"""simdesk: find near-duplicate documents in a folder of text files (Chinese first)."""

from __future__ import annotations

__version__ = "0.1.0"
