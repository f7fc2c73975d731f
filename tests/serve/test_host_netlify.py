"""Our local host sends what Netlify would: for every built file, every folder's URL and every
alias, Netlify's own engines (tests/netlify_host.mjs: @netlify/config reading netlify.toml,
@netlify/headers and @netlify/redirects matching it, the built folder's _headers and _redirects
included) say which headers and which redirect Netlify applies, and site_builder/serve/host.py,
asked over HTTP, must send exactly those."""

from __future__ import annotations

import http.client
import json
import subprocess

import pytest

from site_builder.pages.urls import NETLIFY, aliases
from site_builder.serve.host import SiteServer, host_rules
from tests.support import ROOT

pytestmark = pytest.mark.node  # Netlify's engines run in Node, and the built site is typeset by KaTeX

ENGINES = ROOT / "tests" / "netlify_host.mjs"

# Headers a server sends of its own, which netlify.toml may also set for some paths (where it
# does, its value must replace the server's: Netlify's custom headers do).
SERVERS_OWN = {"content-type", "content-length", "content-encoding", "date", "server", "last-modified", "location"}

# Where Netlify's matching has corners that the built paths alone do not reach: header patterns
# match letters of either case and an optional trailing slash; a redirect's `from` matches
# either side of one trailing slash, letters as written; a request's query goes to the target.
CORNERS = ["/CHANGES.ATOM", "/changes.atom/", "/PYODIDE/no-such-file", "/no-such-page/", "/KV-CACHE-SIZE/"]


def _asked(site, entries) -> list[str]:
    files = sorted(p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file())
    paths = [f"/{f}" for f in files]
    paths += [f"/{f.removesuffix('index.html')}" for f in files if f == "index.html" or f.endswith("/index.html")]
    for alias in aliases(entries):
        paths += [alias, alias.rstrip("/"), f"{alias}?from=card"]
    paths += [rule["from"] for rule in host_rules()[1]]
    return sorted(set(paths + CORNERS))


def _netlify(site, paths: list[str]) -> dict[str, dict]:
    """What Netlify would answer for each path: one Node process for all of them."""
    asked = json.dumps({"config": str(NETLIFY), "publish": str(site), "paths": paths})
    done = subprocess.run(["node", str(ENGINES)], input=asked, capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _ours(site, paths: list[str]) -> dict[str, http.client.HTTPResponse]:
    """What our host answers for each path, over one kept-open connection.  No Accept-Encoding:
    compression is Netlify's CDN's (and our host's own), not a rule of netlify.toml."""
    answers = {}
    with SiteServer(site) as running:
        connection = http.client.HTTPConnection("127.0.0.1", running.port, timeout=30)
        for path in paths:
            connection.request("HEAD", path)
            response = connection.getresponse()
            response.read()
            answers[path] = response
        connection.close()
    return answers


def _disagreements(path: str, netlify: dict, ours: http.client.HTTPResponse, rule_names: set[str]) -> list[str]:
    said = []
    expected = {name.lower(): value for name, value in netlify["headers"].items()}
    for name in sorted(rule_names | expected.keys()):
        sent = ours.headers.get_all(name) or []
        if name in expected and sent != [expected[name]]:
            said.append(f"{path}: {name}: Netlify sends {expected[name]!r}, ours {sent!r}")
        elif name not in expected and name not in SERVERS_OWN and sent:
            said.append(f"{path}: {name}: Netlify sends none, ours {sent!r}")
    if ours.status != netlify["status"]:
        said.append(f"{path}: status: Netlify {netlify['status']} ({netlify}), ours {ours.status}")
    if ours.headers.get("Location") != netlify.get("location"):
        said.append(f"{path}: Location: Netlify {netlify.get('location')!r}, ours {ours.headers.get('Location')!r}")
    return said


def _grouped(wrong: list[str]) -> str:
    """Disagreements alike but for their path, once each with how many paths and the first few."""
    alike: dict[str, list[str]] = {}
    for said in wrong:
        path, _, what = said.partition(": ")
        alike.setdefault(what, []).append(path)
    lines = [
        f"{len(paths)} paths ({', '.join(paths[:3])}{', ...' if len(paths) > 3 else ''}): {what}"
        for what, paths in alike.items()
    ]
    return f"{len(wrong)} disagreements with Netlify's engines:\n" + "\n".join(lines)


def test_our_host_sends_the_headers_and_redirects_netlify_sends(bank, site):
    entries, _ = bank
    paths = _asked(site, entries)
    netlify, ours = _netlify(site, paths), _ours(site, paths)
    headers_rules, redirect_rules = host_rules()
    rule_names = {name.lower() for rule in headers_rules for name in rule["values"]}
    wrong = [said for path in paths for said in _disagreements(path, netlify[path], ours[path], rule_names)]
    assert not wrong, _grouped(wrong)
    # The comparison reached every rule: each redirect was taken, each header pattern matched.
    redirected = {netlify[p]["rule"]["target"].split("?")[0] for p in paths if "rule" in netlify[p]}
    assert redirected == {rule["to"] for rule in redirect_rules}
    for rule in headers_rules:
        assert any(netlify[p]["headers"].items() >= rule["values"].items() for p in paths), rule["for"]


def test_the_comparison_sees_a_host_that_strays():
    """The comparison can fail: a host that serves an alias's page instead of redirecting, and
    sends its own Cache-Control beside netlify.toml's, disagrees three times."""
    stray = http.client.HTTPMessage()
    stray["Cache-Control"] = "no-cache"
    stray["Cache-Control"] = "public, max-age=0, must-revalidate"

    class Stray:
        status, headers = 200, stray

    netlify = {"headers": {"Cache-Control": "public, max-age=0, must-revalidate"}, "status": 301, "location": "/35/"}
    said = _disagreements("/kv-cache-size", netlify, Stray(), {"cache-control"})
    assert [s.split(":")[1].strip() for s in said] == ["cache-control", "status", "Location"], said


@pytest.mark.parametrize(
    "rule",
    [
        'from = "/old/*"\n  to = "/new/:splat"',  # a splat
        'from = "/news/:year/"\n  to = "/archive/"',  # a placeholder
        'from = "/"\n  to = "/index.html"\n  status = 200',  # a rewrite
        'from = "/fr/"\n  to = "/"\n  conditions = {Language = ["fr"]}',  # a condition
    ],
)
def test_a_redirect_the_host_cannot_apply_as_netlify_would_is_refused(tmp_path, rule):
    config = tmp_path / "netlify.toml"
    config.write_text(f"[[redirects]]\n  {rule}\n")
    with pytest.raises(ValueError, match="teach site_builder/serve/host.py"):
        host_rules(config)
