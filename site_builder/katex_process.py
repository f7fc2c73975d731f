"""One KaTeX process kept alive for ``serve``: a fresh ``node`` takes more than 100 ms to start.

``math.typeset`` sends the fragments it has not typeset before to ``math._run_katex``; while
serve runs, ``install`` points that at this process, which reads one batch per line
(``katex.mjs --lines``).  Should the process die, the next batch starts another.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import threading

from . import math


class KatexProcess:
    def __init__(self):
        self.proc: subprocess.Popen | None = None
        self.lock = threading.Lock()

    def _start(self) -> subprocess.Popen:
        node = shutil.which("node")
        if node is None or not math.katex_dir().is_dir():
            raise math.MathToolMissing("KaTeX needs Node.js and `npm ci` in the project folder")
        return subprocess.Popen(
            [node, str(math.SCRIPT), "--lines"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            cwd=math.ROOT,
            env={**os.environ, "NODE_PATH": str(math.ROOT / "node_modules")},
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
    math._run_katex = process.run
    process.run([("x", False)])  # started now, not on the first edit
    return process
