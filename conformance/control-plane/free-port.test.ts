import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { ephemeralRangeStart, freeLoopbackPorts } from "./free-port.ts";

describe("free loopback ports for the servers the harness starts", () => {
  it("reads the start of the kernel's ephemeral range, and falls back to Linux's default", () => {
    expect(ephemeralRangeStart("40000\t60999\n")).toBe(40000);
    expect(ephemeralRangeStart(undefined)).toBe(32768);
    expect(ephemeralRangeStart("garbage")).toBe(32768);
    expect(ephemeralRangeStart("1024 65535")).toBe(32768); // leaves no room below: the default
  });

  it("hands out distinct ports below the ephemeral range, each free to listen on", async () => {
    const ports = Object.values(await freeLoopbackPorts(["a", "b", "c", "d", "e", "f", "g", "h"]));
    expect(new Set(ports).size).toBe(8);
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(10_000);
      expect(port).toBeLessThan(ephemeralRangeStart());
      const server = createServer();
      await new Promise<void>((resolve, reject) => server.once("error", reject).listen(port, "127.0.0.1", resolve));
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
