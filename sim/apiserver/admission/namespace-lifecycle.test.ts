/** The immortal namespaces at the HTTP level: 403 on delete (dry run too), in both dialects; other namespaces still go. */
import { describe, expect, it } from "vitest";
import { dialectByName } from "../../../spec/dialects.ts";
import { testServer } from "../test-server.ts";

describe("NamespaceLifecycle: namespaces that may not be deleted", () => {
  for (const dialectName of ["kubernetes", "orb"] as const) {
    it(`keeps default, system and public in the ${dialectName} dialect, and deletes the node-lease one and others`, async () => {
      const { namespaces } = dialectByName(dialectName);
      const { call } = testServer(dialectName);
      for (const name of [namespaces.default, namespaces.system, namespaces.public]) {
        for (const path of [`/api/v1/namespaces/${name}`, `/api/v1/namespaces/${name}?dryRun=All`]) {
          const refused = await call("DELETE", path);
          expect([refused.status, refused.json]).toEqual([
            403,
            {
              kind: "Status",
              apiVersion: "v1",
              metadata: {},
              status: "Failure",
              message: `namespaces "${name}" is forbidden: this namespace may not be deleted`,
              reason: "Forbidden",
              details: { name, kind: "namespaces" },
              code: 403,
            },
          ]);
        }
        const kept = await call("GET", `/api/v1/namespaces/${name}`);
        expect([kept.status, kept.json.status.phase, kept.json.metadata.deletionTimestamp]).toEqual([200, "Active", undefined]);
      }
      await call("POST", "/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: "scratch" } });
      for (const name of [namespaces.nodeLease, "scratch"]) {
        const deleted = await call("DELETE", `/api/v1/namespaces/${name}`);
        expect([deleted.status, deleted.json.status.phase], name).toEqual([200, "Terminating"]);
      }
    });
  }
});
