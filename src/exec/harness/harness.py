# mf exec harness (Python): imports the entry module, calls one function with the arguments read
# from stdin as keyword arguments, and writes one envelope line `NONCE{json}` on stdout. What the
# tool prints goes to stderr so stdout holds the envelope. Written by mf into a fresh temp folder.
import asyncio
import errno
import importlib.util
import json
import os
import sys
import time


def describe(error):
    out = {"type": type(error).__name__, "message": str(error)[:2000]}
    number = getattr(error, "errno", None)
    if isinstance(number, int) and number in errno.errorcode:
        out["code"] = errno.errorcode[number]
    return out


def peak_rss_bytes():
    try:
        import resource

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak if sys.platform == "darwin" else peak * 1024
    except Exception:
        return None


def main():
    entry, tool, nonce = sys.argv[1:4]
    real_stdout = sys.stdout
    sys.stdout = sys.stderr

    def finish(envelope):
        envelope["peakRssBytes"] = peak_rss_bytes()
        real_stdout.write("\n" + nonce + json.dumps(envelope) + "\n")
        real_stdout.flush()
        sys.stderr.flush()
        os._exit(0)

    text = sys.stdin.read()
    args = json.loads(text) if text.strip() else {}
    try:
        sys.path.insert(0, os.path.dirname(entry))
        spec = importlib.util.spec_from_file_location("mf_tool_entry", entry)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except BaseException as error:  # noqa: BLE001 - report whatever the import raised
        finish({"ok": False, "stage": "load", "error": describe(error)})
    function = getattr(module, tool, None)
    if not callable(function):
        finish({"ok": False, "stage": "lookup", "error": {"type": "LookupError", "message": f"the module has no function {tool!r}"}})
    started = time.perf_counter()
    try:
        result = function(**args) if isinstance(args, dict) else function(args)
        if asyncio.iscoroutine(result):
            result = asyncio.run(result)
    except BaseException as error:  # noqa: BLE001 - the tool's failure is the result
        finish({"ok": False, "error": describe(error), "durationMs": (time.perf_counter() - started) * 1000})
    duration_ms = (time.perf_counter() - started) * 1000
    try:
        text = json.dumps(result)
    except (TypeError, ValueError) as error:
        finish({"ok": False, "stage": "serialize", "durationMs": duration_ms, "error": {"type": "SerializationError", "message": f"the result is not JSON: {error}"}})
    finish({"ok": True, "result": json.loads(text), "durationMs": duration_ms})


main()
