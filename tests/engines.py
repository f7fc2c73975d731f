"""Firefox and WebKit for the browser tests, behind one small interface, so that the same flows
run in both: Debian's firefox-esr over WebDriver BiDi (puppeteer-core, in Node: engine_bridge.mjs)
and the MiniBrowser of Debian's WebKitGTK through WebKitWebDriver (Selenium), in a virtual X
display since WebKitGTK has no headless mode.  Neither downloads anything: each is given the
browser and the driver installed on the machine."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BRIDGE = Path(__file__).with_name("engine_bridge.mjs")
WEBKIT_LIB = "libwebkit2gtk-4.1-0"


class EngineError(AssertionError):
    pass


class Engine:
    """What a flow needs of a browser.  ``evaluate`` takes a JavaScript expression (a promise is
    awaited); ``problems`` returns and forgets the console errors, page errors and requests that
    left 127.0.0.1 since the last call."""

    name = ""

    def wait_for(self, expression: str, timeout: float = 60, frame: str | None = None):
        deadline = time.monotonic() + timeout
        while True:
            value = self.evaluate(expression, frame)
            if value:
                return value
            if time.monotonic() > deadline:
                raise EngineError(f"{self.name}: still false after {timeout} s: {expression}")
            time.sleep(0.1)


class Firefox(Engine):
    name = "firefox"

    def __init__(self):
        executable = shutil.which("firefox-esr") or shutil.which("firefox")
        if executable is None:
            raise EngineError("Firefox is needed for the browser tests: apt-get install -y firefox-esr")
        self.proc = subprocess.Popen(
            ["node", str(BRIDGE)],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=dict(os.environ, FIREFOX=executable),
            text=True,
        )
        first = self.proc.stdout.readline()
        if not first:
            raise EngineError("Firefox did not start (see the output above)")

    def _call(self, op: str, *args):
        self.proc.stdin.write(json.dumps({"op": op, "args": list(args)}) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise EngineError(f"firefox: the driver stopped during {op}")
        answer = json.loads(line)
        if not answer["ok"]:
            raise EngineError(f"firefox: {op}{args!r}: {answer['error']}")
        return answer["value"]

    def fresh(self, width=1280, height=900, workers=False):
        """A new, empty browser context: no cache, no service worker, no storage.  Its pages
        see a browser without service workers unless ``workers``."""
        self._call("fresh", width, height, workers)

    def goto(self, url, until="load"):
        self._call("goto", url, until)

    def evaluate(self, expression, frame=None):
        return self._call("evaluate", expression, frame)

    def fill(self, selector, text, frame=None):
        self._call("fill", selector, text, frame)

    def press(self, key):
        self._call("press", key)

    def type(self, text):
        self._call("type", text)

    def click(self, selector):
        self._call("click", selector)

    def hover(self, selector):
        self._call("hover", selector)

    def viewport(self, width, height):
        self._call("viewport", width, height)

    def screenshot(self, path):
        self._call("screenshot", str(path))

    def problems(self):
        return self._call("problems")

    def close(self):
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def minibrowser() -> str:
    """The MiniBrowser that ships in the WebKitGTK library's own folder."""
    listed = subprocess.run(["dpkg", "-L", WEBKIT_LIB], capture_output=True, text=True).stdout.split()
    found = [path for path in listed if path.endswith("/MiniBrowser")]
    if not found:
        raise EngineError(f"WebKitGTK's MiniBrowser is needed for the browser tests: apt-get install -y {WEBKIT_LIB}")
    return found[0]


# What the page records of its own errors, for engines whose driver reports no console (classic
# WebDriver): installed after each navigation, so it sees what happens from then on.  Messages
# the engine itself logs (a policy it cannot parse, a refused request) are caught by a second
# run outside automation: see webkit_console.
WATCH = """(() => {
  if (window.__problems) return;
  const found = window.__problems = [];
  addEventListener('error', (e) => found.push('page error: ' + e.message));
  addEventListener('unhandledrejection', (e) => found.push('page error: ' + (e.reason && e.reason.message || e.reason)));
  for (const type of ['error', 'warn']) {
    const original = console[type];
    console[type] = (...args) => { found.push('console ' + type + ': ' + args.join(' ')); original.apply(console, args); };
  }
})()"""


