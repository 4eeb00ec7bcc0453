"""Reading: from files (or URIs) to normalised text, its recurring lines and its headline."""
