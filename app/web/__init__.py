"""Server-rendered pages (Jinja2), htmx for the live parts; plots drawn by matplotlib."""
