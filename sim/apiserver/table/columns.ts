/**
 * The column definitions of the Table representation (doc 1 §2.5), per resource type, exactly as
 * kube-apiserver 1.26 sends them: the printers of k8s.io/kubernetes/pkg/printers/internalversion
 * (server-side printing always uses the wide set, so priority-1 columns are included), whose
 * descriptions are the Go types' SwaggerDoc() strings. The texts that appear in the reference
 * transcripts (table-pods, table-nodes, table-configmaps, table-leases, table-namespaces-none) are
 * copied from them; the others come from the Kubernetes 1.26 API (k8s.io/api core/v1 Secret,
 * ServiceSpec, Event, ObjectReference; extensions/v1beta1 DeploymentStatus and DeploymentSpec,
 * which the deployment printer cites).
 *
 * A type with no columns of its own gets Kubernetes' default table (apiserver's
 * defaultTableConvertor): Name and Created At (doc 1 §2.5).
 */

/** One entry of `Table.columnDefinitions` (meta/v1 TableColumnDefinition; every field is always sent). */
export interface TableColumnDefinition {
  readonly name: string;
  /** An OpenAPI type: "string", "integer", "number", "boolean", or "date" (default table). */
  readonly type: string;
  /** An OpenAPI format: "name" marks the column holding the object's name; "" otherwise. */
  readonly format: string;
  readonly description: string;
  /** 0 for the columns `kubectl get` shows; 1 for those only `-o wide` shows. */
  readonly priority: number;
}

function column(name: string, description: string, options: { format?: string; priority?: number; type?: string } = {}): TableColumnDefinition {
  return { name, type: options.type ?? "string", format: options.format ?? "", description, priority: options.priority ?? 0 };
}

// ObjectMeta's SwaggerDoc (transcripts table-*: the Name and Age descriptions).
const NAME_DESCRIPTION =
  "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: http://kubernetes.io/docs/user-guide/identifiers#names";
const CREATION_TIMESTAMP_DESCRIPTION =
  "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";

const NAME = column("Name", NAME_DESCRIPTION, { format: "name" });
const AGE = column("Age", CREATION_TIMESTAMP_DESCRIPTION);

// NodeStatus.addresses: the Internal-IP and External-IP columns share it (transcript table-nodes).
const NODE_ADDRESSES_DESCRIPTION =
  "List of addresses reachable to the node. Queried from cloud provider, if available. More info: https://kubernetes.io/docs/concepts/nodes/node/#addresses Note: This field is declared as mergeable, but the merge key is not sufficiently unique, which can cause data corruption when it is merged. Callers should instead use a full-replacement patch. See https://pr.k8s.io/79391 for an example.";

/** Transcript table-pods. */
export const podColumns: readonly TableColumnDefinition[] = [
  NAME,
  column("Ready", "The aggregate readiness state of this pod for accepting traffic."),
  column("Status", "The aggregate status of the containers in this pod."),
  column("Restarts", "The number of times the containers in this pod have been restarted and when the last container in this pod has restarted."),
  AGE,
  column("IP", "IP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.", { priority: 1 }),
  column(
    "Node",
    "NodeName is a request to schedule this pod onto a specific node. If it is non-empty, the scheduler simply schedules this pod onto that node, assuming that it fits resource requirements.",
    { priority: 1 },
  ),
  column(
    "Nominated Node",
    "nominatedNodeName is set only when this pod preempts other pods on the node, but it cannot be scheduled right away as preemption victims receive their graceful termination periods. This field does not guarantee that the pod will be scheduled on this node. Scheduler may decide to place the pod elsewhere if other nodes become available sooner. Scheduler may also decide to give the resources on this node to a higher priority pod that is created after preemption. As a result, this field may be different than PodSpec.nodeName when the pod is scheduled.",
    { priority: 1 },
  ),
  column(
    "Readiness Gates",
    'If specified, all readiness gates will be evaluated for pod readiness. A pod is ready when all its containers are ready AND all conditions specified in the readiness gates have status equal to "True" More info: https://git.k8s.io/enhancements/keps/sig-network/580-pod-readiness-gates',
    { priority: 1 },
  ),
];

