"""The one place that locates simdesk's shipped data files (stop words, demo texts, the segmenter's check
sample, translations): package data in `simdesk/resources/`, found through importlib.resources, so a source
checkout, an editable install and an installed wheel all read the same files."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path


def resource(*parts: str) -> Path:
    """The path of a shipped file, e.g. resource('stopwords', 'zh.txt').

    A path, not a Traversable: Qt loads translations by file name. pip installs wheels unpacked, where
    importlib.resources hands back real paths."""
    return Path(str(files("simdesk").joinpath("resources", *parts)))
