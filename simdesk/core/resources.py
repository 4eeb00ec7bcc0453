"""The one place that locates simdesk's shipped data files (stop words, demo texts, translations, icons)."""
from __future__ import annotations

from pathlib import Path

# In a source checkout and an editable install, resources/ sits beside the package; a wheel carries a copy
# inside the package (see pyproject.toml).
_CANDIDATES = (Path(__file__).resolve().parents[1] / "resources", Path(__file__).resolve().parents[2] / "resources")


def resource_dir() -> Path:
    for candidate in _CANDIDATES:
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError("simdesk's resources folder is missing from this installation")


def resource(*parts: str) -> Path:
    """The path of a shipped file, e.g. resource('stopwords', 'zh.txt')."""
    return resource_dir().joinpath(*parts)
