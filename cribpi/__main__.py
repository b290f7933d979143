import sys

from cribpi.cli import main

sys.exit(main())
