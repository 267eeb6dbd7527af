"""``make test-rllib`` sets FOF_RLLIB_TESTS=1 and runs this folder in ``.venv-rllib``; ``make test``
leaves it out (``ray[rllib]`` pins its own gymnasium, so it lives in its own venv)."""

import os

collect_ignore_glob = [] if os.environ.get("FOF_RLLIB_TESTS") == "1" else ["test_*.py"]
