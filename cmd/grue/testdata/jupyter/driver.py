"""Drives grue's Jupyter kernel with Jupyter's own client (jupyter_client).

Run by TestJupyterKernel (cmd/grue/kernel_test.go) with JUPYTER_PATH naming
the folder that holds the grue kernelspec. Each check prints "ok NAME";
the first that fails raises, and the script exits non-zero.
"""
import base64
import queue
import sys
import time

from jupyter_client.manager import start_new_kernel

TIMEOUT = 60


def run(kc, code, **kw):
    """Executes code; returns (iopub messages of the request, execute_reply content)."""
    msg_id = kc.execute(code, **kw)
    msgs = []
    while True:
        m = kc.get_iopub_msg(timeout=TIMEOUT)
        if m["parent_header"].get("msg_id") != msg_id:
            continue
        msgs.append(m)
        if m["msg_type"] == "status" and m["content"]["execution_state"] == "idle":
            break
    while True:
        r = kc.get_shell_msg(timeout=TIMEOUT)
        if r["parent_header"].get("msg_id") == msg_id:
            return msgs, r["content"]


def types(msgs):
    return [m["msg_type"] for m in msgs]


def of(msgs, t):
    return [m["content"] for m in msgs if m["msg_type"] == t]


def shell_reply(kc, msg_id):
    while True:
        r = kc.get_shell_msg(timeout=TIMEOUT)
        if r["parent_header"].get("msg_id") == msg_id:
            return r["content"]


def replies(kc, msg_ids):
    """The execute_reply contents of the requests msg_ids, by id."""
    out = {}
    while len(out) < len(msg_ids):
        r = kc.get_shell_msg(timeout=TIMEOUT)
        if r["parent_header"].get("msg_id") in msg_ids:
            out[r["parent_header"]["msg_id"]] = r["content"]
    return out


def check(name, cond, detail=""):
    if not cond:
        raise AssertionError(f"{name}: {detail}")
    print("ok", name, flush=True)


