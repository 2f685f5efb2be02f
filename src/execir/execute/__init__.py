"""ExecIR execute stage."""
