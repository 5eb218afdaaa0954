"""``python -m tools.model_loop``: the model run's command line (``tools.model_loop.cli``)."""

from tools.model_loop.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
