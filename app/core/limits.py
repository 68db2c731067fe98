"""Limits that the API, the pages and the CLI all hold what a user sends to: each stated in
the OpenAPI schema (`maxLength`) and checked by the service before anything is stored."""

MAX_SOURCE_BYTES = 256 * 1024
MAX_EXPLANATION_BYTES = 64 * 1024  # a page or two of prose: far above any honest one
MAX_NOTE = 2000  # an instructor's note on an override or a decision
MAX_URL = 500  # an evidence link
MAX_LOGIN = 254  # a name (100) or an email (254) at sign-in
MAX_TOKEN_TEXT = 200  # an API token pasted at sign-in (they are 43 characters)
MAX_CHECKPOINT_FILE = 256 * 1024  # each file of an uploaded checkpoint
MAX_CHECKPOINT_FILES = 50  # its known-bad solutions
