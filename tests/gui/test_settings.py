"""Settings: typed values kept in QSettings across runs, edited in the dialog, turned into the engine's plain
ReviewSettings."""

from __future__ import annotations

from simdesk.core import ReviewSettings, ScanOptions
from simdesk.gui.settings import Settings
from simdesk.gui.settings_dialog import SettingsDialog


def test_settings_survive_a_restart_and_feed_the_engine(qtbot, tmp_path):
    settings = Settings.at(tmp_path / "settings.ini")
    assert settings.scan_options() == ScanOptions()
    # the engine's defaults: every verified candidate (12 bits), or distance 3 for plain SimHash groups
    assert settings.threshold() == 12 and settings.min_similarity() == 0.7
    assert settings.review_settings() == ReviewSettings()  # the engine's defaults, defined once there
    settings.set("review/verify", False)
    assert settings.threshold() == 3 and settings.min_similarity() is None
    assert not settings.review_settings().verified
    dialog = SettingsDialog(settings)
    qtbot.addWidget(dialog)
    dialog.patterns.setText("*.txt, *.text")
    dialog.max_size.setValue(2.5)
    dialog.threshold.setValue(6)
    dialog.verify.setChecked(True)
    dialog.min_similarity.setValue(0.6)
    dialog.workers.setValue(1)
    dialog.language.setCurrentIndex(dialog.language.findData("zh_CN"))
    dialog.save()
    settings.add_recent("/data/b")
    settings.add_recent("/data/a")
    settings.add_recent("/data/b")

    again = Settings.at(tmp_path / "settings.ini")
    assert again.scan_options() == ScanOptions(includes=("*.txt", "*.text"), max_bytes=int(2.5 * 1024 * 1024), jobs=1)
    assert again.threshold() == 6  # the default threshold, until the slider has been moved
    assert again.review_settings() == ReviewSettings(0.6, 6, again.scan_options())  # workers reach verification
    again.set("review/last_threshold", 9)
    assert again.threshold() == 9
    assert again.get("ui/language") == "zh_CN"
    assert again.get("review/verify") is True and again.get("review/min_similarity") == 0.6
    assert again.get("ui/recent_folders") == ["/data/b", "/data/a"]
    assert again.get("ui/last_folder") == "/data/b"


def test_window_geometry_and_threshold_are_remembered(qtbot, settings, data_dir):
    from simdesk.gui.app import make_window

    w = make_window(settings, data_dir)
    qtbot.addWidget(w)
    w.show()
    w.resize(611, 477)  # less than the default size, within the offscreen screen that restoreGeometry clamps to
    w.threshold_bar.set_value(7)
    w.close()
    again = make_window(settings, data_dir)
    qtbot.addWidget(again)
    assert again.threshold_bar.value() == 7
    again.show()
    assert again.size().height() == 477
