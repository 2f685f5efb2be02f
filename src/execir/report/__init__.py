"""ExecIR report stage."""
