import { describe, expect, it } from "vitest";
import { assert, InvariantViolation } from "./assert.ts";

describe("assert", () => {
  it("passes a condition that holds without making the detail", () => {
    let made = 0;
    assert(2 > 1, "test/holds", () => `made ${++made}`);
    expect(made).toBe(0);
  });

  it("throws an InvariantViolation naming the invariant and the detail", () => {
    const violation = (() => {
      try {
        assert(1 > 2, "test/order", () => "1 is not after 2");
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(violation).toBeInstanceOf(InvariantViolation);
    expect((violation as InvariantViolation).invariant).toBe("test/order");
    expect((violation as Error).message).toBe("invariant test/order violated: 1 is not after 2");
  });
});
