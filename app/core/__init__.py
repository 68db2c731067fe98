"""What every domain shares and nothing of the web: typed errors, token hashing."""
