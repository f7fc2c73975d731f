// Lays out graphs with elkjs (the npm package), at build time: JSON [graph, ...] on stdin,
// JSON [laid-out graph, ...] on stdout.  One process per build; no browser ever loads ELK.
import ELK from "elkjs/lib/elk.bundled.js";

const elk = new ELK();
let input = "";
process.stdin.setEncoding("utf8");
for await (const chunk of process.stdin) input += chunk;
const graphs = JSON.parse(input);
const out = [];
for (const graph of graphs) out.push(await elk.layout(graph));
process.stdout.write(JSON.stringify(out));
