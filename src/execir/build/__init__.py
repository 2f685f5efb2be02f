"""ExecIR build stage."""
