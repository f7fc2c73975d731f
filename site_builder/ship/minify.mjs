// Our JavaScript and CSS as shipped, minified by esbuild file by file (nothing is bundled: each
// module keeps its imports and exports, and the page loads it as before).  minify.py runs it:
// stdin, a JSON list of [name, loader ("js" or "css"), source]; stdout, a JSON list in the same
// order of {code} or {error: "name:line:column: message"}.
import { readFileSync } from "node:fs";
import { transformSync } from "esbuild";

const files = JSON.parse(readFileSync(0, "utf8"));
const out = files.map(([name, loader, source]) => {
  try {
    return { code: transformSync(source, { loader, minify: true, legalComments: "none", sourcefile: name }).code };
  } catch (err) {
    const first = (err.errors || [])[0];
    if (!first || !first.location) return { error: `${name}: ${err.message}` };
    const { line, column } = first.location;
    return { error: `${name}:${line}:${column + 1}: ${first.text}` };
  }
});
process.stdout.write(JSON.stringify(out));
