"""Code that runs inside the sandbox (and the wire format both sides share).

Only this folder is mounted into the sandbox; it imports nothing else from `grader`.
"""
