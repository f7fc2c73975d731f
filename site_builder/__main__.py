import os
import sys

from .cli import main

try:
    sys.exit(main())
except BrokenPipeError:  # the reader closed the pipe (| head): nothing more to say
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    sys.exit(0)
