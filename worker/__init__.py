"""Celery workers: thin tasks that load a submission by id, call `grader`, store the result."""
