// Typesets a batch of TeX fragments with KaTeX: JSON [[tex, display], ...] on stdin,
// JSON [{html} | {error, position}, ...] on stdout.  One process per build.
import katex from "katex";

let input = "";
process.stdin.setEncoding("utf8");
for await (const chunk of process.stdin) input += chunk;
const results = JSON.parse(input).map(([tex, display]) => {
  try {
    return { html: katex.renderToString(tex, { displayMode: display, throwOnError: true, strict: "error", output: "htmlAndMathml" }) };
  } catch (err) {
    if (err instanceof katex.ParseError) {
      return { error: err.rawMessage || err.message, position: err.position ?? null };
    }
    return { error: String(err && err.message || err), position: null };
  }
});
process.stdout.write(JSON.stringify(results));
