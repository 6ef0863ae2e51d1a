import { describe, expect, it } from "vitest";
import { freezeWithResourceVersion, type StoredObject } from "./stored-object.ts";

function isDeepFrozen(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return true;
  return Object.isFrozen(value) && Object.values(value).every(isDeepFrozen);
}

describe("freezeWithResourceVersion", () => {
  it("copies deeply and freezes every level, leaving the writer's object untouched", () => {
    const written: StoredObject = { metadata: { name: "a", labels: { app: "x" } }, spec: { items: [{ port: 80 }, [1, 2]] } };
    const stored = freezeWithResourceVersion(written, "7");
    expect(stored).toEqual({ metadata: { name: "a", labels: { app: "x" }, resourceVersion: "7" }, spec: { items: [{ port: 80 }, [1, 2]] } });
    expect(isDeepFrozen(stored)).toBe(true);
    expect(written.metadata.resourceVersion).toBeUndefined();
    (written["spec"] as { items: { port: number }[] }).items[0]!.port = 81;
    expect((stored["spec"] as { items: { port: number }[] }).items[0]!.port).toBe(80);
  });

  it("keeps the order of fields, resourceVersion where it was or appended", () => {
    const rewritten = freezeWithResourceVersion({ metadata: { name: "a", resourceVersion: "1", uid: "u" }, spec: {} }, "2");
    expect(JSON.stringify(rewritten)).toBe('{"metadata":{"name":"a","resourceVersion":"2","uid":"u"},"spec":{}}');
    const first = freezeWithResourceVersion({ kind: "ConfigMap", metadata: { name: "a" }, data: {} }, "3");
    expect(JSON.stringify(first)).toBe('{"kind":"ConfigMap","metadata":{"name":"a","resourceVersion":"3"},"data":{}}');
  });

  it("keeps an own __proto__ key of a JSON body as data, not as a prototype", () => {
    const written = JSON.parse('{"metadata":{"name":"a"},"data":{"__proto__":{"polluted":"yes"}}}') as StoredObject;
    const stored = freezeWithResourceVersion(written, "2");
    const data = stored["data"] as Record<string, unknown>;
    expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
    expect(Object.hasOwn(data, "__proto__")).toBe(true);
    expect((data as { polluted?: string }).polluted).toBeUndefined();
    expect(JSON.stringify(stored)).toBe('{"metadata":{"name":"a","resourceVersion":"2"},"data":{"__proto__":{"polluted":"yes"}}}');
  });

  it("copies values that are not plain JSON (a Date) whole, frozen", () => {
    const when = new Date(0);
    const stored = freezeWithResourceVersion({ metadata: { name: "a" }, when }, "3");
    expect(stored["when"]).not.toBe(when);
    expect((stored["when"] as Date).getTime()).toBe(0);
    expect(Object.isFrozen(stored["when"])).toBe(true);
  });
});
