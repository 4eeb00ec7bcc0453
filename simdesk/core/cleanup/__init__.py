"""Clean-up: which copy to keep, plans carried out safely, the action log, and undo."""
