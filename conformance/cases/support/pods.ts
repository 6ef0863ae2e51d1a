/** Pods the cases create. */
import type { CaseContext } from "../../case-context.ts";
import { checkCreated } from "./creates.ts";
import type { ObjectBody } from "./object-body.ts";
import { awaitDefaultServiceAccount } from "./service-account-wait.ts";

/** A Pod body with one container, as in the reference transcript pod-create. */
export function podBody(name: string): Record<string, unknown> {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name, labels: { app: name } },
    spec: { automountServiceAccountToken: false, containers: [{ name: "c", image: "registry.example/app:1" }] },
  };
}

/** Creates Pod `name` in the case's namespace, once the namespace has its default ServiceAccount. */
export async function createPod(context: CaseContext, name: string): Promise<ObjectBody> {
  await awaitDefaultServiceAccount(context);
  return checkCreated(await context.client.post(`/api/v1/namespaces/${context.namespace}/pods`, podBody(name)), `creating Pod ${name}`);
}
