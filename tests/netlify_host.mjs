// What Netlify would send for each request path, from Netlify's own engines: @netlify/config reads
// netlify.toml as a deploy does, @netlify/headers matches its [[headers]] and @netlify/redirects
// (the redirector Netlify's CLI serves with) its [[redirects]], a publish folder's _headers and
// _redirects included.  tests/serve/test_host_netlify.py holds our local host to these answers.
//
// stdin, one JSON object:  {"config": "netlify.toml", "publish": "_site", "paths": ["/", "/1/", ...]}
// stdout, one JSON object: {"/1/": {"headers": {...}, "status": 200, "file": "1/index.html"}, ...}
//   headers: what @netlify/headers adds for the path; rule: the redirect @netlify/redirects
//   matches (status, force, target); then what its handler does with the publish folder's files
//   (a rule not forced gives way to a file): status and location for a redirect, status and file
//   for a file served, status 404 for a path nothing answers.  Static serving itself is not
//   Netlify's engines' but the stand-in below (a file, or a folder's index.html at its URL with
//   the slash): a folder's URL without its slash, which Netlify's CDN redirects, is not asked.
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { resolveConfig } from "@netlify/config";
import { HeadersHandler } from "@netlify/headers";
import { RedirectsHandler } from "@netlify/redirects";

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const asked = JSON.parse(Buffer.concat(chunks).toString("utf8"));

const configPath = path.resolve(asked.config);
const projectDir = path.dirname(configPath);
const publish = path.resolve(asked.publish);
// offline: no site settings from Netlify's API; buffer: its log lines kept, not printed on stdout.
const { config } = await resolveConfig({ config: configPath, repositoryRoot: projectDir, offline: true, buffer: true });

const logger = { log() {}, warn: (m) => process.stderr.write(`${m}\n`), error: (m) => process.stderr.write(`${m}\n`) };
const headersHandler = new HeadersHandler({
  configHeaders: config.headers,
  projectDir,
  publishDir: path.relative(projectDir, publish),
  logger,
});
const redirectsHandler = new RedirectsHandler({
  configRedirects: config.redirects,
  projectDir,
  publicDir: publish,
  jwtRoleClaim: "",
  jwtSecret: "",
});

const ORIGIN = "http://localhost";

// The file a request's path names in the publish folder, as Netlify's static serving finds it:
// the file itself, or a folder's index.html.
function staticFile(pathname) {
  const relative = decodeURIComponent(pathname).replace(/^\/+/, "");
  const target = path.join(publish, relative);
  if (!target.startsWith(publish)) return undefined;
  if (existsSync(target) && statSync(target).isFile()) return path.relative(publish, target);
  const index = path.join(target, "index.html");
  if (pathname.endsWith("/") && existsSync(index)) return path.relative(publish, index);
  return undefined;
}

const getStaticFile = async (request) => {
  const file = staticFile(new URL(request.url).pathname);
  if (file === undefined) return undefined;
  return async () => new Response(null, { status: 200, headers: { "x-static-file": file } });
};

const answers = {};
for (const asked_path of asked.paths) {
  const request = new Request(ORIGIN + asked_path);
  const headers = await headersHandler.apply(request);
  const answer = { headers };
  const match = await redirectsHandler.match(request);
  let response;
  if (match) {
    answer.rule = { status: match.statusCode, force: match.force, target: match.targetRelative };
    response = await redirectsHandler.handle(request, match, getStaticFile);
  } else {
    const found = await getStaticFile(request);
    response = found && (await found());
  }
  if (response === undefined) {
    answer.status = 404;
  } else {
    answer.status = response.status;
    const location = response.headers.get("location");
    if (location) answer.location = location.startsWith(ORIGIN) ? location.slice(ORIGIN.length) : location;
    const file = response.headers.get("x-static-file");
    if (file) answer.file = file;
  }
  answers[asked_path] = answer;
}
process.stdout.write(JSON.stringify(answers));
