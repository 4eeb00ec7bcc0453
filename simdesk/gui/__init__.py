"""The window: thin Qt models and views over simdesk.core (which never imports Qt)."""
