"""Built-in checkpoints: one folder each, data and small functions only (see grader.checkpoints)."""