/** Transcript table-nodes. */
export const nodeColumns: readonly TableColumnDefinition[] = [
  NAME,
  column("Status", "The status of the node"),
  column("Roles", "The roles of the node"),
  AGE,
  column("Version", "Kubelet Version reported by the node."),
  column("Internal-IP", NODE_ADDRESSES_DESCRIPTION, { priority: 1 }),
  column("External-IP", NODE_ADDRESSES_DESCRIPTION, { priority: 1 }),
  column("OS-Image", "OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).", { priority: 1 }),
  column("Kernel-Version", "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).", { priority: 1 }),
  column("Container-Runtime", "ContainerRuntime Version reported by the node through runtime remote API (e.g. containerd://1.4.2).", { priority: 1 }),
];

/** Transcript table-namespaces-none. */
export const namespaceColumns: readonly TableColumnDefinition[] = [NAME, column("Status", "The status of the namespace"), AGE];

/** Transcript table-configmaps (its note says "default columns", but 1.26 prints Name, Data, Age). */
export const configMapColumns: readonly TableColumnDefinition[] = [
  NAME,
  column(
    "Data",
    "Data contains the configuration data. Each key must consist of alphanumeric characters, '-', '_' or '.'. Values with non-UTF-8 byte sequences must use the BinaryData field. The keys stored in Data must not overlap with the keys in the BinaryData field, this is enforced during validation process.",
  ),
  AGE,
];

/** Transcript table-leases. */
export const leaseColumns: readonly TableColumnDefinition[] = [
  NAME,
  column("Holder", "holderIdentity contains the identity of the holder of a current lease."),
  AGE,
];

/** Secret.SwaggerDoc() of Kubernetes 1.26 (no transcript shows a Table of secrets). */
export const secretColumns: readonly TableColumnDefinition[] = [
  NAME,
  column("Type", "Used to facilitate programmatic handling of secret data. More info: https://kubernetes.io/docs/concepts/configuration/secret/#secret-types"),
  column(
    "Data",
    "Data contains the secret data. Each key must consist of alphanumeric characters, '-', '_' or '.'. The serialized form of the secret data is a base64 encoded string, representing the arbitrary (possibly non-string) data value here. Described in https://tools.ietf.org/html/rfc4648#section-4",
  ),
  AGE,
];

/** ServiceSpec.SwaggerDoc() of Kubernetes 1.26 (no transcript shows a Table of services). */
export const serviceColumns: readonly TableColumnDefinition[] = [
  NAME,
  column(
    "Type",
    'type determines how the Service is exposed. Defaults to ClusterIP. Valid options are ExternalName, ClusterIP, NodePort, and LoadBalancer. "ClusterIP" allocates a cluster-internal IP address for load-balancing to endpoints. Endpoints are determined by the selector or if that is not specified, by manual construction of an Endpoints object or EndpointSlice objects. If clusterIP is "None", no virtual IP is allocated and the endpoints are published as a set of endpoints rather than a virtual IP. "NodePort" builds on ClusterIP and allocates a port on every node which routes to the same endpoints as the clusterIP. "LoadBalancer" builds on NodePort and creates an external load-balancer (if supported in the current cloud) which routes to the same endpoints as the clusterIP. "ExternalName" aliases this service to the specified externalName. Several other fields do not apply to ExternalName services. More info: https://kubernetes.io/docs/concepts/services-networking/service/#publishing-services-service-types',
  ),
  column(
    "Cluster-IP",
    'clusterIP is the IP address of the service and is usually assigned randomly. If an address is specified manually, is in-range (as per system configuration), and is not in use, it will be allocated to the service; otherwise creation of the service will fail. This field may not be changed through updates unless the type field is also being changed to ExternalName (which requires this field to be blank) or the type field is being changed from ExternalName (in which case this field may optionally be specified, as describe above).  Valid values are "None", empty string (""), or a valid IP address. Setting this to "None" makes a "headless service" (no virtual IP), which is useful when direct endpoint connections are preferred and proxying is not required.  Only applies to types ClusterIP, NodePort, and LoadBalancer. If this field is specified when creating a Service of type ExternalName, creation will fail. This field will be wiped when updating a Service to type ExternalName. More info: https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies',
  ),
  column(
    "External-IP",
    "externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service.  These IPs are not managed by Kubernetes.  The user is responsible for ensuring that traffic arrives at a node with this IP.  A common example is external load-balancers that are not part of the Kubernetes system.",
  ),
  column(
    "Port(s)",
    "The list of ports that are exposed by this service. More info: https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies",
  ),
  AGE,
  column(
    "Selector",
    "Route service traffic to pods with label keys and values matching this selector. If empty or not present, the service is assumed to have an external process managing its endpoints, which Kubernetes will not modify. Only applies to types ClusterIP, NodePort, and LoadBalancer. Ignored if type is ExternalName. More info: https://kubernetes.io/docs/concepts/services-networking/service/",
    { priority: 1 },
  ),
];

