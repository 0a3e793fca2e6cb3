/**
 * The Bot API fetch never reaches Node's global Response, Headers or fetch: those load a second,
 * bundled copy of undici (~3 MiB RSS) beside the one the bot already has. Checked in a process of
 * its own, since the test runner itself may load the globals. The answering server is plain
 * `node:net`: importing `node:http` as an ES module loads that copy too (Node 24 builds the module
 * namespace from every export), which the polling bot does not do.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const FETCH_MODULE = fileURLToPath(new URL("../../src/bot/transport/undici-fetch.ts", import.meta.url));

const SCRIPT = `
import { createServer } from "node:net";
const { undiciFetch } = await import(${JSON.stringify(FETCH_MODULE)});
const server = createServer((socket) => {
  let request = "";
  socket.on("data", (chunk) => {
    request += chunk;
    if (!request.includes("\\r\\n\\r\\n{}")) return;
    const probe = /x-probe: (\\w+)/i.exec(request)?.[1];
    request = "";
    const body = JSON.stringify({ ok: true, result: probe });
    socket.write("HTTP/1.1 200 OK\\r\\ncontent-type: application/json\\r\\ncontent-length: " + body.length + "\\r\\n\\r\\n" + body);
  });
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const fetch = undiciFetch();
const url = "http://127.0.0.1:" + server.address().port + "/bot1:x/sendMessage";
const answers = [];
for (const headers of [{ "x-probe": "record" }, [["x-probe", "pairs"]]]) {
  const res = await fetch(url, { method: "POST", headers, body: "{}" });
  answers.push((await res.json()).result);
}
server.close();
console.log(JSON.stringify({ answers, loaded: process.moduleLoadList.includes("NativeModule internal/deps/undici/undici") }));
process.exit(0);
`;

describe("the Bot API fetch and Node's bundled undici", () => {
  it("answers without loading Node's own copy of undici (headers as a record or as pairs)", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", SCRIPT]);
    expect(JSON.parse(stdout)).toEqual({ answers: ["record", "pairs"], loaded: false });
  });
});
