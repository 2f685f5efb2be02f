"""ExecIR construct stage: tasks -> candidates -> verdicts -> datasets (the `execir build` command)."""
