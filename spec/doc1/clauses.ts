/**
 * Doc 1 (the resource API) as a catalog of clauses: one stable id per statement of the document,
 * so the model, the conformance suite and the reports cite the same thing.
 *
 * Id scheme: `doc1/<section>/<slug>`, where `<section>` is the document's section ("4.7", "3")
 * and the slug names the statement. Table cells of §4.7 are `doc1/4.7/<table>/...`; a list cell's
 * id is its row's id plus the resourceVersion column (`.../rv-unset`, `.../rv-0`, `.../rv-other`).
 * Where doc 1 says "not shown", or leaves a case out, the clause has `origin: "gap"` and records
 * what Kubernetes 1.26 answers (the reference transcripts in spec/reference/kube-apiserver-1.26).
 * Ids never change once published; retire an id rather than reuse it for another statement.
 */

import { KUBERNETES_CRD_CLAUSES } from "../kubernetes/crd-clauses.ts";

/**
 * Where a clause's answer comes from: doc 1's own words, a gap doc 1 leaves that Kubernetes fills,
 * or Kubernetes behaviour doc 1 does not cover at all (spec/kubernetes/, ids `k8s/<area>/<slug>`).
 */
export type ClauseOrigin = "doc1" | "gap" | "kubernetes";

interface ClauseEntry<I extends string> {
  readonly id: I;
  readonly text: string;
  readonly testable: boolean;
  readonly origin: ClauseOrigin;
  readonly why?: string;
  readonly kubernetes?: string;
  readonly parent?: string;
}

// A testable statement in doc 1's words.
function rule<const I extends string>(id: I, text: string): ClauseEntry<I> {
  return { id, text, testable: true, origin: "doc1" };
}

// A statement that no HTTP exchange can check (client obligations, permissions, flags, history).
function untestable<const I extends string>(id: I, text: string, why: string): ClauseEntry<I> {
  return { id, text, testable: false, origin: "doc1", why };
}

// A case doc 1 leaves open; `kubernetes` says what Kubernetes 1.26 does, which the harness follows.
function gap<const I extends string>(id: I, text: string, kubernetes: string, why?: string): ClauseEntry<I> {
  return why === undefined
    ? { id, text, testable: true, origin: "gap", kubernetes }
    : { id, text, testable: false, origin: "gap", kubernetes, why };
}

// A cell of a §4.7 table row; `parent` is the row's clause.
function cell<const I extends string>(id: I, parent: string, text: string): ClauseEntry<I> {
  return { id, text, testable: true, origin: "doc1", parent };
}

// A cell of a row doc 1 does not have; Kubernetes' answer is in `kubernetes`.
function gapCell<const I extends string>(id: I, parent: string, text: string, kubernetes: string): ClauseEntry<I> {
  return { id, text, testable: true, origin: "gap", kubernetes, parent };
}

const CLIENT = "a client obligation: nothing the server sends can show whether a client keeps it";
const PERMISSION = "a permission ('may'), not an obligation: no response can violate it";
const OPEN = "doc 1 leaves this open; the Kubernetes answer is recorded for the server and the suite";

