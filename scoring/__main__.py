"""``python -m scoring``: see ``scoring.cli``."""

from scoring.cli import main

raise SystemExit(main())
