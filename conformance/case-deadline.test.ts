/**
 * The per-case deadline: it fails raced work once it passes, `extend` moves it on, and time spent
 * in `waitOutside` (another case's measurement) does not count.
 */
import { describe, expect, it } from "vitest";
import { CaseDeadline } from "./case-deadline.ts";

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe("CaseDeadline", () => {
  it("fails work that outlasts it", async () => {
    const deadline = new CaseDeadline(50);
    await expect(deadline.race(sleep(200))).rejects.toThrow("timed out after 0.05 s");
    deadline.dispose();
  });

  it("does not count a wait made outside it, nor an extended one", async () => {
    const deadline = new CaseDeadline(80);
    await deadline.waitOutside(sleep(200));
    await expect(deadline.race(sleep(20).then(() => "done"))).resolves.toBe("done");
    deadline.extend(200);
    await expect(deadline.race(sleep(150).then(() => "done"))).resolves.toBe("done");
    deadline.dispose();
  });

  it("counts the time again once the outside wait is over", async () => {
    const deadline = new CaseDeadline(60);
    await deadline.waitOutside(sleep(100));
    await expect(deadline.race(sleep(300))).rejects.toThrow(/timed out/);
    deadline.dispose();
  });
});
