"""kgrade's service side: settings, CLI, and (later) the web API by domain."""
