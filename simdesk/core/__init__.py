"""The simdesk engine: loading, features, fingerprints, the index, grouping, diffing. Imports no Qt."""
