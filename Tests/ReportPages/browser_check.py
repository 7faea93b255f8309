"""Loads BrainBatch report pages in headless Chromium over the DevTools protocol and checks what a reader sees.

    browser_check.py CHROMIUM SCREENSHOT_FOLDER PAGE...

For each page: every console message of level error, uncaught exception, failed load and error log entry;
the page's size; a full-page screenshot (kept in SCREENSHOT_FOLDER as <page>.png); and, from a quarter-scale
screenshot decoded here, the share of pixels that are not the white background, and whether the screenshot is as
tall as the page (not cut off). Prints one JSON object per page on a line. Chromium's own log cannot tell
console.log from console.error (test-infrastructure.md), hence the protocol, spoken over a pipe
(--remote-debugging-pipe: Chromium reads commands on fd 3 and writes replies on fd 4, NUL-terminated JSON).
"""
import base64, json, os, struct, subprocess, sys, tempfile, zlib


class Browser:
    def __init__(self, executable):
        to_chrome_r, to_chrome_w = os.pipe()
        from_chrome_r, from_chrome_w = os.pipe()
        self.profile = tempfile.mkdtemp(prefix="brainbatch-chromium-")

        # Above any descriptor the child's 3 and 4 could collide with.
        import fcntl
        chrome_reads = fcntl.fcntl(to_chrome_r, fcntl.F_DUPFD_CLOEXEC, 10)
        chrome_writes = fcntl.fcntl(from_chrome_w, fcntl.F_DUPFD_CLOEXEC, 10)

        def child_fds():
            os.dup2(chrome_reads, 3)
            os.dup2(chrome_writes, 4)

        self.process = subprocess.Popen(
            [executable, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
             "--no-first-run", "--disable-extensions", "--disable-background-networking",
             f"--user-data-dir={self.profile}", "about:blank"],
            pass_fds=(3, 4), preexec_fn=child_fds,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for fd in (to_chrome_r, from_chrome_w, chrome_reads, chrome_writes):
            os.close(fd)
        self.out = os.fdopen(to_chrome_w, "wb")
        self.inp = os.fdopen(from_chrome_r, "rb")
        self.buffer = b""
        self.next_id = 0
        self.events = []

    def send(self, method, params=None, session=None):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        self.out.write(json.dumps(message).encode() + b"\0")
        self.out.flush()
        while True:
            reply = self.receive()
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def receive(self):
        while b"\0" not in self.buffer:
            chunk = os.read(self.inp.fileno(), 1 << 20)
            if not chunk:
                raise RuntimeError("Chromium closed the pipe")
            self.buffer += chunk
        message, _, self.buffer = self.buffer.partition(b"\0")
        return json.loads(message)

    def wait_for(self, method, session):
        for index, event in enumerate(self.events):
            if event.get("method") == method and event.get("sessionId") == session:
                del self.events[index]
                return event
        while True:
            event = self.receive()
            if event.get("method") == method and event.get("sessionId") == session:
                return event
            self.events.append(event)

    def close(self):
        try:
            self.send("Browser.close")
        except Exception:
            pass
        self.process.wait(timeout=30)
        subprocess.run(["rm", "-rf", self.profile])


def decode_png(data):
    """Width, height, bytes per pixel and rows of an 8-bit RGB(A) PNG."""
    pos, idat, width, height, bpp = 8, b"", 0, 0, 4
    while pos < len(data):
        length, = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour in (2, 6), "expected 8-bit RGB or RGBA"
            bpp = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
    raw = zlib.decompress(idat)
    stride, rows, previous, i = width * bpp, [], bytearray(width * bpp), 0
    for _ in range(height):
        kind, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        if kind == 1:
            for x in range(bpp, stride):
                line[x] = (line[x] + line[x - bpp]) & 255
        elif kind == 2:
            for x in range(stride):
                line[x] = (line[x] + previous[x]) & 255
        elif kind == 3:
            for x in range(stride):
                line[x] = (line[x] + ((line[x - bpp] if x >= bpp else 0) + previous[x]) // 2) & 255
        elif kind == 4:
            for x in range(stride):
                a = line[x - bpp] if x >= bpp else 0
                b, c = previous[x], (previous[x - bpp] if x >= bpp else 0)
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        previous = line
    return width, height, bpp, rows


def check(browser, page, folder):
    target = browser.send("Target.createTarget", {"url": "about:blank"})["targetId"]
    session = browser.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    for domain in ["Page", "Runtime", "Log", "Network"]:
        browser.send(f"{domain}.enable", session=session)
    width = 1280
    browser.send("Emulation.setDeviceMetricsOverride",
                 {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": False}, session=session)
    browser.events = []
    browser.send("Page.navigate", {"url": "file://" + os.path.abspath(page)}, session=session)
    browser.wait_for("Page.loadEventFired", session)
    size = browser.send("Runtime.evaluate", {"returnByValue": True, "expression":
        "JSON.stringify({width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight,"
        " plots: document.querySelectorAll('svg.plot').length, scripts: document.scripts.length})"},
        session=session)["result"]["value"]
    size = json.loads(size)
    errors = []
    for event in browser.events:
        method, params = event.get("method"), event.get("params", {})
        if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            errors.append("console: " + " ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", [])))
        elif method == "Runtime.exceptionThrown":
            errors.append("exception: " + params.get("exceptionDetails", {}).get("text", ""))
        elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
            errors.append("log: " + params["entry"].get("text", ""))
        elif method == "Network.loadingFailed":
            errors.append("failed load: " + params.get("errorText", ""))
        elif method == "Network.requestWillBeSent":
            url = params.get("request", {}).get("url", "")
            if not url.startswith("file://") and not url.startswith("data:") and url != "about:blank":
                errors.append("request: " + url)
    height = size["height"]
    clip = {"x": 0, "y": 0, "width": width, "height": height, "scale": 1}
    shot = browser.send("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True, "clip": clip},
                        session=session)
    name = os.path.basename(page).rsplit(".", 1)[0] + ".png"
    open(os.path.join(folder, name), "wb").write(base64.b64decode(shot["data"]))
    clip["scale"] = 0.25
    small = browser.send("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True, "clip": clip},
                         session=session)
    w, h, bpp, rows = decode_png(base64.b64decode(small["data"]))
    inked = 0
    last_inked_row = -1
    for y, row in enumerate(rows):
        count = sum(1 for x in range(0, len(row), bpp) if row[x] < 245 or row[x + 1] < 245 or row[x + 2] < 245)
        inked += count
        if count:
            last_inked_row = y
    browser.send("Target.closeTarget", {"targetId": target})
    return {"page": page, "errors": errors, "width": size["width"], "height": height, "plots": size["plots"],
            "scripts": size["scripts"], "screenshot": [w, h], "ink": inked / max(1, w * h),
            "last_inked_row": last_inked_row, "screenshot_file": name}


def main():
    executable, folder, pages = sys.argv[1], sys.argv[2], sys.argv[3:]
    os.makedirs(folder, exist_ok=True)
    browser = Browser(executable)
    try:
        for page in pages:
            print(json.dumps(check(browser, page, folder)), flush=True)
    finally:
        browser.close()


main()
