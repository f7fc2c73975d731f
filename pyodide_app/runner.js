// The runner: one worker, a Promise per request, replies matched by id.  A watchdog
// terminates a worker that does not answer a call in time, timed from when the worker began
// it (a formula that never returns), and starts a new one; onrestart lets the page load
// Python into it again.
export class Runner {
  constructor(workerUrl) {
    this.workerUrl = workerUrl;
    this.pending = new Map();
    this.nextId = 1;
    this.onrestart = null;
    this.restarting = Promise.resolve();   // settles when the page has loaded Python into a new worker
    this.generation = 0;                   // workers started so far: one for a whole visit, unless restarted
    this.start();
  }

  start() {
    this.generation += 1;
    this.worker = new Worker(this.workerUrl, { type: "module" });
    this.worker.onmessage = ({ data }) => {
      const waiting = this.pending.get(data.id);
      if (!waiting) return;
      if (data.started) {
        // The worker has begun this call: the watchdog times it from now, not from when it was
        // queued behind the calls before it (a busy machine's charts are not this call's time).
        if (waiting.timeoutMs) {
          const timeoutMs = waiting.timeoutMs;
          waiting.timer = setTimeout(() => this.restart(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs);
        }
        return;
      }
      this.pending.delete(data.id);
      clearTimeout(waiting.timer);
      if (data.ok) waiting.resolve(data.value);
      else waiting.reject(new Error(data.error));
    };
    this.worker.onerror = (event) => this.fail(new Error(event.message || "the Python worker failed"));
  }

  fail(error) {
    for (const waiting of this.pending.values()) {
      clearTimeout(waiting.timer);
      waiting.reject(error);
    }
    this.pending.clear();
  }

  restart(error) {
    this.worker.terminate();
    this.fail(error);
    this.start();
    this.restarting = this.onrestart ? this.onrestart(error) : Promise.resolve();
  }

  call(type, payload = {}, timeoutMs = 0) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, timer: null, timeoutMs });
      this.worker.postMessage({ id, type, ...payload });
    });
  }
}
