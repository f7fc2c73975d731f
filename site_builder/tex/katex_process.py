"""One KaTeX process kept alive for ``serve``: a fresh ``node`` takes more than 100 ms to start.

``math.typeset`` sends the fragments it has not typeset before to KaTeX; while serve runs,
``install`` makes this process ``math.kept_alive``, which reads one batch per line
(``katex.mjs --lines``).  Should the process die, the next batch starts another.
"""

from __future__ import annotations

import json
import subprocess
import threading

from . import math


class KatexProcess:
    def __init__(self):
        self.proc: subprocess.Popen | None = None
        self.lock = threading.Lock()

    def _start(self) -> subprocess.Popen:
        command, env = math.katex_command("--lines")
        return subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, encoding="utf-8", cwd=math.ROOT, env=env
        )

    def run(self, unique: list[tuple[str, bool]]) -> list[dict]:
        with self.lock:
            if self.proc is None or self.proc.poll() is not None:
                self.proc = self._start()
            self.proc.stdin.write(json.dumps(unique) + "\n")
            self.proc.stdin.flush()
            line = self.proc.stdout.readline()
            if not line:
                self.proc = None
                raise math.MathToolMissing("the KaTeX process stopped")
            return json.loads(line)

    def close(self) -> None:
        if self.proc is not None:
            self.proc.stdin.close()
            self.proc.wait(timeout=5)
            self.proc = None


def install() -> KatexProcess:
    """Route ``math``'s KaTeX runs through one process kept alive; started on first use."""
    process = KatexProcess()
    math.kept_alive = process
    process.run([("x", False)])  # started now, not on the first edit
    return process
