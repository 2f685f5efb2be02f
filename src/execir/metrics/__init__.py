"""ExecIR metrics stage."""
