// Pyodide's two big files, fetched xz-compressed and decoded in this worker as they arrive
// (3.5 MB, against 6.4 MB as hosts send them; see site_builder/ship/xz.py).  Pyodide fetches its
// files itself, so while it boots, this worker's fetch answers those URLs with the decoded
// bytes.  If a .xz cannot be had, the request goes out as it was.
//
// The decoder (the xz-decompress package) decodes one stream at a time, in the order the
// streams are made: the URLs come in the order Pyodide needs them finished.

function lazyBody(response) {
  let reader = null;
  return new ReadableStream({
    async pull(controller) {
      if (!reader) {
        const got = await response;
        if (!got.ok) throw new Error(`${got.url}: HTTP ${got.status}`);
        reader = got.body.getReader();
      }
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel(reason) {
      return reader ? reader.cancel(reason) : undefined;
    },
  });
}

// Decoded files are kept in the browser's Cache Storage (the page names the cache), so a
// later visit (without the service worker, which keeps its own copies) does not download or
// decode them again.  Only the current files are kept: a new deploy's replace the old ones.
async function keptFiles(name, urls) {
  try {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) if (!urls.includes(request.url)) await cache.delete(request);
    return cache;
  } catch {
    return null;   // no Cache Storage here (an insecure context, or storage turned off)
  }
}

// Starts the downloads and answers Pyodide's requests for `urls` until stop() is called
// (once Pyodide is loaded, or has failed to load); missed lists the files it could not serve.
export async function serveDecoded(urls, decoderUrl, keptCache) {
  const cache = await keptFiles(keptCache, urls);
  const kept = new Map();
  for (const url of urls) {
    const hit = cache && await cache.match(url);
    if (hit) kept.set(url, hit);
  }
  const missing = urls.filter((url) => !kept.has(url));
  const { XzReadableStream } = missing.length ? await import(decoderUrl) : {};
  const original = self.fetch;
  const pending = new Map();
  for (const url of missing) {
    const response = original.call(self, `${url}.xz`);
    response.catch(() => {});   // a failure is handled where the file is asked for
    pending.set(url, { response, decoded: new XzReadableStream(lazyBody(response)) });
  }
  const missed = [];
  const type = (url) => ({ "Content-Type": url.endsWith(".wasm") ? "application/wasm" : "application/octet-stream" });
  self.fetch = async function (input, init) {
    const url = input instanceof Request ? input.url : String(input);
    if (kept.has(url)) {
      const response = kept.get(url);
      kept.delete(url);
      return response;
    }
    const file = pending.get(url);
    if (file) {
      pending.delete(url);
      const response = await file.response.catch(() => null);
      if (response && response.ok) {
        if (!cache) return new Response(file.decoded, { headers: type(url) });
        const [forPyodide, toKeep] = file.decoded.tee();
        cache.put(url, new Response(toKeep, { headers: type(url) })).catch(() => {});
        return new Response(forPyodide, { headers: type(url) });
      }
      file.decoded.cancel().catch(() => {});
      missed.push(`${url.split("/").pop()}.xz: ${response ? `HTTP ${response.status}` : "no answer"}`);
    }
    return original.call(self, input, init);
  };
  function stop() {
    self.fetch = original;
    for (const { decoded } of pending.values()) decoded.cancel().catch(() => {});
    pending.clear();
    kept.clear();
  }
  return { stop, missed };
}
