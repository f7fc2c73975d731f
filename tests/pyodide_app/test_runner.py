"""The runner's watchdog (pyodide_app/runner.js) in Node, with a stand-in worker that answers
calls one at a time as the real one does: a call is timed from when the worker began it, so one
queued behind slow calls is not stopped for their time, and one that never answers still is."""

from __future__ import annotations

import json
import subprocess

import pytest

from tests.support import ROOT

pytestmark = pytest.mark.node

# A worker that takes its calls in turn: "started" when it begins one, the reply ``ms`` later.
SCRIPT = """
const took = %(took)s;
let made = 0;
globalThis.Worker = class {
  constructor() { this.queue = []; this.busy = false; this.dead = false; made += 1; }
  postMessage(message) { this.queue.push(message); this.next(); }
  next() {
    if (this.busy || this.dead || !this.queue.length) return;
    const { id, type } = this.queue.shift();
    this.busy = true;
    setTimeout(() => this.onmessage({ data: { id, started: true } }), 0);
    if (took[type] === null) return;   // never answers
    setTimeout(() => { this.busy = false; this.onmessage({ data: { id, ok: true, value: type } }); this.next(); }, took[type]);
  }
  terminate() { this.dead = true; }
};
const { Runner } = await import(%(runner)s);
const runner = new Runner("worker.js");
const restarts = [];
runner.onrestart = (err) => { restarts.push(err.message); return Promise.resolve(); };
const settled = await Promise.all(%(calls)s.map(([type, limit]) =>
  runner.call(type, {}, limit).then((v) => `answered ${v}`, (e) => `failed: ${e.message}`)));
console.log(JSON.stringify({ settled, restarts, workers: made }));
"""


def run(took: dict, calls: list) -> dict:
    script = SCRIPT % {
        "took": json.dumps(took),
        "runner": json.dumps((ROOT / "pyodide_app" / "runner.js").as_uri()),
        "calls": json.dumps(calls),
    }
    proc = subprocess.run(["node", "--input-type=module", "-e", script], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_a_call_queued_behind_slow_ones_is_timed_from_its_own_start():
    # Three 150 ms sweeps, then a 10 ms run, each allowed 200 ms: the run waits 450 ms in the
    # queue, more than its limit, and still answers.
    got = run({"sweep": 150, "run": 10}, [["sweep", 200], ["sweep", 200], ["sweep", 200], ["run", 200]])
    assert got == {"settled": ["answered sweep"] * 3 + ["answered run"], "restarts": [], "workers": 1}


def test_a_call_that_never_answers_is_stopped_and_the_calls_behind_it_fail_with_it():
    got = run({"run": None, "sweep": 10}, [["run", 100], ["sweep", 100]])
    assert got["restarts"] == ["no answer within 0.1 s"]
    assert got["settled"] == ["failed: no answer within 0.1 s"] * 2
    assert got["workers"] == 2


def test_a_call_without_a_limit_is_never_stopped():
    got = run({"load": 300}, [["load", 0]])
    assert got == {"settled": ["answered load"], "restarts": [], "workers": 1}