# Resolves once the element (brought into view if it is not) is drawn and has kept its place for
# two animation frames, or after the limit given (ms): the click then goes ahead.
STILL = """const [element, limit, done] = arguments;
element.scrollIntoView({block: 'nearest', inline: 'nearest'});
const started = performance.now();
let last = '';
let same = 0;
const look = () => {
  const r = element.getBoundingClientRect();
  const now = [r.x, r.y, r.width, r.height].join();
  same = r.width && r.height && now === last ? same + 1 : 0;
  last = now;
  if (same >= 2 || performance.now() - started > limit) done(same >= 2);
  else frame();
};
// The next frame, or 100 ms where a page draws none.
const frame = () => {
  let seen = false;
  const once = () => { if (!seen) { seen = true; look(); } };
  requestAnimationFrame(once);
  setTimeout(once, 100);
};
frame();"""


class WebKit(Engine):
    name = "webkit"

    def __init__(self, env: dict | None = None):
        from selenium import webdriver
        from selenium.webdriver.common import selenium_manager
        from selenium.webdriver.webkitgtk.options import Options
        from selenium.webdriver.webkitgtk.service import Service

        driver = shutil.which("WebKitWebDriver")
        if driver is None:
            raise EngineError("WebKitWebDriver is needed for the browser tests: apt-get install -y webkit2gtk-driver")

        def no_download(*args, **kwargs):  # Selenium Manager would look for (and download) a driver
            raise EngineError("Selenium Manager was asked for a driver; the tests give it WebKitWebDriver")

        selenium_manager.SeleniumManager.binary_paths = no_download
        options = Options()
        options.binary_location = minibrowser()
        options.add_argument("--automation")
        options.page_load_strategy = "normal"  # 'eager' never returns in WebKitGTK
        if shutil.which("xvfb-run") is None:
            raise EngineError("xvfb-run is needed for the WebKit tests: apt-get install -y xvfb xauth")
        self.env = dict(os.environ, SE_OFFLINE="true", **(env or {}))

        # Now and then (more often on a loaded machine) the first MiniBrowser never answers the
        # driver: a session not made in 30 s is given up and asked for again.
        class UnderXvfb(Service):
            """WebKitWebDriver started by xvfb-run, which gives it (and its browser) a display of its own."""

            def command_line_args(self):
                return ["-a", "-s", "-screen 0 1400x1000x24 -nolisten tcp", driver, *super().command_line_args()]

        for attempt in range(3):
            socket.setdefaulttimeout(30)
            try:
                self._service = None
                self.driver = webdriver.WebKitGTK(
                    options=options,
                    service=self._service_for(
                        UnderXvfb(
                            executable_path=shutil.which("xvfb-run"),
                            env=self.env,
                            popen_kw={"start_new_session": True},
                            log_output=os.environ.get("WEBKIT_LOG", subprocess.DEVNULL),
                        )
                    ),
                )
                break
            except Exception:
                if attempt == 2:
                    raise
                self._stop(self._service)
            finally:
                socket.setdefaulttimeout(None)
        self.driver.command_executor._client_config.timeout = 300
        self.driver.set_script_timeout(60)
        self._problems = []
        self.size = (1280, 900)
        self.driver.set_window_size(*self.size)

    def _service_for(self, service):
        self._service = service
        return service

    @staticmethod
    def _stop(service):
        """xvfb-run, its X server, the driver and the browser: the whole process group."""
        process = getattr(service, "process", None)
        if process is not None:  # xvfb-run may be gone already, its X server and driver not
            try:
                os.killpg(process.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass

    def _collect(self):
        try:
            self._problems += self.driver.execute_script("return window.__problems ? window.__problems.splice(0) : []")
        except Exception:  # a page gone (navigation, server stopped) has nothing more to say
            pass

    def fresh(self, width=1280, height=900, workers=False):
        """A blank page (a session keeps its cache: flows that need none use a server of their own,
        which is another origin).  ``workers`` is moot here: the session's service worker installs
        once for all its tests."""
        self._collect()
        self.goto("about:blank")
        if (width, height) != self.size:
            self.viewport(width, height)

    def goto(self, url, until="load"):
        self._collect()
        if until == "load":
            self.driver.get(url)
        else:  # the driver would wait for the load event: navigate from the page instead
            self.driver.execute_script("location.href = arguments[0]", url)
            self.wait_for(f"location.href === {url!r} && document.readyState !== 'loading'")
        self.driver.execute_script(WATCH)

    def _run(self, expression):
        script = (
            "const done = arguments[arguments.length - 1];"
            f"Promise.resolve().then(() => ({expression})).then((v) => done({{ok: true, v}}), "
            "(e) => done({ok: false, e: String(e && e.message || e)}));"
        )
        answer = self.driver.execute_async_script(script)
        if not answer["ok"]:
            raise EngineError(f"webkit: {expression}: {answer['e']}")
        return answer.get("v")

    def evaluate(self, expression, frame=None):
        if not frame:
            return self._run(expression)
        self.driver.switch_to.frame(self.driver.find_element("css selector", frame))
        try:
            return self._run(expression)
        finally:
            self.driver.switch_to.default_content()

    def fill(self, selector, text, frame=None):
        if frame:
            # WebKitWebDriver finds no field focusable inside a frame: there the value is set as typing would.
            self.driver.switch_to.frame(self.driver.find_element("css selector", frame))
            try:
                self.driver.execute_script(
                    "const f = document.querySelector(arguments[0]); f.focus(); f.value = arguments[1];"
                    "f.dispatchEvent(new Event('input', {bubbles: true}))",
                    selector,
                    text,
                )
            finally:
                self.driver.switch_to.default_content()
            return
        field = self.driver.find_element("css selector", selector)
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", field)
        field.clear()
        field.send_keys(text)

    def press(self, key):
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.keys import Keys

        ActionChains(self.driver).send_keys(
            getattr(
                Keys, {"Enter": "ENTER", "ArrowDown": "ARROW_DOWN", "Escape": "ESCAPE", "Tab": "TAB"}.get(key, ""), key
            )
        ).perform()

    def type(self, text):
        from selenium.webdriver.common.action_chains import ActionChains

        ActionChains(self.driver).send_keys(text).perform()

    def click(self, selector, timeout: float = 60):
        """A click where the element is now, as Playwright's actionability asks: in view, drawn, and
        at the same place for two frames.  WebKitWebDriver aims at where it finds the element; a page
        still laying out (a table or chart filled after a reply) moves it, and the click misses or
        the element is "not interactable".  So it is brought into view and awaited until still (for
        at most 10 s), and a click refused as not interactable is tried again until ``timeout``."""
        from selenium.common.exceptions import ElementNotInteractableException

        deadline = time.monotonic() + timeout
        while True:
            element = self.driver.find_element("css selector", selector)
            self.driver.execute_async_script(STILL, element, 10_000)
            try:
                element.click()
                return
            except ElementNotInteractableException:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

    def hover(self, selector):
        from selenium.webdriver.common.action_chains import ActionChains

        field = self.driver.find_element("css selector", selector)
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", field)
        ActionChains(self.driver).move_to_element(field).perform()

    def viewport(self, width, height, timeout: float = 30):
        """The page's own size ``width`` × ``height``.  The window's size less what the page sees of it
        is MiniBrowser's own frame, made up for; the X server applies a new size a moment later, so
        the page's size is read again, and the window corrected, until the page sees exactly that or
        its size stays put over three reads (MiniBrowser keeps a window no narrower than its own
        minimum: a phone's width is the narrowest it allows)."""
        self.driver.set_window_size(width, height)
        deadline = time.monotonic() + timeout
        seen = []
        while True:
            time.sleep(0.1)  # a poll: the size the page sees is what ends the loop
            inner = self.driver.execute_script("return [innerWidth, innerHeight]")
            seen.append(inner)
            if inner == [width, height] or seen[-3:] == [inner] * 3 or time.monotonic() > deadline:
                break
            window = self.driver.get_window_size()
            self.driver.set_window_size(window["width"] + width - inner[0], window["height"] + height - inner[1])
        self.size = (width, height)

    def screenshot(self, path):
        self.driver.save_screenshot(str(path))

    def problems(self):
        self._collect()
        found, self._problems = self._problems, []
        return found

    def close(self):
        try:
            self.driver.quit()
        finally:
            self._stop(self._service)


def webkit_console(
    urls: list[str], quiet_s: float, requests, limit_s: float = 90, env: dict | None = None
) -> list[str]:
    """What WebKit writes to its console while it opens ``urls``: MiniBrowser run outside automation
    (a driver's session reports no console) under xvfb-run, one tab per address, until the server
    has had no request for ``quiet_s`` seconds (``requests()`` counts them).  Errors and warnings only."""
    proc = subprocess.Popen(
        [
            "xvfb-run",
            "-a",
            "-s",
            "-screen 0 1400x1000x24 -nolisten tcp",
            minibrowser(),
            "--enable-write-console-messages-to-stdout=true",
            *urls,
        ],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=dict(os.environ, **(env or {})),
        start_new_session=True,
    )
    start = time.monotonic()
    seen, last_change = requests(), time.monotonic()
    try:
        while time.monotonic() - start < limit_s:
            time.sleep(0.25)
            now = requests()
            if now != seen:
                seen, last_change = now, time.monotonic()
            elif now and time.monotonic() - last_change >= quiet_s:
                break
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        output, _ = proc.communicate(timeout=20)
    return [line for line in output.splitlines() if "CONSOLE" in line and ("ERROR" in line or "WARN" in line)]
