/**
 * Where a credential shows up in a run's outputs (issue #14: never in stdout, stderr, a report or
 * a transcript). A credential is looked for as given and in the encodings a leak would take: base64
 * (a Secret's data, a basic-auth header) and base64url (a JWT segment).
 */

/** The forms of `secret` a leak may take, by name. */
export function secretForms(secret: string): Record<string, string> {
  const bytes = Buffer.from(secret, "utf8");
  return { raw: secret, base64: bytes.toString("base64").replace(/=+$/, ""), base64url: bytes.toString("base64url") };
}

/** "<output>: <form> of <secret name>" for every output holding a form of a secret. */
export function findSecrets(outputs: Readonly<Record<string, string>>, secrets: Readonly<Record<string, string>>): string[] {
  const found: string[] = [];
  for (const [output, text] of Object.entries(outputs)) {
    for (const [secretName, secret] of Object.entries(secrets)) {
      for (const [form, value] of Object.entries(secretForms(secret))) if (text.includes(value)) found.push(`${output}: ${form} of ${secretName}`);
    }
  }
  return found;
}
