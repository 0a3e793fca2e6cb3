import { spawn } from "node:child_process";
import { once } from "node:events";
import { describe, expect, it } from "vitest";

describe("npm run sandbox", () => {
  it("prints its URL and the demo login, serves a code, and exits cleanly on SIGTERM", async () => {
    const child = spawn(process.execPath, ["src/sandbox/main.ts"], {
      env: { ...process.env, PORT: "0" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.setEncoding("utf8");
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on("data", (chunk: string) => {
        output += chunk;
        const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
        if (match?.[1] && output.includes("Ctrl-C")) resolve(match[1]);
      });
      child.once("exit", (code) => reject(new Error(`exited early with ${code}: ${output}`)));
    });
    expect(output).toContain("demo@sandbox.test");
    expect(output).toContain("EXCHANGE_CLIENT_SECRET=sandbox-secret");
    expect(output).toContain("TOTP secret:");
    expect(output).toContain(`curl ${url}/_sandbox/code`);
    const code = (await (await fetch(`${url}/_sandbox/code`)).json()) as { code: string };
    expect(code.code).toMatch(/^\d{6}$/);
    const exited = once(child, "exit");
    child.kill("SIGTERM");
    const [exitCode] = await exited;
    expect(exitCode).toBe(0);
  });
});
