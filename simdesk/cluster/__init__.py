"""simdesk beyond one machine: the desktop's near-duplicate search run per partition (locally or on Spark),
written as bundles the window opens. Imports simdesk.core, never Qt."""
