"""ExecIR evaluate stage."""
