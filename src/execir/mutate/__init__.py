"""ExecIR mutate stage."""