const entries = [
  // §1 What the service does
  rule("doc1/1/http-methods", "Clients retrieve, create, update and delete resources with GET, POST, PUT, PATCH and DELETE."),
  untestable("doc1/1/subresources", "Some resources have subresources, which allow finer authorization and may be served in other representations.", "describes what subresources are for; subresource paths are checked by doc1/4.1/subresource/get"),
  untestable("doc1/1/features", "The service also provides watches, consistent lists optionally in chunks, dry-run, Table and Protobuf representations, and /healthz, /livez, /readyz.", "a summary: each feature has its own clauses in §2 to §4"),
  untestable("doc1/1/terminology", "Resource type, kind, collection, resource, subresource, object type and virtual type mean what the terminology table says.", "definitions"),
  rule("doc1/1/virtual-type/subjectaccessreview", "A permission check is a virtual type: a POST of a SubjectAccessReview body to subjectaccessreviews."),
  rule("doc1/1/virtual-type/eviction", "The eviction subresource of a Pod is a virtual type: it represents an operation instead of an object."),
  untestable("doc1/1/verbs/names", "Verbs are lowercase: get, list, watch, create, update, patch, delete, deletecollection, apply, proxy.", "vocabulary of authorization rules, exercised through doc1/5/rule/fields"),
  rule("doc1/1/verbs/list-vs-get", "list returns a collection; get returns one resource."),
  rule("doc1/1/verbs/watch-query", "A GET with the watch query parameter is a watch, not a get."),
  rule("doc1/1/verbs/put-create-or-update", "A PUT is classified internally as create or update depending on whether the object exists."),
  rule("doc1/1/verbs/update-not-patch", "update is different from patch; patch is HTTP PATCH."),
  rule("doc1/1/verbs/single-resource", "get, create, apply, update, patch, delete and proxy act on a single resource only and accept no list or transaction of several resources."),
  rule("doc1/1/verbs/several-resources", "list, watch and deletecollection act on several resources."),
  untestable("doc1/1/verbs/series-of-requests", "Clients that act on a set send a series of single requests.", CLIENT),
  // apply is one of §1's verbs; doc 1 says nothing more of it. What Kubernetes 1.26 does was
  // recorded (sim/apiserver/apply/recorded/, conformance/record/record-server-side-apply.ts).
  gap("doc1/1/verbs/apply/content-type", "How an apply is sent is not shown.", "PATCH of the object with Content-Type application/apply-patch+yaml; the body is the applied configuration, YAML or JSON"),
  gap("doc1/1/verbs/apply/creates", "Whether apply creates an object that does not exist is not said.", "it does: 201 with the created object"),
  gap("doc1/1/verbs/apply/field-manager-required", "Who applies is not said.", "fieldManager is required: 422 Invalid on PatchOptions, cause FieldValueRequired on fieldManager"),
  gap("doc1/1/verbs/apply/managed-fields", "How an object records who applied what is not said.", "metadata.managedFields: per manager an entry with manager, operation Apply, apiVersion, time (RFC 3339, seconds), fieldsType FieldsV1 and fieldsV1, the set of fields it owns"),
  gap("doc1/1/verbs/apply/conflict", "What an apply that changes another manager's fields does is not said.", "409 Conflict, message `Apply failed with N conflict(s): ...`, one cause per field, reason FieldManagerConflict, field `.data.x`, message `conflict with \"<manager>\"`"),
  gap("doc1/1/verbs/apply/force", "How an applier overrides another's fields is not said.", "force=true: the conflicting fields change and their ownership moves to the applier"),
  gap("doc1/1/verbs/apply/shared", "What two managers applying the same value do is not said.", "no conflict: both own the field"),
  gap("doc1/1/verbs/apply/removal", "What happens to a field a manager stops applying is not said.", "it is removed from the object unless another manager owns it"),
  gap("doc1/1/verbs/apply/update-operation", "How other writes are recorded beside applies is not said.", "a create, update or non-apply patch adds what it changed to an Update entry of its fieldManager (else its User-Agent's product) and apiVersion, taking those fields from other managers"),
  gap("doc1/1/verbs/apply/dry-run", "Whether apply takes dryRun is not said.", "dryRun=All: the answer is the applied object, nothing is stored"),

  // §2.1 Object names
  rule("doc1/2.1/name/unique", "Every object created through the API has a unique name, which gives idempotent creation and retrieval."),
  untestable("doc1/2.1/name/virtual-may-repeat", "Virtual types that are not retrievable, or do not rely on idempotency, may have non-unique names.", PERMISSION),
  rule("doc1/2.1/name/one-per-namespace", "Within a namespace only one object of a given kind may have a given name at a time."),
  rule("doc1/2.1/name/reuse-after-delete", "After deletion the name may be reused."),
  rule("doc1/2.1/name/cluster-scoped-unique", "Objects that are not namespaced (for example Nodes) have names unique across the whole cluster."),
  rule("doc1/2.1/namespace-deletion-cascades", "A namespace-scoped resource is deleted when its namespace is deleted."),

  // §2.2 Object metadata fields
  rule("doc1/2.2/name/generate-name", "When the request sets generateName, the server generates metadata.name, a unique random value."),
  rule("doc1/2.2/namespace/present", "metadata.namespace is present on namespaced objects."),
  rule("doc1/2.2/resource-version/last-modified", "metadata.resourceVersion is the opaque version at which the object was last modified."),
  rule("doc1/2.2/creation-timestamp/set", "metadata.creationTimestamp is set at creation."),
  rule("doc1/2.2/deletion-timestamp/first-delete", "metadata.deletionTimestamp is nil until the first delete request sets it to the current time."),
  rule("doc1/2.2/finalizers/shared", "metadata.finalizers is shared: any permitted actor may change or reorder it."),
  rule("doc1/2.2/uid/unique", "metadata.uid is random and unique."),
  gap("doc1/2.2/other-fields", "Other fields of the metadata schema: not shown.", "labels, annotations, generation, ownerReferences, deletionGracePeriodSeconds; managedFields appear on every object", OPEN),

  // §2.3 Collections
  rule("doc1/2.3/kind/list-suffix", "A list response has kind <Kind>List (for example PodList, ServiceList, NodeList)."),
  rule("doc1/2.3/api-version", "A list's apiVersion is the group/version of its items, for example v1."),
  rule("doc1/2.3/resource-version/constructed-at", "A list's metadata.resourceVersion is the version at which the collection was constructed."),
  rule("doc1/2.3/continue/next-chunk", "metadata.continue is the token for the next chunk."),
  rule("doc1/2.3/continue/empty-when-complete", "metadata.continue is the empty string when the list is complete."),
  rule("doc1/2.3/remaining-item-count/later-items", "metadata.remainingItemCount is the number of later items not in this response."),
  rule("doc1/2.3/remaining-item-count/omitted-with-selector", "metadata.remainingItemCount is omitted when the request used label or field selectors."),
  rule("doc1/2.3/remaining-item-count/omitted-when-complete", "metadata.remainingItemCount is omitted when the list is complete."),
  untestable("doc1/2.3/remaining-item-count/estimate", "remainingItemCount is meant for estimating collection size.", "states the field's purpose for clients"),
  rule("doc1/2.3/items", "items holds objects of the kind."),
  rule("doc1/2.3/no-list-kind", "The API has no kind named List."),
  untestable("doc1/2.3/client-list-aggregate", "A client tool may print kind: List for its own aggregate of several list calls; automation must not depend on that.", CLIENT),

  // §2.4 Watch event
  rule("doc1/2.4/type/values", "A watch event's type is one of ADDED, MODIFIED, BOOKMARK."),
  rule("doc1/2.4/object/requested-kind", "A watch event's object is an object of the requested kind."),
  rule("doc1/2.4/bookmark/resource-version-only", "A BOOKMARK event's object carries only metadata.resourceVersion, plus kind and apiVersion."),

  // §2.5 Table representation
  rule("doc1/2.5/kind", "A Table has kind Table."),
  rule("doc1/2.5/api-version", "A Table has apiVersion <meta-group>/v1."),
  rule("doc1/2.5/column-definitions", "Each entry of columnDefinitions has at least name and type."),
  rule("doc1/2.5/default-columns", "A resource type with no custom Table definition gets two columns: Name (type string) and Created At (type date)."),
  rule("doc1/2.5/default-values", "The default columns' values come from the resource's name and creationTimestamp."),

  // §2.6 Binary envelope
  rule("doc1/2.6/protobuf/prefix", "A Protobuf body starts with the four bytes 0x6b 0x38 0x73 0x00."),
  rule("doc1/2.6/protobuf/unknown-message", "After the prefix comes a message Unknown: 1 typeMeta, 2 raw, 3 contentEncoding, 4 contentType, all optional."),
  rule("doc1/2.6/protobuf/type-meta", "typeMeta carries the kind and apiVersion strings of the JSON object; TypeMeta has field 1 apiVersion and field 2 kind."),
  rule("doc1/2.6/protobuf/raw", "raw is the complete serialized object."),
  rule("doc1/2.6/protobuf/content-encoding", "An unspecified contentEncoding means no encoding."),
  rule("doc1/2.6/protobuf/content-type", "An unspecified contentType means the binary media type."),
  untestable("doc1/2.6/protobuf/client-rejects-prefix", "A client receiving the binary media type with a different prefix must reject the response.", CLIENT),

  // §2.7 Generated values
  rule("doc1/2.7/generated/name", "A name generated from generateName differs between a dry-run and the real request."),
  rule("doc1/2.7/generated/creation-timestamp", "creationTimestamp is generated before persisting and differs between a dry-run and the real request."),
  rule("doc1/2.7/generated/deletion-timestamp", "deletionTimestamp is generated before persisting and differs between a dry-run and the real request."),
  rule("doc1/2.7/generated/uid", "uid is generated before persisting and differs between a dry-run and the real request."),
  rule("doc1/2.7/generated/resource-version", "resourceVersion is generated before persisting and differs between a dry-run and the real request."),
  untestable("doc1/2.7/generated/admission-fields", "Fields set by a mutating admission controller are generated before persisting and differ between a dry-run and the real request.", "needs a mutating admission controller that generates values; doc 1 names none"),
  rule("doc1/2.7/generated/service-allocations", "Ports and IP addresses assigned to Service objects differ between a dry-run and the real request."),

  // §3 States and transitions
  rule("doc1/3/two-phases", "Deletion of a resource has two phases: finalization, then removal."),
  rule("doc1/3/first-delete", "The first delete of a live resource sets metadata.deletionTimestamp to the current time; the resource is finalizing."),
  rule("doc1/3/finalizers/entries-remain", "While entries remain in metadata.finalizers, a finalizer removing its entry leaves the resource finalizing."),
  rule("doc1/3/finalizers/any-order", "Finalizers may act at any time and in any order; no order is enforced."),
  rule("doc1/3/finalizers/last-removed", "When the last finalizer is removed, the resource is removed from the persistence layer."),
  rule("doc1/3/no-finalizers-removed", "A delete of a resource whose finalizer list is empty removes it (rows 1 and 3 of the table)."),
  gap("doc1/3/delete-again", "Not shown in doc 1: a further delete of a finalizing resource.", "200 with the object; deletionTimestamp keeps its first value (transcript delete-again)"),
  gap("doc1/3/other-kinds", "Transitions of other kinds of resource are not shown.", "a deleted Namespace stays in phase Terminating until the namespace controller has emptied it (transcript namespace-delete)", OPEN),

  // §4.1 Path shapes
  rule("doc1/4.1/prefix/core", "The core group uses the prefix /api/v1."),
  rule("doc1/4.1/prefix/named", "Named groups use the prefix /apis/<group>/<version>."),
  rule("doc1/4.1/collection/cluster-scoped", "GET on a cluster-scoped type's collection path returns all instances."),
  rule("doc1/4.1/collection/all-namespaces", "GET on a namespaced type's collection path outside a namespace returns all instances across all namespaces."),
  rule("doc1/4.1/collection/one-namespace", "GET .../namespaces/<namespace>/<resourcetype> returns the collection in one namespace."),
  rule("doc1/4.1/resource/cluster-scoped", "GET .../<resourcetype>/<name> returns the cluster-scoped resource."),
  rule("doc1/4.1/resource/namespaced", "GET .../namespaces/<namespace>/<resourcetype>/<name> returns the namespaced resource."),
  rule("doc1/4.1/subresource/get", "GET .../<resourcetype>/<name>/<subresource> returns the subresource."),
  untestable("doc1/4.1/subresource/verbs-vary", "Supported verbs of a subresource vary by object.", "no set of verbs is given, so nothing can be expected"),
  untestable("doc1/4.1/subresource/single-resource", "Subresources cannot span several resources.", "no path shape names a subresource of several resources, so there is no request to send"),
  rule("doc1/4.1/namespaces/collection", "GET /api/v1/namespaces returns all namespaces (a namespace is a cluster-scoped type)."),
  rule("doc1/4.1/namespaces/one", "GET /api/v1/namespaces/<name> returns one namespace."),
  rule("doc1/4.1/post/create", "POST of an object in JSON or binary form to a collection path returns the created object."),
  rule("doc1/4.1/post/binary-create-status", "Status 200 is shown for a binary-encoded create answered in JSON."),
  rule("doc1/4.1/modify/returns-object", "PUT, PATCH and DELETE on a resource path return the resulting object."),
  rule("doc1/4.1/subjectaccessreviews", "POST of a SubjectAccessReview in JSON to subjectaccessreviews returns the permission-check result."),
  rule("doc1/4.1/health/paths", "GET /healthz, /livez and /readyz return health status."),
  rule("doc1/4.1/health/check-paths", "GET /livez/<check-name> and /readyz/<check-name> return the status of one check."),
  gap("doc1/4.1/not-shown/methods-and-bodies", "The HTTP methods of deletecollection and apply, and the bodies of individual kinds, are not shown.", "deletecollection is DELETE on a collection path (transcript deletecollection); apply is PATCH with Content-Type application/apply-patch+yaml", OPEN),

  // §4.2 Query parameters
  rule("doc1/4.2/watch", "watch is a boolean flag (value 1 is used) that turns a GET into a watch with a streamed response."),
  untestable("doc1/4.2/resource-version/opaque", "resourceVersion is an opaque string, compared only for equality; 0 and unset have special meaning.", "opacity binds clients; the special values are checked through the §4.7 table cells"),
  gap("doc1/4.2/resource-version/unparseable", "Not shown in doc 1: a resourceVersion the server cannot interpret.", "500 without a reason (transcript list-rv-nonnumeric); the embedded server answers 400 BadRequest instead"),
  rule("doc1/4.2/resource-version-match/values", "resourceVersionMatch is Exact or NotOlderThan."),
  rule("doc1/4.2/resource-version-match/list-only", "resourceVersionMatch applies to list only."),
  rule("doc1/4.2/resource-version-match/requires-resource-version", "Setting resourceVersionMatch without resourceVersion is invalid."),
  untestable("doc1/4.2/resource-version-match/unknown-to-server", "A server that does not know resourceVersionMatch ignores it, so clients must cope with that.", CLIENT),
  rule("doc1/4.2/allow-watch-bookmarks", "allowWatchBookmarks (boolean, watch) requests BOOKMARK events."),
  rule("doc1/4.2/limit", "limit (list) is an integer: the maximum items per chunk."),
  gap("doc1/4.2/limit/not-integer", "Not shown in doc 1: a limit that is not an integer.", "400 BadRequest (transcript list-limit-abc)"),
  gap("doc1/4.2/limit/non-positive", "Not shown in doc 1: a limit of zero or below.", "treated as limit unset: the whole list, no continue token (transcript list-limit-negative)"),
  rule("doc1/4.2/continue", "continue (list) is the opaque token from metadata.continue of the previous chunk."),
  gap("doc1/4.2/continue/not-a-token", "Not shown in doc 1: a continue value the server did not issue.", "400 BadRequest (transcript list-continue-garbage)"),
  gap("doc1/4.2/continue/without-limit", "Not shown in doc 1: continue without limit.", "answered as the limit=n, continue=token row: the rest of the list at the token's version (Kubernetes 1.26 storage code; not in the reference transcripts)"),
  rule("doc1/4.2/dry-run/values", "dryRun (POST, PUT, PATCH, DELETE) is bare (no value) or All."),
  gap("doc1/4.2/dry-run/other-values", "Not shown in doc 1: a dryRun value other than All.", "422 Invalid (transcript dryrun-bogus)"),
  rule("doc1/4.2/pretty", "pretty (boolean) applies to any request."),
  rule("doc1/4.2/verbose", "verbose (bare flag, health endpoints) prints each check and its status as text for humans."),
  rule("doc1/4.2/exclude", "exclude (health endpoints) names a check to exclude and combines with verbose."),

  // §4.3 Content negotiation
  rule("doc1/4.3/accept/json", "Accept application/json is the default, and all built-in types support it."),
  rule("doc1/4.3/accept/protobuf", "Accept application/vnd.orb.protobuf asks for the binary envelope."),
  rule("doc1/4.3/accept/table", "Accept application/json;as=Table;g=<meta-group>;v=v1 asks for a Table."),
  rule("doc1/4.3/accept/fallback", "Several Accept values may be listed comma-separated for fallback."),
  rule("doc1/4.3/content-type/request", "A request's Content-Type must match the body; binary bodies use the binary media type."),
  gap("doc1/4.3/content-type/unsupported", "Not shown in doc 1: a request body in a media type the server does not accept.", "415 UnsupportedMediaType (transcript content-type-text)"),
  rule("doc1/4.3/content-type/response", "The response Content-Type is set when the requested format is supported."),
  rule("doc1/4.3/json-default", "JSON is the default serialization."),
  rule("doc1/4.3/protobuf/not-for-custom-or-aggregated", "The binary form is not available for types defined by custom definitions or served through the aggregation layer."),
  untestable("doc1/4.3/table/not-every-type", "Table is not supported by every type; a client that must work with all types lists a JSON fallback.", "a permission for servers and an obligation for clients; a refused Table is checked by doc1/4.3/406"),
  rule("doc1/4.3/406", "When no requested media type is supported, the response status is 406."),

  // §4.4 Dry-run
  rule("doc1/4.4/applies-to", "Dry-run applies to POST, PUT, PATCH and DELETE with dryRun."),
  rule("doc1/4.4/all/stages", "With dryRun=All every stage runs except storage; admission controllers run, validating ones see the post-mutation request."),
  rule("doc1/4.4/all/patch-default-validate", "In a dry-run, PATCH merges, fields are defaulted and schema validation occurs."),
  rule("doc1/4.4/all/returns-object", "A dry-run returns the final object that would be persisted, with the normal status code."),
  rule("doc1/4.4/no-side-effects", "In a dry-run nothing is persisted and there are no other side effects."),
  rule("doc1/4.4/bare/accepted", "A bare dryRun is also accepted, described as allowing side effects; the response is the final object that would be persisted, or an error."),
  untestable("doc1/4.4/side-effect-admission-fails", "If the real request would trigger an admission controller that has side effects, the dry-run request fails.", "needs an admission webhook with side effects installed on the target; the suite installs none"),
  rule("doc1/4.4/built-in-admission", "Built-in admission plugins support dry-run."),
  untestable("doc1/4.4/webhook-side-effects", "A webhook declares sideEffects None, or NoneOnDryRun if it also handles the dry-run field of its review object.", "an obligation on webhook authors"),
  rule("doc1/4.4/authorization", "Authorization of a dry-run is identical to the non-dry-run request."),

  // §4.5 Health endpoints
  untestable("doc1/4.5/healthz/deprecated", "/healthz is deprecated since v1.16; use /livez and /readyz.", "a deprecation notice; /healthz still answers (doc1/4.1/health/paths)"),
  rule("doc1/4.5/livez", "/livez reports liveness."),
  untestable("doc1/4.5/livez/grace-period-flag", "The daemon flag --livez-grace-period sets the startup duration.", "a daemon flag, not visible over HTTP"),
  rule("doc1/4.5/readyz", "/readyz reports readiness."),
  untestable("doc1/4.5/readyz/shutdown-delay-flag", "The daemon flag --shutdown-delay-duration sets the delay for graceful shutdown.", "a daemon flag, not visible over HTTP"),
  rule("doc1/4.5/check/one", "/livez/<check-name> and /readyz/<check-name> report one check (alpha since v1.24)."),
  rule("doc1/4.5/check/name-from-verbose", "A check's name is the text between [+] and ok in verbose output."),
  untestable("doc1/4.5/check/for-humans", "Single-check endpoints are for humans, not machines.", "states the intended audience"),
  gap("doc1/4.5/check/unknown", "Not shown in doc 1: a single-check path naming no check.", "404 with a plain-text body (transcript health-readyz-unknown-check)"),
  rule("doc1/4.5/status/200", "Machine callers rely only on the HTTP status: 200 means healthy, live or ready, depending on the endpoint."),
  rule("doc1/4.5/verbose/line-format", "With verbose, the body is text with one line per check in the form [+]<check> ok."),
  rule("doc1/4.5/verbose/last-line", "The verbose body ends with the line healthz check passed."),
  rule("doc1/4.5/exclude/line", "With exclude=<check>, the line for that check reads [+]<check> excluded: ok."),
  gap("doc1/4.5/exclude/unknown", "Not shown in doc 1: exclude naming no check.", "200, and a warning line naming the unmatched check just before the last line (transcript health-readyz-exclude-unknown)"),
  rule("doc1/4.5/check-names/listed", "Check names include ping, log, a check on the persistence layer, autoregister-completion and poststarthook/<name> checks such as generic-apiserver-start-informers, crd-informer-synced, bootstrap-controller, rbac/bootstrap-roles, scheduling/bootstrap-system-priority-classes."),
  rule("doc1/4.5/check-names/shutdown-readiness", "shutdown is a readiness check."),

  // §4.6 Watch and list procedures
  rule("doc1/4.6/watch/list-then-watch", "A client lists or gets, then watches from the returned resourceVersion, and so subscribes without missing events."),
  rule("doc1/4.6/watch/chunked-json", "A watch response has Transfer-Encoding: chunked and Content-Type application/json."),
  rule("doc1/4.6/watch/json-documents", "A watch body is a series of JSON documents, each one a watch event."),
  rule("doc1/4.6/watch/restart", "If a watch is disconnected, the client restarts from the last returned resourceVersion, or does a fresh list."),
  rule("doc1/4.6/paging/follow-continue", "Paging: the client sends limit=<n> and follows metadata.continue until it is empty."),
  rule("doc1/4.6/paging/constant-resource-version", "The collection resourceVersion stays constant across chunks (consistent snapshot)."),
  rule("doc1/4.6/paging/snapshot", "Changes after the collection's version are not shown unless a new list without continue is made."),
  untestable("doc1/4.6/paging/feature-gate", "Paging is available unless the feature gate APIListChunking is disabled; beta since v1.9.", "server configuration, not visible over HTTP"),

  // §4.7 Resource version semantics
  untestable("doc1/4.7/opaque", "Clients must treat versions as opaque strings, pass them back unmodified and compare them only for equality; never assume numeric or ordered values.", CLIENT),
  rule("doc1/4.7/get/rv-unset", "Get with resourceVersion unset: Most Recent."),
  rule("doc1/4.7/get/rv-0", "Get with resourceVersion 0: Any."),
  rule("doc1/4.7/get/rv-other", "Get with another resourceVersion: Not older than."),

  rule("doc1/4.7/list/match-unset/limit-unset", "List, resourceVersionMatch unset, limit unset: Most Recent | Any | Not older than."),
  cell("doc1/4.7/list/match-unset/limit-unset/rv-unset", "doc1/4.7/list/match-unset/limit-unset", "List, resourceVersionMatch unset, limit unset, resourceVersion unset: Most Recent."),
  cell("doc1/4.7/list/match-unset/limit-unset/rv-0", "doc1/4.7/list/match-unset/limit-unset", "List, resourceVersionMatch unset, limit unset, resourceVersion 0: Any."),
  cell("doc1/4.7/list/match-unset/limit-unset/rv-other", "doc1/4.7/list/match-unset/limit-unset", "List, resourceVersionMatch unset, limit unset, other resourceVersion: Not older than."),
  rule("doc1/4.7/list/match-unset/limit-no-continue", "List, resourceVersionMatch unset, limit=n, continue unset: Most Recent | Any | Exact."),
  cell("doc1/4.7/list/match-unset/limit-no-continue/rv-unset", "doc1/4.7/list/match-unset/limit-no-continue", "List, resourceVersionMatch unset, limit=n, continue unset, resourceVersion unset: Most Recent."),
  cell("doc1/4.7/list/match-unset/limit-no-continue/rv-0", "doc1/4.7/list/match-unset/limit-no-continue", "List, resourceVersionMatch unset, limit=n, continue unset, resourceVersion 0: Any."),
  cell("doc1/4.7/list/match-unset/limit-no-continue/rv-other", "doc1/4.7/list/match-unset/limit-no-continue", "List, resourceVersionMatch unset, limit=n, continue unset, other resourceVersion: Exact."),
  rule("doc1/4.7/list/match-unset/limit-continue", "List, resourceVersionMatch unset, limit=n, continue=token: Continue Token, Exact | Invalid, treated as Continue Token, Exact | Invalid, HTTP 400."),
  cell("doc1/4.7/list/match-unset/limit-continue/rv-unset", "doc1/4.7/list/match-unset/limit-continue", "List, resourceVersionMatch unset, limit=n, continue=token, resourceVersion unset: Continue Token, Exact."),
  cell("doc1/4.7/list/match-unset/limit-continue/rv-0", "doc1/4.7/list/match-unset/limit-continue", "List, resourceVersionMatch unset, limit=n, continue=token, resourceVersion 0: Invalid, treated as Continue Token, Exact."),
  cell("doc1/4.7/list/match-unset/limit-continue/rv-other", "doc1/4.7/list/match-unset/limit-continue", "List, resourceVersionMatch unset, limit=n, continue=token, other resourceVersion: Invalid, HTTP 400."),
  rule("doc1/4.7/list/exact/limit-unset", "List, resourceVersionMatch Exact, limit unset: Invalid | Invalid | Exact."),
  cell("doc1/4.7/list/exact/limit-unset/rv-unset", "doc1/4.7/list/exact/limit-unset", "List, resourceVersionMatch Exact, limit unset, resourceVersion unset: Invalid."),
  cell("doc1/4.7/list/exact/limit-unset/rv-0", "doc1/4.7/list/exact/limit-unset", "List, resourceVersionMatch Exact, limit unset, resourceVersion 0: Invalid."),
  cell("doc1/4.7/list/exact/limit-unset/rv-other", "doc1/4.7/list/exact/limit-unset", "List, resourceVersionMatch Exact, limit unset, other resourceVersion: Exact."),
  rule("doc1/4.7/list/exact/limit-no-continue", "List, resourceVersionMatch Exact, limit=n, continue unset: Invalid | Invalid | Exact."),
  cell("doc1/4.7/list/exact/limit-no-continue/rv-unset", "doc1/4.7/list/exact/limit-no-continue", "List, resourceVersionMatch Exact, limit=n, continue unset, resourceVersion unset: Invalid."),
  cell("doc1/4.7/list/exact/limit-no-continue/rv-0", "doc1/4.7/list/exact/limit-no-continue", "List, resourceVersionMatch Exact, limit=n, continue unset, resourceVersion 0: Invalid."),
  cell("doc1/4.7/list/exact/limit-no-continue/rv-other", "doc1/4.7/list/exact/limit-no-continue", "List, resourceVersionMatch Exact, limit=n, continue unset, other resourceVersion: Exact."),
  gap("doc1/4.7/list/exact/limit-continue", "Not shown in doc 1: list with resourceVersionMatch Exact and a continue token (the table has no such row).", "422 Invalid: resourceVersionMatch is refused together with continue (transcript list-rvmatch-with-continue)"),
  gapCell("doc1/4.7/list/exact/limit-continue/rv-unset", "doc1/4.7/list/exact/limit-continue", "List, resourceVersionMatch Exact, continue=token, resourceVersion unset: no row in doc 1.", "422 Invalid"),
  gapCell("doc1/4.7/list/exact/limit-continue/rv-0", "doc1/4.7/list/exact/limit-continue", "List, resourceVersionMatch Exact, continue=token, resourceVersion 0: no row in doc 1.", "422 Invalid"),
  gapCell("doc1/4.7/list/exact/limit-continue/rv-other", "doc1/4.7/list/exact/limit-continue", "List, resourceVersionMatch Exact, continue=token, other resourceVersion: no row in doc 1.", "422 Invalid"),
  rule("doc1/4.7/list/not-older-than/limit-unset", "List, resourceVersionMatch NotOlderThan, limit unset: Invalid | Any | Not older than."),
  cell("doc1/4.7/list/not-older-than/limit-unset/rv-unset", "doc1/4.7/list/not-older-than/limit-unset", "List, resourceVersionMatch NotOlderThan, limit unset, resourceVersion unset: Invalid."),
  cell("doc1/4.7/list/not-older-than/limit-unset/rv-0", "doc1/4.7/list/not-older-than/limit-unset", "List, resourceVersionMatch NotOlderThan, limit unset, resourceVersion 0: Any."),
  cell("doc1/4.7/list/not-older-than/limit-unset/rv-other", "doc1/4.7/list/not-older-than/limit-unset", "List, resourceVersionMatch NotOlderThan, limit unset, other resourceVersion: Not older than."),
  rule("doc1/4.7/list/not-older-than/limit-no-continue", "List, resourceVersionMatch NotOlderThan, limit=n, continue unset: Invalid | Any | Not older than."),
  cell("doc1/4.7/list/not-older-than/limit-no-continue/rv-unset", "doc1/4.7/list/not-older-than/limit-no-continue", "List, resourceVersionMatch NotOlderThan, limit=n, continue unset, resourceVersion unset: Invalid."),
  cell("doc1/4.7/list/not-older-than/limit-no-continue/rv-0", "doc1/4.7/list/not-older-than/limit-no-continue", "List, resourceVersionMatch NotOlderThan, limit=n, continue unset, resourceVersion 0: Any."),
  cell("doc1/4.7/list/not-older-than/limit-no-continue/rv-other", "doc1/4.7/list/not-older-than/limit-no-continue", "List, resourceVersionMatch NotOlderThan, limit=n, continue unset, other resourceVersion: Not older than."),
  gap("doc1/4.7/list/not-older-than/limit-continue", "Not shown in doc 1: list with resourceVersionMatch NotOlderThan and a continue token (the table has no such row).", "422 Invalid: resourceVersionMatch is refused together with continue (transcript list-rvmatch-with-continue)"),
  gapCell("doc1/4.7/list/not-older-than/limit-continue/rv-unset", "doc1/4.7/list/not-older-than/limit-continue", "List, resourceVersionMatch NotOlderThan, continue=token, resourceVersion unset: no row in doc 1.", "422 Invalid (transcript list-rvmatch-with-continue)"),
  gapCell("doc1/4.7/list/not-older-than/limit-continue/rv-0", "doc1/4.7/list/not-older-than/limit-continue", "List, resourceVersionMatch NotOlderThan, continue=token, resourceVersion 0: no row in doc 1.", "422 Invalid"),
  gapCell("doc1/4.7/list/not-older-than/limit-continue/rv-other", "doc1/4.7/list/not-older-than/limit-continue", "List, resourceVersionMatch NotOlderThan, continue=token, other resourceVersion: no row in doc 1.", "422 Invalid"),

  untestable("doc1/4.7/semantic/any", "Any: data at any version; newest is preferred; it may be older than what the client saw before.", "permits any retained version, so no response can violate it beyond being a valid collection"),
  rule("doc1/4.7/semantic/most-recent", "Most Recent: the latest version, consistent (quorum read from the persistence layer)."),
  rule("doc1/4.7/semantic/not-older-than", "Not older than: at least as new as the given version."),
  rule("doc1/4.7/semantic/not-older-than/list", "For list, Not older than means the collection version is not older than requested; no guarantee is made for item versions."),
  rule("doc1/4.7/semantic/exact", "Exact: the given version; if it is unavailable, status 410."),
  rule("doc1/4.7/semantic/exact/list", "For list, Exact means the collection version equals the requested one; item versions are not guaranteed."),
  rule("doc1/4.7/semantic/continue-token-exact", "Continue Token, Exact: the version of the initial paginated call, carried inside the continue tokens."),
  rule("doc1/4.7/item-resource-version", "An item's metadata.resourceVersion tracks its last update, not how fresh the served data is."),
  untestable("doc1/4.7/not-older-than-limit/410-retry", "With NotOlderThan and limit, the client handles 410 by retrying with a newer version or with an empty version.", CLIENT),
  untestable("doc1/4.7/exact-no-limit/check-version", "With Exact and no limit, the client checks that the returned collection version matches, otherwise retries with limit set.", CLIENT),

  rule("doc1/4.7/watch/rv-unset", "Watch with resourceVersion unset: Get State and Start at Most Recent."),
  rule("doc1/4.7/watch/rv-0", "Watch with resourceVersion 0: Get State and Start at Any."),
  rule("doc1/4.7/watch/rv-other", "Watch with another resourceVersion: Start at Exact."),
  rule("doc1/4.7/watch/get-state/synthetic-added", "The Get State modes start with synthetic ADDED events for all existing instances at the starting version, then send all later changes."),
  untestable("doc1/4.7/watch/start-at-any/stale", "Start at Any may serve arbitrarily stale data or start at an older version than one seen before.", PERMISSION),
  rule("doc1/4.7/watch/start-at-most-recent/consistent", "Start at Most Recent requires a consistent (quorum) read."),
  rule("doc1/4.7/watch/start-at-exact/changes-after", "Start at Exact sends the changes after the given version."),
  rule("doc1/4.7/watch/start-at-exact/no-synthetic", "Start at Exact sends no synthetic ADDED events."),

  // §5 Authentication
  rule("doc1/5/dry-run-authorization", "Dry-run and non-dry-run requests need the same authorization."),
  rule("doc1/5/rule/fields", "An authorization rule has apiGroups, resources and verbs, each a list."),
  rule("doc1/5/rule/example", "A rule with apiGroups apps, resources deployments and verbs patch allows patching Deployments, and so a dry-run patch."),
  untestable("doc1/5/health/authenticated", "Remote use of the health endpoints is authenticated.", "depends on the target's authentication settings; Kubernetes serves /readyz to anonymous callers by default (transcript health-readyz-anonymous)"),
  untestable("doc1/5/health/daemons-skip-authorization", "The daemons skip authorization for /healthz, /readyz, /livez by default (see doc 2).", "about the controller manager and scheduler (doc 2), not the API server"),
  gap("doc1/5/credentials", "The credentials and schemes accepted by the API server are not shown.", "bearer tokens and client certificates", OPEN),
  gap("doc1/5/unauthenticated", "Not shown in doc 1: a request whose credentials the server does not accept.", "401 Unauthorized (transcript unauthorized)"),
  gap("doc1/5/forbidden", "Not shown in doc 1: a request the authorizer denies.", "403 Forbidden, for a dry-run exactly as for the real request (transcripts forbidden, forbidden-dryrun)"),

  // §6 Events
  untestable("doc1/6/only-watch-events", "The service sends no events other than watch events.", "an absence of push channels: there is nothing to request"),
  rule("doc1/6/added/create", "ADDED is sent for a create after the starting version."),
  rule("doc1/6/added/synthetic", "ADDED is also sent synthetically at the start of a watch with resourceVersion unset or 0."),
  rule("doc1/6/modified/update", "MODIFIED is sent for an update after the starting version."),
  rule("doc1/6/bookmark/meaning", "A BOOKMARK says that all changes up to its resourceVersion have been sent."),
  rule("doc1/6/bookmark/requested-only", "BOOKMARK is emitted by a watch with allowWatchBookmarks=true."),
  rule("doc1/6/bookmark/object", "A BOOKMARK's object has the requested type and only .metadata.resourceVersion."),
  untestable("doc1/6/bookmark/no-interval", "No BOOKMARK interval is promised, and the server may send none.", PERMISSION),
  rule("doc1/6/itemize", "Change notifications itemize the outcome of create, delete, apply and update operations after the given version."),
  gap("doc1/6/event-names/not-shown", "Event type names for deletions and errors are not shown.", "DELETED and ERROR (transcripts watch-from-rv, expiry-watch-old)"),
  rule("doc1/6/one-json-document", "Each notification is one JSON document."),

  // §7 Errors
  rule("doc1/7/410/watch-too-old", "410 Gone: a watch starts from a version no longer retained."),
  rule("doc1/7/410/continue-expired", "410 Gone: a continue token has expired."),
  rule("doc1/7/410/exact-unavailable", "410 Gone: Exact is unavailable."),
  untestable("doc1/7/410/not-older-than-limit", "410 Gone: NotOlderThan with limit fails.", "doc 1 names no condition under which it fails, so no request can provoke it"),
  rule("doc1/7/410/outside-retained", "410 Gone: a version is outside the retained limit (cache dependent)."),
  untestable("doc1/7/410/client-handling", "On 410, clear the local cache, list or get again, then watch from the returned resourceVersion; with an expired token, start over or omit limit.", CLIENT),
  rule("doc1/7/406", "406: none of the requested media types is supported."),
  rule("doc1/7/400/limit-continue-rv", "400 Bad Request: a list with limit, continue and a resourceVersion other than 0."),
  rule("doc1/7/504/too-large-resource-version", "504 Gateway Timeout: a get or list asks for a version the server does not recognize and it does not appear in reasonable time; messages mention \"Too large resource version\"."),
  rule("doc1/7/retry-after", "The server may send a Retry-After header, in seconds, instead of waiting for an unrecognized version."),
  untestable("doc1/7/client-handling", "Client handling: on 406 request another type; on 400 do not combine; on 504 retry; on Retry-After wait that long.", CLIENT),
  untestable("doc1/7/dry-run-failure", "A dry-run fails when the request would trigger an admission controller with side effects.", "needs an admission webhook with side effects installed on the target; the suite installs none"),
  untestable("doc1/7/watch-unrecognized-may-wait", "A watch from an unrecognized version may wait until the request timeout.", PERMISSION),
  rule("doc1/7/health/non-200", "A status other than 200 on a health endpoint means not healthy, live or ready."),
  gap("doc1/7/not-shown/body-shape", "The body shape of error responses is not shown.", "a Status object: kind Status, apiVersion v1, status Failure, message, reason, details, code"),
  gap("doc1/7/not-shown/invalid-status", "The status for combinations marked Invalid, other than the 400 case, is not shown.", "422 Invalid (transcripts list-rvmatch-no-rv, list-rvmatch-exact-rv0, list-rvmatch-unknown, list-rvmatch-with-continue)"),

  // §8 Limits
  rule("doc1/8/retained-history", "History for watches is retained for 5 minutes by default."),
  rule("doc1/8/continue-token-lifetime", "A continue token lives 5 minutes by default; then 410."),
  rule("doc1/8/limit/at-most", "limit is a client-chosen maximum of items per chunk; the server returns at most that many."),
  untestable("doc1/8/example-load", "A large cluster may hold tens of thousands of Pods at about 2 KiB of JSON each; an unpaged list then gives 10-20 MB.", "an example of scale, not a rule"),
  gap("doc1/8/not-shown/request-size", "Request size limits of the API server are not shown.", "request bodies above 3 MiB are refused with 413 RequestEntityTooLarge (transcript body-too-large)"),
  gap("doc1/8/not-shown/rate-limits", "Rate limits of the API server are not shown.", "429 TooManyRequests with Retry-After when in-flight limits are exceeded", "needs load beyond the target's limits, which the suite must not impose on a shared server"),

  // §9 Versioning
  rule("doc1/9/paths", "Paths carry group and version: /api/v1 for the core group, /apis/<group>/<version> for others."),
  rule("doc1/9/objects/api-version-kind", "Objects carry apiVersion as <group>/<version> (or v1 for the core group) and kind."),
  rule("doc1/9/table-version", "The Table media type carries v=v1."),
  untestable("doc1/9/maturity", "Feature maturity: chunked lists beta since v1.9; resourceVersionMatch since v1.19; dry-run stable since v1.18; individual health checks alpha since v1.24; /healthz deprecated since v1.16.", "release history: the API exposes no feature maturity"),
  gap("doc1/9/not-shown", "Rules for deprecation and for negotiation of API versions beyond this are not shown.", "discovery documents at /api and /apis list the served groups and versions (transcripts discovery-*)", OPEN),
] as const;

