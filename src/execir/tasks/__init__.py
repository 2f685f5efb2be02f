"""ExecIR tasks stage."""
