/** Deployments the cases create. */

/** A Deployment body with the given containers and no replicas (nothing for a real cluster to run). */
export function deploymentBody(name: string, containers: ReadonlyArray<{ name: string; image: string }>): Record<string, unknown> {
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name },
    spec: {
      replicas: 0,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers } },
    },
  };
}
