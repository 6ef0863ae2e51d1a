/**
 * The kubectl matrix: `orb-harness serve` as a real process, driven by the kubectl on PATH through a
 * kubeconfig written for it in a temp dir (KUBECONFIG, HOME and the cache dir there, never the
 * user's). One row per invocation, run in order (later rows use what earlier ones made), each with
 * its expected exit code and patterns on stdout and stderr. The README's "kubectl matrix" table
 * lists the same rows. ORB_KUBECTL=/path/to/kubectl runs the matrix with another kubectl.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const REPO = fileURLToPath(new URL("../..", import.meta.url));
const KUBECTL = process.env["ORB_KUBECTL"] ?? "kubectl";
const noKubectl = spawnSync(KUBECTL, ["version", "--client"], { stdio: "ignore", timeout: 10_000 }).status !== 0;
const START_MS = 20_000; // node + tsx start-up on a slow box
const RUN_MS = 15_000; // the most one kubectl invocation may take before it is killed

interface Finished {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

interface Running {
  readonly finished: Promise<Finished>;
  stdout(): string;
  kill(): void;
}

/** Runs `command`, collecting its output; kills it (SIGKILL) after `ms`. */
function run(command: string, args: readonly string[], env: NodeJS.ProcessEnv, ms: number): Running {
  const child = spawn(command, args, { cwd: REPO, env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (data: string) => (stdout += data));
  child.stderr.setEncoding("utf8").on("data", (data: string) => (stderr += data));
  const timer = setTimeout(() => child.kill("SIGKILL"), ms);
  const finished = new Promise<Finished>((resolve) => {
    child.once("error", (error) => {
      clearTimeout(timer);
      resolve({ code: null, stdout, stderr: `${stderr}${String(error)}` });
    });
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
  return { finished, stdout: () => stdout, kill: () => child.kill("SIGKILL") };
}

/** One kubectl invocation and what it must give. */
interface Row {
  /** kubectl's arguments; FILE:name is replaced by the path of the scratch file `name`. */
  readonly args: readonly string[];
  readonly code: number;
  readonly stdout?: RegExp;
  readonly stderr?: RegExp;
  /** Files written to the scratch dir before the row runs. */
  readonly files?: Readonly<Record<string, string>>;
  /** Run while this row runs, once its stdout matches `after` (for a watch to see a change). */
  readonly during?: { readonly after: RegExp; readonly args: readonly string[] };
}

const configMapYaml = (name: string, data: Record<string, string>) =>
  ["apiVersion: v1", "kind: ConfigMap", "metadata:", `  name: ${name}`, "data:", ...Object.entries(data).map(([k, v]) => `  ${k}: ${JSON.stringify(v)}`), ""].join("\n");

/** A ServiceAccount, a Role and its binding, a StatefulSet, a Job and an HPA: the kinds beyond the first nine. */
const APP_MANIFEST = [
  "apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: builder",
  "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: pod-reader\nrules:\n- apiGroups: [\"\"]\n  resources: [pods]\n  verbs: [get, list, watch]",
  "apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata:\n  name: read-pods\nsubjects:\n- kind: ServiceAccount\n  name: builder\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: Role\n  name: pod-reader",
  "apiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: db\nspec:\n  serviceName: db\n  selector:\n    matchLabels: {app: db}\n  template:\n    metadata:\n      labels: {app: db}\n    spec:\n      containers:\n      - name: main\n        image: postgres:16",
  "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: once\nspec:\n  template:\n    spec:\n      restartPolicy: Never\n      containers:\n      - name: main\n        image: busybox:1.36\n        command: [\"true\"]",
  "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: web\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}\n  minReplicas: 1\n  maxReplicas: 5\n  metrics:\n  - type: Resource\n    resource:\n      name: cpu\n      target: {type: Utilization, averageUtilization: 70}",
].join("\n---\n");

/** A namespaced custom type with a schema: a required enum, an integer with a minimum and a default. */
const CRD_YAML = [
  "apiVersion: apiextensions.k8s.io/v1",
  "kind: CustomResourceDefinition",
  "metadata:",
  "  name: gizmos.example.io",
  "spec:",
  "  group: example.io",
  "  names: {plural: gizmos, singular: gizmo, kind: Gizmo}",
  "  scope: Namespaced",
  "  versions:",
  "  - name: v1",
  "    served: true",
  "    storage: true",
  "    schema:",
  "      openAPIV3Schema:",
  "        type: object",
  "        properties:",
  "          spec:",
  "            type: object",
  "            required: [color]",
  "            properties:",
  "              size: {type: integer, minimum: 1, default: 3, description: How big the gizmo is.}",
  "              color: {type: string, enum: [red, green, blue]}",
  "",
].join("\n");

const gizmoYaml = (name: string, spec: string) => `apiVersion: example.io/v1\nkind: Gizmo\nmetadata:\n  name: ${name}\nspec:\n  ${spec}\n`;

const ROWS: readonly Row[] = [
  // kubectl 1.27 prints version.Info{…} (and a deprecation warning), later ones the short form.
  { args: ["version"], code: 0, stdout: /^Client Version: [\s\S]*^Server Version: (?:v1\.26\.4\+orb-harness$|version\.Info\{.*GitVersion:"v1\.26\.4\+orb-harness")/m },
  { args: ["get", "--raw", "/version"], code: 0, stdout: /"gitVersion":"v1\.26\.4\+orb-harness"/ },
  { args: ["get", "--raw", "/api/v1/namespaces"], code: 0, stdout: /^\{"kind":"NamespaceList","apiVersion":"v1",[\s\S]*"name":"kube-system"/ },
  { args: ["api-versions"], code: 0, stdout: /^apps\/v1$[\s\S]*^v1$/m },
  { args: ["api-resources"], code: 0, stdout: /^configmaps\s+cm\s+v1\s+true\s+ConfigMap$[\s\S]*^deployments\s+deploy\s+apps\/v1\s+true\s+Deployment$/m },
  { args: ["get", "namespaces"], code: 0, stdout: /^NAME\s+STATUS\s+AGE\ndefault\s+Active\s+\S+\nkube-node-lease\s+Active\s+\S+\nkube-public\s+Active[\s\S]*\nkube-system\s+Active\s+\S+\n$/ },
  // create: imperative (Protobuf body), a deployment, and from a file
  { args: ["create", "configmap", "settings", "--from-literal=mode=fast", "--from-literal=level=3"], code: 0, stdout: /^configmap\/settings created\n$/ },
  { args: ["create", "deployment", "web", "--image=nginx:1.25", "--replicas=2"], code: 0, stdout: /^deployment\.apps\/web created\n$/ },
  { args: ["create", "-f", "FILE:from-file.yaml"], files: { "from-file.yaml": configMapYaml("from-file", { k: "v" }) }, code: 0, stdout: /^configmap\/from-file created\n$/ },
  { args: ["create", "configmap", "settings"], code: 1, stderr: /^error: failed to create configmap: configmaps "settings" already exists\n$/ },
  // get in every output
  { args: ["get", "configmaps", "settings", "-o", "json"], code: 0, stdout: /^\{\n\s+"apiVersion": "v1",\n\s+"data": \{\n\s+"level": "3",\n\s+"mode": "fast"\n\s+\},\n\s+"kind": "ConfigMap",[\s\S]*"resourceVersion": "\d+",/ },
  { args: ["get", "configmaps", "settings", "-o", "yaml"], code: 0, stdout: /^apiVersion: v1\ndata:\n {2}level: "3"\n {2}mode: fast\nkind: ConfigMap\nmetadata:\n[\s\S]* {2}uid: [0-9a-f-]{36}\n$/ },
  { args: ["get", "configmaps", "-o", "wide"], code: 0, stdout: /^NAME\s+DATA\s+AGE\nfrom-file\s+1\s+\S+\nsettings\s+2\s+\S+\n$/ },
  { args: ["get", "configmaps", "-o", "name"], code: 0, stdout: /^configmap\/from-file\nconfigmap\/settings\n$/ },
  { args: ["get", "configmap", "settings", "-o", "jsonpath={.data.mode}"], code: 0, stdout: /^fast$/ },
  { args: ["get", "deployments", "-o", "wide"], code: 0, stdout: /^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE\s+CONTAINERS\s+IMAGES\s+SELECTOR\nweb\s+0\/2\s+0\s+0\s+\S+\s+nginx\s+nginx:1\.25\s+app=web\n$/ },
  { args: ["get", "configmaps", "--chunk-size=1", "-v=6"], code: 0, stdout: /^NAME\s+DATA\s+AGE\nfrom-file\s+1\s+\S+\nsettings\s+2\s+\S+\n$/, // -v=6 logs `GET URL 200 OK` (1.32 and before) or `verb="GET" url="URL" status="200 OK"` (1.33)
    stderr: /GET\S* (?:url=")?\S*\/configmaps\?limit=1\S* (?:status=")?200 OK[\s\S]*GET\S* (?:url=")?\S*\/configmaps\?continue=\S+&limit=1\S* (?:status=")?200 OK/ },
  { args: ["get", "configmap", "missing"], code: 1, stderr: /^Error from server \(NotFound\): configmaps "missing" not found\n$/ },
  // describe
  // kubectl prints the data in Go's map order, which varies from run to run
  { args: ["describe", "configmap", "settings"], code: 0, stdout: /^Name:\s+settings\nNamespace:\s+default\nLabels:\s+<none>\nAnnotations:\s+<none>\n\nData\n====\n(?=[\s\S]*^level:\n----\n3\n)(?=[\s\S]*^mode:\n----\nfast\n)/m },
  { args: ["describe", "deployment", "web"], code: 0, stdout: /^Name:\s+web\nNamespace:\s+default\n[\s\S]*^Selector:\s+app=web\nReplicas:\s+2 desired \| 0 updated \| 0 total \| 0 available \| 0 unavailable\nStrategyType:\s+RollingUpdate\n[\s\S]*^RollingUpdateStrategy:\s+25% max unavailable, 25% max surge\n[\s\S]*Image:\s+nginx:1\.25\n/m },
  // apply and diff (client-side apply)
  { args: ["apply", "-f", "FILE:applied.yaml"], files: { "applied.yaml": configMapYaml("applied", { mode: "fast" }) }, code: 0, stdout: /^configmap\/applied created\n$/ },
  { args: ["diff", "-f", "FILE:applied.yaml"], code: 0, stdout: /^$/ },
  { args: ["diff", "-f", "FILE:applied.yaml"], files: { "applied.yaml": configMapYaml("applied", { mode: "slow" }) }, code: 1, stdout: /^-\s+mode: fast\n\+\s+mode: slow\n/m },
  { args: ["apply", "-f", "FILE:applied.yaml"], code: 0, stdout: /^configmap\/applied configured\n$/ },
  { args: ["apply", "-f", "FILE:applied.yaml"], code: 0, stdout: /^configmap\/applied unchanged\n$/ },
  { args: ["diff", "-f", "FILE:applied.yaml"], code: 0, stdout: /^$/ },
  // server-side apply: create, change, a conflict with another manager (exit 1, the field and its manager), forced
  { args: ["apply", "--server-side", "-f", "FILE:ssa.yaml"], files: { "ssa.yaml": configMapYaml("ssa", { mode: "fast", level: "3" }) }, code: 0, stdout: /^configmap\/ssa serverside-applied\n$/ },
  { args: ["apply", "--server-side", "-f", "FILE:ssa.yaml"], files: { "ssa.yaml": configMapYaml("ssa", { mode: "slow", level: "3" }) }, code: 0, stdout: /^configmap\/ssa serverside-applied\n$/ },
  {
    args: ["apply", "--server-side", "--field-manager=other", "-f", "FILE:ssa-other.yaml"],
    files: { "ssa-other.yaml": configMapYaml("ssa", { mode: "turbo" }) },
    code: 1,
    stderr: /^error: Apply failed with 1 conflict: conflict with "kubectl": \.data\.mode\n[\s\S]*--force-conflicts/,
  },
  { args: ["apply", "--server-side", "--field-manager=other", "--force-conflicts", "-f", "FILE:ssa-other.yaml"], code: 0, stdout: /^configmap\/ssa serverside-applied\n$/ },
  { args: ["get", "configmap", "ssa", "--show-managed-fields", "-o", "jsonpath={.data.mode} {.metadata.managedFields[*].manager}"], code: 0, stdout: /^turbo kubectl other$/ },
  // a CustomResourceDefinition over the API: established, a valid and an invalid custom resource, explain, deleted with its objects
  { args: ["apply", "-f", "FILE:crd.yaml"], files: { "crd.yaml": CRD_YAML }, code: 0, stdout: /^customresourcedefinition\.apiextensions\.k8s\.io\/gizmos\.example\.io created\n$/ },
  { args: ["wait", "--for", "condition=established", "crd/gizmos.example.io", "--timeout=5s"], code: 0, stdout: /^customresourcedefinition\.apiextensions\.k8s\.io\/gizmos\.example\.io condition met\n$/ },
  { args: ["create", "-f", "FILE:gizmo.yaml"], files: { "gizmo.yaml": gizmoYaml("g1", "color: red") }, code: 0, stdout: /^gizmo\.example\.io\/g1 created\n$/ },
  {
    args: ["create", "-f", "FILE:bad-gizmo.yaml"],
    files: { "bad-gizmo.yaml": gizmoYaml("g2", 'color: purple\n  size: "big"') },
    code: 1,
    stderr: /^The Gizmo "g2" is invalid: \n\* spec\.color: Unsupported value: "purple": supported values: "red", "green", "blue"\n\* spec\.size: Invalid value: "string": spec\.size in body must be of type integer: "string"\n$/,
  },
  { args: ["get", "gizmo", "g1", "-o", "jsonpath={.spec}"], code: 0, stdout: /^\{"color":"red","size":3\}$/ },
  { args: ["explain", "gizmos.spec.size"], code: 0, stdout: /FIELD:\s+size <integer>[\s\S]*How big the gizmo is\./ },
  { args: ["delete", "crd", "gizmos.example.io"], code: 0, stdout: /^customresourcedefinition\.apiextensions\.k8s\.io "gizmos\.example\.io" deleted\n$/ },
  { args: ["get", "--raw", "/apis/example.io/v1/namespaces/default/gizmos"], code: 1, stderr: /NotFound/ },
  // patch, label, annotate, scale
  { args: ["patch", "configmap", "settings", "--type=strategic", "-p", '{"data":{"s":"1"}}'], code: 0, stdout: /^configmap\/settings patched\n$/ },
  { args: ["patch", "configmap", "settings", "--type=merge", "-p", '{"data":{"m":"1","level":null}}'], code: 0, stdout: /^configmap\/settings patched\n$/ },
  { args: ["patch", "configmap", "settings", "--type=json", "-p", '[{"op":"replace","path":"/data/mode","value":"slow"}]'], code: 0, stdout: /^configmap\/settings patched\n$/ },
  { args: ["patch", "configmap", "settings", "--type=json", "-p", '[{"op":"test","path":"/data/mode","value":"fast"}]'], code: 1, stderr: /^The request is invalid: the server rejected our request due to an error in our request\n$/ },
  { args: ["get", "configmap", "settings", "-o", "jsonpath={.data}"], code: 0, stdout: /^\{"m":"1","mode":"slow","s":"1"\}$/ },
  { args: ["label", "configmap", "settings", "tier=web"], code: 0, stdout: /^configmap\/settings labeled\n$/ },
  { args: ["annotate", "configmap", "settings", "note=hi"], code: 0, stdout: /^configmap\/settings annotated?\n$/ }, // kubectl 1.27 prints "annotate"
  { args: ["get", "configmaps", "-l", "tier=web", "--show-labels"], code: 0, stdout: /^NAME\s+DATA\s+AGE\s+LABELS\nsettings\s+3\s+\S+\s+tier=web\n$/ },
  { args: ["get", "configmap", "settings", "-o", "jsonpath={.metadata.annotations.note}"], code: 0, stdout: /^hi$/ },
  { args: ["scale", "deployment", "web", "--replicas=3"], code: 0, stdout: /^deployment\.apps\/web scaled\n$/ },
  { args: ["get", "deployment", "web", "-o", "jsonpath={.spec.replicas}"], code: 0, stdout: /^3$/ },
  // the other built-in types: one manifest of six kinds, imperative creates, their tables, a StatefulSet's scale
  {
    args: ["apply", "-f", "FILE:app.yaml"],
    files: { "app.yaml": APP_MANIFEST },
    code: 0,
    stdout: /^serviceaccount\/builder created\nrole\.rbac\.authorization\.k8s\.io\/pod-reader created\nrolebinding\.rbac\.authorization\.k8s\.io\/read-pods created\nstatefulset\.apps\/db created\njob\.batch\/once created\nhorizontalpodautoscaler\.autoscaling\/web created\n$/,
  },
  // `default` is made by the server's ServiceAccount controller, as kube-controller-manager makes it.
  { args: ["get", "serviceaccounts"], code: 0, stdout: /^NAME\s+SECRETS\s+AGE\nbuilder\s+0\s+\S+\ndefault\s+0\s+\S+\n$/ },
  { args: ["get", "statefulsets", "-o", "wide"], code: 0, stdout: /^NAME\s+READY\s+AGE\s+CONTAINERS\s+IMAGES\ndb\s+0\/1\s+\S+\s+main\s+postgres:16\n$/ },
  { args: ["get", "jobs"], code: 0, stdout: /^NAME\s+COMPLETIONS\s+DURATION\s+AGE\nonce\s+0\/1\s+\S+\n$/ },
  { args: ["get", "hpa"], code: 0, stdout: /^NAME\s+REFERENCE\s+TARGETS\s+MINPODS\s+MAXPODS\s+REPLICAS\s+AGE\nweb\s+Deployment\/web\s+<unknown>\/70%\s+1\s+5\s+0\s+\S+\n$/ },
  { args: ["scale", "statefulset", "db", "--replicas=2"], code: 0, stdout: /^statefulset\.apps\/db scaled\n$/ },
  { args: ["get", "statefulset", "db", "-o", "jsonpath={.spec.replicas}"], code: 0, stdout: /^2$/ },
  { args: ["create", "serviceaccount", "robot"], code: 0, stdout: /^serviceaccount\/robot created\n$/ },
  { args: ["create", "role", "cm-reader", "--verb=get,list", "--resource=configmaps"], code: 0, stdout: /^role\.rbac\.authorization\.k8s\.io\/cm-reader created\n$/ },
  { args: ["create", "rolebinding", "robot-reads", "--role=cm-reader", "--serviceaccount=default:robot"], code: 0, stdout: /^rolebinding\.rbac\.authorization\.k8s\.io\/robot-reads created\n$/ },
  { args: ["get", "rolebindings"], code: 0, stdout: /^NAME\s+ROLE\s+AGE\nread-pods\s+Role\/pod-reader\s+\S+\nrobot-reads\s+Role\/cm-reader\s+\S+\n$/ },
  { args: ["create", "job", "again", "--image=busybox:1.36"], code: 0, stdout: /^job\.batch\/again created\n$/ },
  { args: ["explain", "statefulsets.spec.serviceName"], code: 0, stdout: /FIELD:\s+serviceName <string>/ },
  // watch: the initial list, then the change made while it runs; ended by --request-timeout
  {
    args: ["get", "configmaps", "--watch", "--request-timeout=4s"],
    code: 0,
    stdout: /^NAME\s+DATA\s+AGE\n(?:.*\n)*settings\s+3\s+\S+\n(?:.*\n)*settings\s+4\s+\S+\n/,
    during: { after: /^settings\s/m, args: ["patch", "configmap", "settings", "-p", '{"data":{"w":"1"}}'] },
  },
  // delete, dry run first
  { args: ["delete", "configmap", "from-file", "--dry-run=server"], code: 0, stdout: /^configmap "from-file" deleted \(server dry run\)\n$/ },
  { args: ["get", "configmap", "from-file", "-o", "name"], code: 0, stdout: /^configmap\/from-file\n$/ },
  { args: ["delete", "configmap", "from-file"], code: 0, stdout: /^configmap "from-file" deleted\n$/ },
  // wait
  { args: ["wait", "--for=delete", "configmap/from-file", "--timeout=5s"], code: 0 },
  { args: ["wait", "--for=jsonpath={.data.mode}=slow", "configmap/applied", "--timeout=5s"], code: 0, stdout: /^configmap\/applied condition met\n$/ },
  // explain (OpenAPI)
  { args: ["explain", "pods"], code: 0, stdout: /^KIND:\s+Pod\nVERSION:\s+v1\n[\s\S]*^FIELDS:\n[\s\S]*^\s+spec\s+<PodSpec>/m },
  { args: ["explain", "pods.spec.containers"], code: 0, stdout: /^KIND:\s+Pod\nVERSION:\s+v1\n[\s\S]*FIELD:\s+containers <\[\]Container>[\s\S]*^\s+image\s+<string>/m },
  // No controllers: nothing makes ReplicaSets or Pods, or runs a Pod, so these time out, as they do
  // against a kube-apiserver without kube-controller-manager, scheduler and kubelet.
  { args: ["rollout", "status", "deployment/web", "--timeout=2s"], code: 1, stdout: /^Waiting for deployment spec update to be observed\.\.\.\n/, stderr: /^error: timed out waiting for the condition\n$/ },
  { args: ["run", "probe", "--image=nginx"], code: 0, stdout: /^pod\/probe created\n$/ },
  { args: ["wait", "--for=condition=Ready", "pod/probe", "--timeout=2s"], code: 1, stderr: /^error: timed out waiting for the condition on pods\/probe\n$/ },
  // auth (no authentication configured: anonymous, allowed everything)
  { args: ["auth", "whoami"], code: 0, stdout: /^ATTRIBUTE\s+VALUE\nUsername\s+system:anonymous\nGroups\s+\[system:unauthenticated\]\n$/ },
  { args: ["auth", "can-i", "--list"], code: 0, stdout: /^Resources\s+Non-Resource URLs\s+Resource Names\s+Verbs\n\*\.\*\s+\[\]\s+\[\]\s+\[\*\]\n/ },
  { args: ["auth", "can-i", "create", "pods"], code: 0, stdout: /^yes\n$/ },
];

describe.skipIf(noKubectl)(`kubectl matrix against serve${noKubectl ? ` (skipped: no ${KUBECTL} on PATH)` : ""}`, () => {
  let serve: Running | undefined;
  let scratch = "";
  let env: NodeJS.ProcessEnv = {};

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), "orb-kubectl-matrix-"));
    serve = run(process.execPath, ["--import", "tsx", "scripts/cli.ts", "serve", "--port", "0"], process.env, 10 * 60_000);
    const url = await new Promise<string>((resolve, reject) => {
      const started = Date.now();
      const poll = setInterval(() => {
        const match = serve!.stdout().match(/^serving on (http:\/\/127\.0\.0\.1:\d+) \(dialect kubernetes\)\n/);
        if (match !== null) {
          clearInterval(poll);
          resolve(match[1]!);
        } else if (Date.now() - started > START_MS) {
          clearInterval(poll);
          reject(new Error(`serve printed no URL within ${START_MS} ms: ${serve!.stdout()}`));
        }
      }, 50);
    });
    const kubeconfig = join(scratch, "kubeconfig");
    await writeFile(
      kubeconfig,
      [
        "apiVersion: v1",
        "kind: Config",
        "clusters:",
        "- name: orb",
        `  cluster: {server: "${url}"}`,
        "contexts:",
        "- name: orb",
        "  context: {cluster: orb, user: orb, namespace: default}",
        "users:",
        "- name: orb",
        "  user: {}",
        "current-context: orb",
        "",
      ].join("\n"),
    );
    env = { ...process.env, KUBECONFIG: kubeconfig, HOME: scratch, KUBECACHEDIR: join(scratch, "cache") };
  }, START_MS + 5_000);

  afterAll(async () => {
    serve?.kill();
    await serve?.finished;
    if (scratch !== "") await rm(scratch, { recursive: true, force: true });
  });

  const kubectl = (args: readonly string[]) => {
    const withFiles = args.map((arg) => (arg.startsWith("FILE:") ? join(scratch, arg.slice("FILE:".length)) : arg));
    // A row may set its own --request-timeout (the watch); the others get 10 s.
    const timeout = args.some((arg) => arg.startsWith("--request-timeout")) ? [] : ["--request-timeout=10s"];
    return run(KUBECTL, [...timeout, ...withFiles], env, RUN_MS);
  };

  for (const row of ROWS) {
    const label = `kubectl ${row.args.join(" ")}`;
    it(`${label} → exit ${row.code}`, async () => {
      for (const [name, text] of Object.entries(row.files ?? {})) await writeFile(join(scratch, name), text);
      const running = kubectl(row.args);
      let during = "";
      if (row.during !== undefined) {
        const { after, args } = row.during;
        const deadline = Date.now() + RUN_MS;
        while (!after.test(running.stdout()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
        await new Promise((resolve) => setTimeout(resolve, 300)); // the watch opens after the list is printed
        const side = await kubectl(args).finished;
        during = `\n(during: kubectl ${args.join(" ")} → exit ${side.code}\n${side.stdout}${side.stderr})`;
      }
      const result = await running.finished;
      const ok =
        result.code === row.code && (row.stdout === undefined || row.stdout.test(result.stdout)) && (row.stderr === undefined || row.stderr.test(result.stderr));
      const message = [
        `${label}`,
        `expected exit ${row.code}${row.stdout ? `, stdout ${row.stdout}` : ""}${row.stderr ? `, stderr ${row.stderr}` : ""}`,
        `got exit ${result.code}`,
        `--- stdout\n${result.stdout}--- stderr\n${result.stderr}${during}`,
      ].join("\n");
      expect(ok, message).toBe(true);
    });
  }
});
