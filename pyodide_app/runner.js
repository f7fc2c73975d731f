// The runner: one worker, a Promise per request, replies matched by id.
export class Runner {
  constructor(workerUrl) {
    this.workerUrl = workerUrl;
    this.pending = new Map();
    this.nextId = 1;
    this.start();
  }

  start() {
    this.worker = new Worker(this.workerUrl, { type: "module" });
    this.worker.onmessage = ({ data }) => {
      const waiting = this.pending.get(data.id);
      if (!waiting) return;
      this.pending.delete(data.id);
      if (data.ok) waiting.resolve(data.value);
      else waiting.reject(new Error(data.error));
    };
    this.worker.onerror = (event) => {
      const error = new Error(event.message || "the Python worker failed");
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    };
  }

  call(type, payload = {}) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, type, ...payload });
    });
  }
}
