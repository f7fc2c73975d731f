// Typesets a batch of TeX fragments with KaTeX: JSON [[tex, display], ...] on stdin,
// JSON [{html} | {error, position}, ...] on stdout.  One process per build.
// With --lines (serve keeps one process alive): one batch per line in, one result line out.
import katex from "katex";
import { createInterface } from "node:readline";

const typeset = (batch) => batch.map(([tex, display]) => {
  try {
    return { html: katex.renderToString(tex, { displayMode: display, throwOnError: true, strict: (code) => (code === "htmlExtension" ? "ignore" : "error"), trust: (context) => context.command === "\\htmlData", output: "htmlAndMathml" }) };
  } catch (err) {
    if (err instanceof katex.ParseError) {
      return { error: err.rawMessage || err.message, position: err.position ?? null };
    }
    return { error: String(err && err.message || err), position: null };
  }
});

process.stdin.setEncoding("utf8");
if (process.argv.includes("--lines")) {
  for await (const line of createInterface({ input: process.stdin })) {
    if (line.trim()) process.stdout.write(JSON.stringify(typeset(JSON.parse(line))) + "\n");
  }
} else {
  let input = "";
  for await (const chunk of process.stdin) input += chunk;
  process.stdout.write(JSON.stringify(typeset(JSON.parse(input))));
}