/** A stable clause id, e.g. `doc1/4.7/list/exact/limit-unset/rv-0`, or `k8s/crd/established`. */
export type ClauseId = (typeof entries)[number]["id"] | (typeof KUBERNETES_CRD_CLAUSES)[number]["id"];

/** One statement of doc 1: its id, section, words and whether an HTTP exchange can check it. */
export interface Clause {
  /** Stable id, `doc1/<section>/<slug>`. */
  readonly id: ClauseId;
  /** The document: 1, or "kubernetes" for Kubernetes behaviour beyond doc 1. */
  readonly doc: 1 | "kubernetes";
  /** The section of doc 1, e.g. "4.7" or "3". */
  readonly section: string;
  /** The rule in a short sentence close to the document's words. */
  readonly text: string;
  /** False when no HTTP exchange can check the statement (see `why`). */
  readonly testable: boolean;
  /** Doc 1's own words, or a gap doc 1 leaves open (then `kubernetes` says what Kubernetes does). */
  readonly origin: ClauseOrigin;
  /** Why the clause is not testable; present exactly when `testable` is false. */
  readonly why?: string;
  /** For gaps: what Kubernetes 1.26 answers, with the reference transcript where there is one. */
  readonly kubernetes?: string;
  /** For table cells: the clause of the table row the cell belongs to. */
  readonly parent?: ClauseId;
}

