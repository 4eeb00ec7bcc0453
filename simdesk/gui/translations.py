"""The interface language: installing Qt translators for a setting, and filling translated templates.

Texts are marked with `self.tr("... %1 ...")` (so pyside6-lupdate finds them) and filled with `fill`, which
keeps the numbered places that translators may reorder (Chinese often puts them in another order).
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QLocale, QTranslator

from simdesk.gui.resources import qt_translation_dir, resolve_language, translation_file


def fill(template: str, *values: object) -> str:
    """Replace %1, %2, ... in a translated template by `values` (highest number first, so %1 never eats %10)."""
    for n in range(len(values), 0, -1):
        template = template.replace(f"%{n}", str(values[n - 1]))
    return template


def install_language(app: QCoreApplication, setting: str) -> str:
    """Install simdesk's and Qt's translators for `setting` ('system', 'en' or 'zh_CN'), replacing the
    previous ones; widgets receive a LanguageChange event and retranslate. Returns the language used."""
    for old in getattr(app, "_simdesk_translators", []):
        app.removeTranslator(old)
    language = resolve_language(setting)
    translators = []
    qm = translation_file(language)
    if qm is not None:
        ours = QTranslator(app)
        if ours.load(str(qm)):
            translators.append(ours)
        qt = QTranslator(app)
        if qt.load(QLocale(language), "qtbase", "_", qt_translation_dir()):
            translators.append(qt)
    for t in translators:
        app.installTranslator(t)
    app._simdesk_translators = translators  # type: ignore[attr-defined]  # noqa: SLF001
    return language
