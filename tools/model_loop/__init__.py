"""A scenario played with models in the loop: a game master answers the player, a judge checks.

Every model output enters the kernel in a form the journal holds, so that a run made with models
replays offline, byte for byte, with no model and no network (DESIGN.md §6):

- the run starts with a ``model.run`` record naming the scenario, condition and both models;
- each player turn, the game master gets the assembled block (``memory.awmu.assemble``) and the
  player's message; its answer (text, or the error that came instead) is journaled with
  ``kernel.record`` (kind ``model.gm_reply``) and, when it has text, proposed from source ``dm``: whole,
  or, with an extractor, each statement the extractor lists (kind ``model.extract``);
- the judge is asked whether the reply contradicts, revises or progresses each active unit it
  overlaps (two shared key terms); its raw answer is journaled (kind ``model.conflict_check``) and
  the parsed answers are the ``verdicts`` argument of that proposal, so they are journaled again, in
  the args the kernel acts on;
- on evaluated turns the judge's per-fact verdict on the reply (CONFIRMED, CONTRADICTED,
  NOT_MENTIONED; UNPARSED where its answer said nothing usable) is journaled (kind ``model.judge``).

Model text is parsed totally: a malformed answer is a recorded parse failure, never an exception;
a model that cannot be reached is a recorded error, and the run goes on. Each record holds the
SHA-256 of the request, the model's name and its answer, which is what ``RecordedModels`` serves
when the same loop runs again against ``JournalReplayKernel``.

One module per job:

- ``client``: a chat model over an OpenAI-compatible HTTP API, failures as data;
- ``roles``: what the game master and the judge are asked, and the total parsing of their answers;
- ``recording``: what is journaled as recorded input, and ``RecordedModels``, which serves it back;
- ``loop``: ``ModelScenarioRun``, the turns played on a kernel (live or replay alike);
- ``scoring``: each turn's outcome, the run's result and its figures;
- ``runs``: a live run into a fresh journal verified by replay (``run_with_models``), and its offline
  replay (``replay_model_run``);
- ``scenario_run``: ``arvis scenario run FILE --model URL``, one model as assistant, extractor and
  judge (``specs/scenarios.md`` §12).

This package imports none of them, so that registering the command's arguments stays cheap.
"""
