/**
 * A namespace create that gets no answer may still have happened: soak deletes the namespace
 * before giving up, and says whether it had to.
 */
import { describe, expect, it } from "vitest";
import { SoakConnection } from "./soak-connection.ts";
import { createSoakNamespace, SoakNamespaceError } from "./soak-namespace.ts";

const NAMESPACE = "orb-soak-unanswered";

/** A server that never answers the create, and answers the delete with `deleteStatus`. */
function connection(deleteStatus: number, sent: string[]): SoakConnection {
  const transport = (request: Request): Promise<Response> => {
    sent.push(request.method);
    if (request.method === "DELETE") return Promise.resolve(new Response("{}", { status: deleteStatus, headers: { "content-type": "application/json" } }));
    return new Promise((_resolve, reject) => request.signal.addEventListener("abort", () => reject(request.signal.reason)));
  };
  return new SoakConnection({ transport, authHeaders: {} }, "http://127.0.0.1:1", NAMESPACE, 50);
}

describe("creating soak's namespace without an answer", () => {
  it("deletes it again when the create had happened", async () => {
    const sent: string[] = [];
    const created = createSoakNamespace(connection(200, sent));
    await expect(created).rejects.toBeInstanceOf(SoakNamespaceError);
    await expect(created).rejects.toThrow(/it had been made: deleted again/);
    expect(sent).toEqual(["POST", "DELETE"]);
  });

  it("says nothing more when there was nothing to delete", async () => {
    const sent: string[] = [];
    await expect(createSoakNamespace(connection(404, sent))).rejects.toThrow(new RegExp(`^could not create namespace ${NAMESPACE}: [^(]*$`));
    expect(sent).toEqual(["POST", "DELETE"]);
  });
});