def main():
    km, kc = start_new_kernel(kernel_name="grue", startup_timeout=TIMEOUT)
    try:
        info = kc.kernel_info(reply=True, timeout=TIMEOUT)["content"]
        check("kernel_info", info["protocol_version"].startswith("5.") and info["language_info"]["name"] == "go"
              and info["implementation"] == "grue", info)
        check("heartbeat", kc.hb_channel.is_beating() and km.is_alive())

        msgs, reply = run(kc, 'x := 41\nfmt.Println("hi")\nx + 1')
        check("execute status busy/idle", types(msgs)[0] == "status" and types(msgs)[-1] == "status", types(msgs))
        check("execute_input", of(msgs, "execute_input")[0]["execution_count"] == 1)
        check("stream", of(msgs, "stream") == [{"name": "stdout", "text": "hi\n"}], of(msgs, "stream"))
        res = of(msgs, "execute_result")
        check("execute_result", res and res[0]["data"]["text/plain"] == "42" and res[0]["execution_count"] == 1, res)
        check("execute_reply", reply["status"] == "ok" and reply["execution_count"] == 1, reply)

        msgs, reply = run(kc, "x * 2")
        check("state across cells", of(msgs, "execute_result")[0]["data"]["text/plain"] == "82", msgs)
        check("execution_count counts", reply["execution_count"] == 2, reply)

        msgs, reply = run(kc, 'fmt.Println("quiet")', silent=True)
        check("silent", reply["status"] == "ok" and "stream" not in types(msgs) and "execute_input" not in types(msgs), types(msgs))
        msgs, reply = run(kc, "x", store_history=False)
        check("store_history false keeps the count", reply["execution_count"] == 2, reply)

        msgs, reply = run(kc, "undefinedName + 1")
        err = of(msgs, "error")
        check("error", reply["status"] == "error" and err and "undefined: undefinedName" in err[0]["evalue"], (reply, err))
        msgs, reply = run(kc, 'panic("boom")')
        check("panic", reply["status"] == "error" and reply["ename"] == "panic", reply)

        msgs, reply = run(kc, 'type row struct{ Name string; Score int }\n[]row{{"a<b", 1}, {"c", 2}}')
        html = of(msgs, "execute_result")[0]["data"].get("text/html", "")
        check("value as HTML table", "<table>" in html and "<td>a&lt;b</td>" in html, html)
        msgs, reply = run(kc, ':table []row{{"a", 1}, {"b", 2}}')
        d = of(msgs, "display_data")
        check("table as text/html", d and "<th>Name</th>" in d[0]["data"]["text/html"] and "Score" in d[0]["data"]["text/plain"], d)
        msgs, reply = run(kc, ':table --md []row{{"a", 1}}')
        d = of(msgs, "display_data")
        check("table --md as text/markdown", d and d[0]["data"]["text/markdown"].startswith("| Name"), d)

        msgs, reply = run(kc, ':play look\n')
        msgs, reply = run(kc, ':step 3')
        msgs, reply = run(kc, 'ep')
        res = of(msgs, "execute_result")
        html = res[0]["data"].get("text/html", "") if res else ""
        check("episode as an HTML transcript", "<th>observation</th>" in html and "Meadow" in html and res[0]["data"]["text/plain"], html[:300])
        msgs, reply = run(kc, 'ep.Agent.History[0]')
        html = of(msgs, "execute_result")[0]["data"].get("text/html", "")
        check("step as an HTML transcript", "<td>1</td>" in html and "<th>call</th>" in html, html[:300])
        msgs, reply = run(kc, ':plot ep')
        d = of(msgs, "display_data")
        png = base64.b64decode(d[0]["data"]["image/png"]) if d else b""
        check("plot as image/png", png.startswith(b"\x89PNG\r\n\x1a\n") and "<svg" in d[0]["data"]["image/svg+xml"], (reply, types(msgs)))

        msgs, reply = run(kc, ':clear')
        check("clear_output", of(msgs, "clear_output"), types(msgs))

        c = kc.complete("strings.Spl", 11, reply=True, timeout=TIMEOUT)["content"]
        check("complete", "Split" in c["matches"] and c["cursor_start"] == 8 and c["cursor_end"] == 11, c)
        i = kc.inspect("strings.Split(s, sep)", 9, reply=True, timeout=TIMEOUT)["content"]
        check("inspect", i["found"] and "Split(" in i["data"]["text/plain"] and "[]string" in i["data"]["text/plain"], i)
        r = shell_reply(kc, kc.is_complete("if x > 1 {"))
        check("is_complete incomplete", r["status"] == "incomplete", r)
        r = shell_reply(kc, kc.is_complete("x + 1"))
        check("is_complete complete", r["status"] == "complete", r)
        r = kc.comm_info(reply=True, timeout=TIMEOUT)["content"]
        check("comm_info", r["status"] == "ok" and r["comms"] == {}, r)

        # Interrupt an endless loop; the kernel lives and keeps its state.
        msg_id = kc.execute("for {}")
        time.sleep(1.5)
        km.interrupt_kernel()
        reply = None
        while reply is None:
            r = kc.get_shell_msg(timeout=TIMEOUT)
            if r["parent_header"].get("msg_id") == msg_id:
                reply = r["content"]
        check("interrupt of for {}", reply["status"] == "error" and reply["ename"] == "interrupted", reply)
        msgs, reply = run(kc, "x")
        check("alive after interrupt", of(msgs, "execute_result")[0]["data"]["text/plain"] == "41", msgs)

        # stop_on_error (on by default): the execute requests queued behind
        # a failing cell are aborted, not run; with it off they run.
        slow_fail = 'func() { time.Sleep(300 * time.Millisecond); panic("boom") }()'
        ids = [kc.execute(slow_fail), kc.execute("x = 100"), kc.execute("y := 1")]
        r = replies(kc, ids)
        check("stop_on_error: the failing cell", r[ids[0]]["status"] == "error", r)
        check("stop_on_error: the queued cells aborted", [r[i]["status"] for i in ids[1:]] == ["aborted", "aborted"], r)
        msgs, reply = run(kc, "x")
        check("aborted cells did not run", of(msgs, "execute_result")[0]["data"]["text/plain"] == "41", msgs)
        msgs, reply = run(kc, "x + 1")
        check("after an abort, cells run again", reply["status"] == "ok", reply)
        ids = [kc.execute(slow_fail, stop_on_error=False), kc.execute("y := 7"), kc.execute("y")]
        r = replies(kc, ids)
        check("stop_on_error off: the queued cells run", r[ids[0]]["status"] == "error" and r[ids[1]]["status"] == "ok" and r[ids[2]]["status"] == "ok", r)
        msgs, reply = run(kc, "y")
        check("stop_on_error off: their state kept", of(msgs, "execute_result")[0]["data"]["text/plain"] == "7", msgs)

        # stdin: with allow_stdin, a cell reading os.Stdin asks the front end
        # (input_request on the stdin channel) and reads its input_reply.
        msg_id = kc.execute('var word string\nn, err := fmt.Scan(&word)\nfmt.Println(n, err, word)', allow_stdin=True)
        req = kc.get_stdin_msg(timeout=TIMEOUT)
        check("input_request", req["msg_type"] == "input_request" and req["parent_header"]["msg_id"] == msg_id
              and req["content"]["password"] is False and req["content"]["prompt"] == "", req)
        kc.input("grue")
        msgs = []
        while not msgs or not (msgs[-1]["msg_type"] == "status" and msgs[-1]["content"]["execution_state"] == "idle"):
            m = kc.get_iopub_msg(timeout=TIMEOUT)
            if m["parent_header"].get("msg_id") == msg_id:
                msgs.append(m)
        out = "".join(c["text"] for c in of(msgs, "stream"))
        check("input_reply read by fmt.Scan", "1 <nil> grue" in out, msgs)
        check("the reply of a cell that read input", shell_reply(kc, msg_id)["status"] == "ok")
        msgs, reply = run(kc, 'var word2 string\nn2, err2 := fmt.Scan(&word2)\nfmt.Println(n2, err2)', allow_stdin=False)
        out = "".join(c["text"] for c in of(msgs, "stream"))
        check("no allow_stdin: end of file", "0 EOF" in out and reply["status"] == "ok", msgs)
        # An interrupt ends a wait for input.
        msg_id = kc.execute('var word3 string\nfmt.Scan(&word3)\nfor {}', allow_stdin=True)
        req = kc.get_stdin_msg(timeout=TIMEOUT)
        km.interrupt_kernel()
        reply = shell_reply(kc, msg_id)
        check("interrupt while waiting for input", reply["status"] == "error" and reply["ename"] == "interrupted", reply)

        # A long ep.Run stops too: ctx, the cell's context, is cancelled.
        # The agent's step limit (100 by default, which a fast machine
        # plays before the interrupt) is lifted, so the run is long.
        msgs, reply = run(kc, "ep.Agent.Limits.MaxSteps = 0")
        check("step limit lifted", reply["status"] == "ok", reply)
        msg_id = kc.execute("ep.Run(ctx, 1000000)")
        time.sleep(1.5)
        t0 = time.time()
        km.interrupt_kernel()
        reply = shell_reply(kc, msg_id)
        check("interrupt of ep.Run", reply["status"] == "error" and reply["ename"] == "interrupted" and time.time() - t0 < 10,
              (reply, time.time() - t0))

        # A message signed with another key is refused: no reply, and the
        # kernel goes on answering the right key.
        bad = km.client()
        bad.session.key = b"not-the-key"
        bad.start_channels()
        bad.kernel_info()
        try:
            got = bad.get_shell_msg(timeout=3)
        except queue.Empty:
            got = None
        bad.stop_channels()
        check("bad signature refused", got is None, got)
        check("alive after bad signature", kc.kernel_info(reply=True, timeout=TIMEOUT)["content"]["status"] == "ok")

        km.restart_kernel(now=False)
        kc.wait_for_ready(timeout=TIMEOUT)
        msgs, reply = run(kc, "1 + 1")
        check("restart", of(msgs, "execute_result")[0]["data"]["text/plain"] == "2" and reply["execution_count"] == 1, reply)
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=False)
    check("shutdown", not km.is_alive())


if __name__ == "__main__":
    main()
