// Pyodide's memory snapshot as the build stores it (site_builder/ship/stdlib.py): gzipped, and
// inside, the memory without its empty pages.  The host sends it with Content-Encoding: gzip,
// so the browser unzips it as it downloads; if a host sent it as stored, it is unzipped here.

// Python to run after restoring: the stdlib zip that came with the snapshot must be the one
// it was made with (imports still to come read it at the offsets the snapshot remembers); and
// random, saved with a fixed seed, is reseeded from this system's entropy.
export const AFTER_RESTORE = `
import random, zipimport
path = "/lib/python314.zip"
if zipimport._read_directory(path) != zipimport._zip_directory_cache.get(path):
    raise ImportError("the start-up stdlib is not the one the snapshot was made with")
random.seed()
del random, zipimport, path
`;

// `started`: the fetch of `url`, if the caller has already started it.
export async function fetchSnapshot(url, started = fetch(url)) {
  const response = await started;
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  let data = new Uint8Array(await response.arrayBuffer());
  if (data[0] === 0x1f && data[1] === 0x8b) {
    const unzipped = new Blob([data]).stream().pipeThrough(new DecompressionStream("gzip"));
    data = new Uint8Array(await new Response(unzipped).arrayBuffer());
  }
  return expandSnapshot(data);
}

// Layout (little-endian): "DBSPARSE", memory size (u32), page size (u32), one bit per page
// (set: stored), then the stored pages in order.
export function expandSnapshot(data) {
  if (new TextDecoder().decode(data.subarray(0, 8)) !== "DBSPARSE") throw new Error("not a stored snapshot");
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const size = view.getUint32(8, true);
  const page = view.getUint32(12, true);
  const count = Math.ceil(size / page);
  const bits = data.subarray(16, 16 + Math.ceil(count / 8));
  const memory = new Uint8Array(size);
  let at = 16 + bits.length;
  for (let i = 0; i < count; i++) {
    if (!((bits[i >> 3] >> (i & 7)) & 1)) continue;
    const length = Math.min(page, size - i * page);
    memory.set(data.subarray(at, at + length), i * page);
    at += length;
  }
  if (at !== data.length) throw new Error("a damaged snapshot");
  return memory;
}