// The section is the id's second segment, so the two can never disagree.
function sectionOf(id: string): string {
  const section = id.split("/")[1];
  if (section === undefined) throw new Error(`clause id without a section: ${id}`);
  return section;
}

/** Every clause of doc 1, in document order. */
export const clauses: readonly Clause[] = entries.map(
  (entry): Clause => ({ ...entry, parent: entry.parent as ClauseId | undefined, doc: 1, section: sectionOf(entry.id) }),
);

/** Kubernetes behaviour beyond doc 1 that cases check (origin "kubernetes", spec/kubernetes/). */
export const kubernetesClauses: readonly Clause[] = KUBERNETES_CRD_CLAUSES.map(
  (entry): Clause => ({ ...entry, testable: true, origin: "kubernetes", doc: "kubernetes", section: sectionOf(entry.id) }),
);

/** Doc 1's clauses, then the Kubernetes clauses: what cases, reports and the coverage matrix may name. */
export const everyClause: readonly Clause[] = [...clauses, ...kubernetesClauses];

const byId = new Map<string, Clause>(everyClause.map((c) => [c.id, c]));

/** The clause with this id; throws on an id the catalog does not have. */
export function clauseById(id: string): Clause {
  const found = byId.get(id);
  if (found === undefined) throw new Error(`unknown clause id "${id}" (not in spec/doc1/clauses.ts nor spec/kubernetes/)`);
  return found;
}

/** True when `id` is a clause id of the catalog (narrows a string read from a file or a report). */
export function isClauseId(id: string): id is ClauseId {
  return byId.has(id);
}
