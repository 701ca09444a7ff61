"""The sinks of ``scored_pr.integrations``, one module each, and what they share (``entries``)."""
