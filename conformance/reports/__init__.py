"""Reports: the per-rule rows and failure blocks printed to the terminal, the JSON report, and replay files."""
