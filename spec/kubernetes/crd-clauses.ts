/**
 * Kubernetes behaviour beyond doc 1: CustomResourceDefinitions written over the API and the custom
 * resources they define. Doc 1 says nothing of them, so these clauses have `origin: "kubernetes"`,
 * ids `k8s/crd/<slug>` (section `crd`), and `kubernetes` says what kube-apiserver 1.26.4 answers, as
 * recorded in sim/apiserver/apiextensions/recorded/kube-apiserver-1.26-crds.json (step names in
 * parentheses). spec/doc1/clauses.ts looks them up with doc 1's clauses.
 */
export const KUBERNETES_CRD_CLAUSES = [
  {
    id: "k8s/crd/established",
    text: "A CustomResourceDefinition created over the API gets the conditions NamesAccepted and Established, and its type is served and listed by discovery.",
    kubernetes: "201 with an empty status, then NamesAccepted True NoConflicts and Established True InitialNamesAccepted; /apis/<group>/<version> lists the plural with its verbs, shortNames, categories and storageVersionHash (crd-create, crd-established, discovery-resources)",
  },
  {
    id: "k8s/crd/schema-validated",
    text: "A custom resource that breaks its definition's structural schema is refused with 422 Invalid naming the field.",
    kubernetes: '422 `Widget.example.io "w" is invalid: spec.size: Invalid value: "string": spec.size in body must be of type integer: "string"`, cause FieldValueTypeInvalid (cr-create-wrong-type; required, enum, minimum, pattern likewise)',
  },
  {
    id: "k8s/crd/defaults",
    text: "Fields absent from a custom resource get their schema's default when it is written.",
    kubernetes: "the create answer and later reads carry the defaults (cr-create-valid: mode fast, replicas 1)",
  },
  {
    id: "k8s/crd/pruning",
    text: "Fields a custom resource's schema does not list are dropped, unless the level keeps unknown fields (x-kubernetes-preserve-unknown-fields).",
    kubernetes: "spec.unknown and unknownTop are gone from the create answer, spec.extra.anything is kept (cr-create-valid)",
  },
  {
    id: "k8s/crd/status-subresource",
    text: "With the status subresource, writes of the main resource ignore status and writes of /status ignore everything but status.",
    kubernetes: "a create's status is dropped; PUT /status keeps the stored spec; PUT of the object keeps the stored status (cr-create-with-status, cr-status-put, cr-main-put-status-ignored)",
  },
  {
    id: "k8s/crd/delete-removes-objects",
    text: "Deleting a CustomResourceDefinition deletes its custom resources, then the definition; its type is no longer served.",
    kubernetes: "DELETE answers 200 with the finalizer customresourcecleanup.apiextensions.k8s.io and a Terminating condition; then the definition is 404 and the collection path 404 (crd-delete, crd-after-delete, cr-list-after-delete); a definition made again under the same name holds none of the old objects (cr-list-after-recreate)",
  },
] as const;
