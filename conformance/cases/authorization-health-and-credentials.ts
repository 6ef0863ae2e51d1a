/**
 * What needs no authorization, and credentials refused (doc 1 §5, §4.1): the health endpoints are
 * served to every caller, the restricted identity as an anonymous one; a bearer token the server
 * does not know is 401 Unauthorized.
 */
import { randomBytes } from "node:crypto";
import { defineCases } from "../case-definition.ts";
import { checkEqual, checkOneOf } from "../check.ts";
import { configMaps } from "./support/config-maps.ts";
import { checkHealthy, HEALTH_ENDPOINTS } from "./support/health-answers.ts";
import { checkAuthenticated, restrictedClient } from "./support/restricted-identity.ts";
import { checkFailure } from "./support/status-answers.ts";

export const authorizationHealthAndCredentialCases = defineCases("authorization", [
  {
    name: "health-needs-no-authorization",
    clauses: ["doc1/4.1/health/paths", "doc1/4.5/status/200"],
    tags: ["needs-second-identity"],
    async run(context) {
      const restricted = restrictedClient(context);
      // Kubernetes lets every caller read the three endpoints (system:public-info-viewer; doc 1 §5.3).
      for (const endpoint of HEALTH_ENDPOINTS) {
        const response = await restricted.get(`/${endpoint}`, { accept: "text/plain, */*" });
        checkAuthenticated(response, `the restricted identity's GET /${endpoint}`);
        checkHealthy(response, `GET /${endpoint} as the restricted identity`);
        const detailed = await restricted.get(`/${endpoint}?verbose`, { accept: "text/plain, */*" });
        checkEqual(detailed.status, 200, `status of GET /${endpoint}?verbose as the restricted identity (${detailed.text.slice(0, 200)})`);
      }
      // Without credentials (an empty Authorization header: no token): anonymous, still served
      // (transcript health-readyz-anonymous), or 401 where the server turns anonymous access off;
      // never 403, which would mean authorization was applied. A target reached with a client
      // certificate stays signed in, and is served as well.
      for (const endpoint of HEALTH_ENDPOINTS) {
        // The main client: the restricted one may carry an impersonation header, which anonymous may not send.
        const response = await context.client.get(`/${endpoint}`, { accept: "text/plain, */*", headers: { authorization: "" } });
        checkOneOf(response.status, [200, 401], `status of GET /${endpoint} without a token (anonymous: 200, or 401 when the server refuses anonymous callers; ${response.text.slice(0, 200)})`);
      }
    },
  },
  {
    name: "unknown-token-is-unauthorized",
    clauses: ["doc1/5/unauthenticated"],
    tags: [],
    async run(context) {
      const token = `orb-conformance-not-a-token-${randomBytes(16).toString("hex")}`;
      const headers = { authorization: `Bearer ${token}` };
      // Transcript unauthorized: 401 with an Unauthorized Status, for resources and health endpoints alike.
      for (const path of [configMaps(context), "/readyz"]) {
        const response = await context.client.get(path, { headers });
        if (response.status >= 200 && response.status < 300) {
          context.skip(`GET ${path} with an unknown bearer token answered ${response.status}: the target signs this client in another way (a client certificate?), so a bad token cannot be shown`);
        }
        checkFailure(response, 401, "Unauthorized", `GET ${path} with an unknown bearer token`);
      }
    },
  },
]);
