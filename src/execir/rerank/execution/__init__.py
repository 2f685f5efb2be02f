"""The execution-aware reranker: a query's examples read from its text (``examples``, ``samples``),
each candidate run on them in its own language (``exec_plan``, ``planned``; native calls and checks
written by each language's declared writer, ``writers``, ``native_calls``, ``typed_calls``,
``go_calls``, ``java_calls``, ``typed_values``, ``source_values``), agreement probes among the
candidates that pass (``probes``, ``native_probes``, ``agreement``), and the reranker itself
(``reranker``)."""
