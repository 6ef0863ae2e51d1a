import { describe, expect, it } from "vitest";
import type { Pod, Taint } from "./api-objects.ts";
import { evictionDelayMs } from "./pod-tolerations.ts";

const unreachable: Taint = { key: "node.orb.io/unreachable", effect: "NoExecute" };
const pod = (tolerations: Pod["spec"]["tolerations"]): Pod => ({ metadata: { name: "p" }, spec: { containers: [], ...(tolerations && { tolerations }) } });

describe("evictionDelayMs", () => {
  it("evicts a pod that does not tolerate the taint at once", () => {
    expect(evictionDelayMs(pod(undefined), [unreachable])).toBe(0);
    expect(evictionDelayMs(pod([{ key: "other", operator: "Exists", effect: "NoExecute" }]), [unreachable])).toBe(0);
  });

  it("waits the smallest tolerationSeconds of the tolerations used", () => {
    expect(evictionDelayMs(pod([{ key: unreachable.key, operator: "Exists", effect: "NoExecute", tolerationSeconds: 300 }]), [unreachable])).toBe(300_000);
    expect(evictionDelayMs(pod([{ operator: "Exists", tolerationSeconds: 60 }, { key: unreachable.key, operator: "Exists", tolerationSeconds: 300 }]), [unreachable])).toBe(60_000);
    expect(evictionDelayMs(pod([{ key: unreachable.key, operator: "Exists", effect: "NoExecute", tolerationSeconds: -5 }]), [unreachable])).toBe(0);
  });

  it("keeps a pod that tolerates the taint without a time limit", () => {
    expect(evictionDelayMs(pod([{ key: unreachable.key, operator: "Exists", effect: "NoExecute" }]), [unreachable])).toBeUndefined();
    expect(evictionDelayMs(pod([{ key: unreachable.key, operator: "Exists", effect: "NoSchedule" }]), [unreachable])).toBe(0);
  });
});
