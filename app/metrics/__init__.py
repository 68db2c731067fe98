"""Prometheus metrics at /metrics, read at scrape time from the database (grading events, the
submissions, the workers table) and the broker (queue lengths), so that every worker process
on every host is counted and nothing is lost when a process restarts (ARCHITECTURE.md)."""
