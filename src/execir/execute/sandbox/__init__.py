"""The host sandbox: isolation levels, cgroups, the seccomp filter, slot uids and CPUs, reclaim of
stale state, host checks, output capture, the slot (one sandbox server and judge pair) and the
warm trusted runner."""
