"""The SQLite segment index of one folder and the incremental scan that keeps it up to date."""
