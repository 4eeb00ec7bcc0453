"""One folder's review as the editor meets it: decisions, comparison, exports, and the review in a process of its own."""
