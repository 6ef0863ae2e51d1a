import { describe, expect, it } from "vitest";
import { microTime, rfc3339Seconds } from "./micro-time.ts";

describe("microTime", () => {
  const ms = Date.UTC(2027, 9, 29, 23, 30, 31, 108);

  it("writes RFC 3339 in UTC with six fractional digits", () => {
    expect(microTime(ms)).toBe("2027-10-29T23:30:31.108000Z");
    expect(microTime(ms + 0.25)).toBe("2027-10-29T23:30:31.108250Z");
    expect(microTime(ms + 892)).toBe("2027-10-29T23:30:32.000000Z");
  });

  it("gives the same answer for a time asked twice, and the right one after another time", () => {
    expect(microTime(ms)).toBe("2027-10-29T23:30:31.108000Z");
    expect(microTime(ms)).toBe("2027-10-29T23:30:31.108000Z");
    expect(microTime(ms + 1)).toBe("2027-10-29T23:30:31.109000Z");
    expect(microTime(ms - 1000)).toBe("2027-10-29T23:30:30.108000Z");
  });
});

describe("rfc3339Seconds", () => {
  it("drops the fraction", () => {
    expect(rfc3339Seconds(Date.UTC(2027, 9, 29, 23, 30, 31, 999))).toBe("2027-10-29T23:30:31Z");
  });
});
