"""Limits that the API, the pages and the CLI all hold a submission to."""

MAX_SOURCE_BYTES = 256 * 1024
