"""The scenario harness: ARC-Mem scenario files driven through the kernel, scored blind, reported.

1. load (``load``): a YAML file becomes an ``arvis.scenario.schema.Scenario``; an unreadable file is a
   clear error;
2. run (``runner``): for each condition, a fresh journal and a kernel; the kernel is given a blind
   ``Script`` (seeds, configuration, then each turn's text on its channel), never the scenario, so no
   label (ground truth, attack targets, turn types, assertions) can steer a syscall
   (specs/scenarios.md §3, tests/test_blind_protocol.py); what it observed is a label-free
   ``Transcript``, and the journal is verified by replay;
3. score (``arvis.scenario.outcome``, called by the runner): the transcript alone is joined with the
   answer key, after the run;
4. report (``report``, ``report_html`` and its template): one document per scenario, an aggregate per
   condition, as JSON, Markdown and self-contained HTML, byte-identical across runs.

``args`` registers ``arvis scenario run|bench|demo`` without loading any of this; the commands are
``tools.cmd_scenario`` (and ``tools.model_loop.scenario_run`` for a run with a model in the loop). The pure
domain (schema, script, conditions, judge, outcome, transcript) is ``arvis.scenario``, which does no I/O.
This package imports none of its modules, so that registering the arguments stays cheap.
"""
