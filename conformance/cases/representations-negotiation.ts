/**
 * Content negotiation (doc 1 §4.3): JSON by default, Accept lists with fallback to the first type
 * served, 406 when nothing listed is served, and the Content-Type of every answer.
 */
import { defineCases } from "../case-definition.ts";
import { check, checkEqual } from "../check.ts";
import { recordOf } from "../client/json-fields.ts";
import { configMap, configMapPath, configMaps, createConfigMap } from "./support/config-maps.ts";
import { checkContentType, JSON_TYPE, tableAccept } from "./support/media-types.ts";
import { metadataOf } from "./support/object-body.ts";
import { checkProtobufObject } from "./support/protobuf-envelope.ts";
import { q } from "./support/query.ts";
import { builtInCollections } from "./support/served-types.ts";
import { brief, checkFailure } from "./support/status-answers.ts";

export const representationNegotiationCases = defineCases("representations", [
  {
    name: "json-is-the-default",
    clauses: ["doc1/4.3/json-default", "doc1/4.3/accept/json", "doc1/4.3/content-type/response"],
    tags: ["mutating"],
    async run(context) {
      const name = context.name("json");
      await createConfigMap(context, name, { key: "value" });
      // No preference (an empty Accept header, and */*): JSON.
      for (const accept of ["", "*/*", JSON_TYPE]) {
        const what = `GET of a ConfigMap with Accept ${JSON.stringify(accept)}`;
        const response = await context.client.get(configMapPath(context, name), { accept });
        checkEqual(response.status, 200, `${what}: status (${brief(response)})`);
        checkContentType(response, JSON_TYPE, what);
        check(recordOf(response.json).kind === "ConfigMap" && metadataOf(response.json).name === name, `${what}: the body is not the ConfigMap in JSON: ${response.text.slice(0, 200)}`);
        const list = await context.client.get(configMaps(context), { accept });
        checkContentType(list, JSON_TYPE, `list with Accept ${JSON.stringify(accept)}`);
        checkEqual(recordOf(list.json).kind, "ConfigMapList", `list with Accept ${JSON.stringify(accept)}: kind of the JSON body`);
      }
      const watch = await context.client.watch(`${configMaps(context)}?watch=1&fieldSelector=${q(`metadata.name=${name}`)}`, { accept: "*/*" });
      try {
        checkEqual(watch.status, 200, "status of a watch with Accept */*");
        checkContentType(watch, JSON_TYPE, "a watch with Accept */*");
        const event = await watch.next(5_000);
        check(event !== undefined && event !== "timeout" && metadataOf(event.object).name === name, `a watch with Accept */* sent no JSON event for ${name}: ${JSON.stringify(event)?.slice(0, 200)}`);
      } finally {
        await watch.close();
      }
      // Doc 1 §4.3: all built-in types support JSON.
      for (const collection of await builtInCollections(context)) {
        const path = `${collection.path(context.namespace)}?limit=1`;
        const response = await context.client.get(path, { accept: JSON_TYPE });
        checkEqual(response.status, 200, `GET ${path} in JSON: status (${brief(response)})`);
        checkContentType(response, JSON_TYPE, `GET ${path}`);
        checkEqual(recordOf(response.json).kind, `${collection.kind}List`, `GET ${path} in JSON: kind`);
      }
    },
  },
  {
    name: "accept-list-falls-back",
    clauses: ["doc1/4.3/accept/fallback", "doc1/4.3/content-type/response", "doc1/4.3/accept/protobuf", "doc1/4.3/accept/table"],
    tags: ["mutating"],
    async run(context) {
      const name = context.name("fallback");
      const created = await createConfigMap(context, name, { key: "value" });
      const path = configMapPath(context, name);
      const binary = context.dialect.protobufMediaType;
      // Transcript accept-fallback: an unserved type first, JSON after it.
      const json = await context.client.get(path, { accept: "text/csv, application/json" });
      checkEqual(json.status, 200, `GET with Accept "text/csv, application/json": status (${brief(json)})`);
      checkContentType(json, JSON_TYPE, `GET with Accept "text/csv, application/json"`);
      checkEqual(metadataOf(json.json).uid, created.metadata.uid, `GET with Accept "text/csv, application/json": uid of the JSON object`);
      // An unserved type, then the binary envelope.
      const accept = `application/xml, ${binary}`;
      const proto = await context.client.get(path, { accept });
      checkEqual(proto.status, 200, `GET with Accept "${accept}": status (${brief(proto)})`);
      checkContentType(proto, binary, `GET with Accept "${accept}"`);
      const decoded = checkProtobufObject(proto.bytes, { apiVersion: "v1", kind: "ConfigMap" }, binary, `GET with Accept "${accept}"`);
      checkEqual(metadataOf(decoded).uid, created.metadata.uid, `GET with Accept "${accept}": uid of the decoded object`);
      // The first listed type the server serves wins: a Table, then JSON (kubectl's list, transcript table-kubectl-accept).
      const tableFirst = `${tableAccept(context)}, application/json`;
      const table = await context.client.get(configMaps(context), { accept: tableFirst });
      checkEqual(table.status, 200, `list with Accept "${tableFirst}": status (${brief(table)})`);
      checkEqual(recordOf(table.json).kind, "Table", `list with Accept "${tableFirst}": kind (the first listed type that is served)`);
      // The same order, reversed: JSON first.
      const jsonFirst = `application/json, ${tableAccept(context)}`;
      const plain = await context.client.get(configMaps(context), { accept: jsonFirst });
      checkEqual(recordOf(plain.json).kind, "ConfigMapList", `list with Accept "${jsonFirst}": kind (the first listed type that is served)`);
      // A watch falls back too.
      const watch = await context.client.watch(`${configMaps(context)}?watch=1&fieldSelector=${q(`metadata.name=${name}`)}`, { accept: "text/csv, application/json" });
      try {
        checkEqual(watch.status, 200, `watch with Accept "text/csv, application/json": status`);
        checkContentType(watch, JSON_TYPE, `watch with Accept "text/csv, application/json"`);
        const event = await watch.next(5_000);
        check(event !== undefined && event !== "timeout" && metadataOf(event.object).name === name, `the watch with Accept "text/csv, application/json" sent no JSON event for ${name}: ${JSON.stringify(event)?.slice(0, 200)}`);
      } finally {
        await watch.close();
      }
    },
  },
  {
    name: "nothing-acceptable-is-406",
    clauses: ["doc1/4.3/406", "doc1/7/406", "doc1/7/not-shown/body-shape"],
    tags: ["mutating"],
    async run(context) {
      const name = context.name("xml");
      await createConfigMap(context, name, { key: "value" });
      // Transcript accept-xml.
      for (const accept of ["application/xml", "text/csv, application/xml"]) {
        checkFailure(await context.client.get(configMapPath(context, name), { accept }), 406, "NotAcceptable", `GET of a ConfigMap with Accept "${accept}"`);
        checkFailure(await context.client.get(configMaps(context), { accept }), 406, "NotAcceptable", `list with Accept "${accept}"`);
      }
      const watched = await context.client.request("GET", `${configMaps(context)}?watch=1&timeoutSeconds=2`, { accept: "application/xml" });
      checkFailure(watched, 406, "NotAcceptable", `watch with Accept "application/xml"`);
      // The Table media type carries v=v1 (doc 1 §9.2): a version the server does not have is nothing it serves.
      checkFailure(await context.client.get(configMaps(context), { accept: tableAccept(context, "v2") }), 406, "NotAcceptable", `list with Accept "${tableAccept(context, "v2")}"`);
      // A write whose answer cannot be sent is refused before it happens.
      const refused = `${name}-refused`;
      const posted = await context.client.post(configMaps(context), configMap(refused), { accept: "application/xml" });
      checkFailure(posted, 406, "NotAcceptable", `POST of a ConfigMap with Accept "application/xml"`);
      const after = await context.client.get(configMapPath(context, refused));
      checkEqual(after.status, 404, `GET of the ConfigMap whose POST was answered 406 (nothing may be created)`);
    },
  },
]);