/** Event and ObjectReference SwaggerDoc() of Kubernetes 1.26: `kubectl get events` columns, Name last. */
export const eventColumns: readonly TableColumnDefinition[] = [
  column("Last Seen", "The time at which the most recent occurrence of this event was recorded."),
  column("Type", "Type of this event (Normal, Warning), new types could be added in the future"),
  column("Reason", "This should be a short, machine understandable string that gives the reason for the transition into the object's current status."),
  column("Object", "The object that this event is about."),
  column(
    "Subobject",
    'If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2]. For example, if the object reference is to a container within a pod, this would take on a value like: "spec.containers{name}" (where "name" refers to the name of the container that triggered the event) or if no container name is specified "spec.containers[2]" (container with index 2 in this pod). This syntax is chosen only to have some well-defined way of referencing a part of an object.',
    { priority: 1 },
  ),
  column("Source", "The component reporting this event. Should be a short machine understandable string.", { priority: 1 }),
  column("Message", "A human-readable description of the status of this operation."),
  column("First Seen", "The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)", { priority: 1 }),
  column("Count", "The number of times this event has occurred.", { priority: 1 }),
  column("Name", NAME_DESCRIPTION, { format: "name", priority: 1 }),
];

/** extensions/v1beta1 Deployment SwaggerDoc(), which the 1.26 deployment printer cites. */
export const deploymentColumns: readonly TableColumnDefinition[] = [
  NAME,
  column("Ready", "Number of the pod with ready state"),
  column("Up-to-date", "Total number of non-terminated pods targeted by this deployment that have the desired template spec."),
  column("Available", "Total number of available pods (ready for at least minReadySeconds) targeted by this deployment."),
  AGE,
  column("Containers", "Names of each container in the template.", { priority: 1 }),
  column("Images", "Images referenced by each container in the template.", { priority: 1 }),
  column(
    "Selector",
    "Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment.",
    { priority: 1 },
  ),
];

/** autoscaling Scale, the scale subresource (printScale; transcript scale-get-table in transcripts-scale-and-reviews.jsonl). */
export const scaleColumns: readonly TableColumnDefinition[] = [
  // The scale printer's Name column has no "name" format (transcript scale-get-table).
  column("Name", NAME_DESCRIPTION),
  column("Desired", "desired number of instances for the scaled object.", { type: "integer" }),
  column("Available", "actual number of observed instances of the scaled object.", { type: "integer" }),
  AGE,
];

/**
 * The default table of a type with no columns of its own (doc 1 §2.5; apiserver's
 * defaultTableConvertor): Name (string, format name) and Created At (date, an RFC 3339 cell).
 */
export const defaultColumns: readonly TableColumnDefinition[] = [
  NAME,
  column("Created At", CREATION_TIMESTAMP_DESCRIPTION, { type: "date" }),
];
