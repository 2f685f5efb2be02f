"""ExecIR retrieve stage."""
