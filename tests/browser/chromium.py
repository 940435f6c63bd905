"""Headless Chromium for tests: open a page, collect its console log and every request it makes.

Chromium and chromedriver come from the Debian packages ``chromium`` and
``chromium-driver`` (``scripts/install-test-deps.sh`` installs them in CI);
selenium drives them.  The browser starts with a fresh profile and with the
background services that would otherwise talk to the network switched off,
so the only requests seen are the page's own.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional
from urllib.parse import urlsplit

__all__ = ["FLAGS", "PageLoad", "Chromium", "find_binaries", "leaves_local"]

FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--window-size=1280,1000",
)
LOCAL_SCHEMES = ("file", "data", "about", "blob")
BROWSER_SCHEMES = ("chrome", "chrome-untrusted", "devtools")
LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1", "[::1]")


def find_binaries() -> tuple[Optional[str], Optional[str]]:
    """(chromium, chromedriver) paths, or ``None`` for each one not installed."""
    browser = os.environ.get("CHROMIUM_BINARY") or shutil.which("chromium") or shutil.which("chromium-browser")
    driver = os.environ.get("CHROMEDRIVER") or shutil.which("chromedriver")
    return browser, driver


def leaves_local(url: str) -> bool:
    """True when a request goes anywhere but file://, data:, about:, blob: or localhost."""
    parts = urlsplit(url)
    if parts.scheme in LOCAL_SCHEMES:
        return False
    return not (parts.scheme in ("http", "https", "ws", "wss") and (parts.hostname or "") in LOCAL_HOSTS)


@dataclass
class PageLoad:
    """What one page load produced."""

    url: str
    console: list[dict] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)

    @property
    def errors(self) -> list[str]:
        """Console messages at level SEVERE (JavaScript errors, failed loads, CSP violations)."""
        return [e["message"] for e in self.console if e.get("level") == "SEVERE"]

    @property
    def external(self) -> list[str]:
        return [u for u in self.requests if leaves_local(u)]


class Chromium:
    """One headless Chromium (fresh profile in ``profile_dir``) driven by selenium."""

    def __init__(self, profile_dir: Path):
        from selenium import webdriver
        from selenium.webdriver.chrome.options import Options
        from selenium.webdriver.chrome.service import Service

        browser, driver = find_binaries()
        opts = Options()
        for flag in FLAGS:
            opts.add_argument(flag)
        opts.add_argument(f"--user-data-dir={profile_dir}")
        opts.binary_location = browser
        opts.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
        self.driver = webdriver.Chrome(options=opts, service=Service(driver))
        self.driver.get("about:blank")

    def open(self, target: str | Path, *, ready: str = "data-stabilized", timeout: float = 30.0) -> PageLoad:
        """Load a page and wait until ``<body>`` carries the attribute ``ready``.

        Logs are drained before navigating, so the result holds only this
        page's console messages and requests.
        """
        url = Path(target).resolve().as_uri() if not str(target).startswith(("file:", "http:", "https:")) else str(target)
        self.driver.get_log("browser")
        self.driver.get_log("performance")
        self.driver.get(url)
        deadline = time.monotonic() + timeout
        while not self.driver.execute_script(f"return document.body && document.body.getAttribute('{ready}')"):
            if time.monotonic() > deadline:
                raise TimeoutError(f"{url}: <body {ready}> not set within {timeout:.0f} s; "
                                   f"console: {self.driver.get_log('browser')}")
            time.sleep(0.05)
        return self.collect(url)

    def collect(self, url: str) -> PageLoad:
        """Console messages and requests since the last collection."""
        load = PageLoad(url, console=list(self.driver.get_log("browser")))
        for entry in self.driver.get_log("performance"):
            msg = json.loads(entry["message"])["message"]
            if msg["method"] == "Network.requestWillBeSent":
                # The browser's own pages (the new-tab page at start-up) load chrome:// resources; only
                # requests issued from other documents are the page's.
                if urlsplit(msg["params"].get("documentURL", "")).scheme in BROWSER_SCHEMES:
                    continue
                load.requests.append(msg["params"]["request"]["url"])
            elif msg["method"] == "Network.loadingFailed" and not msg["params"].get("canceled"):
                load.failed.append(f'{msg["params"].get("type")}: {msg["params"].get("errorText")}')
        return load

    def js(self, script: str, *args):
        return self.driver.execute_script(script, *args)

    def screenshot(self, path: Path) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.driver.save_screenshot(str(path))
        return path

    def quit(self) -> None:
        self.driver.quit()
