/** Values the cases put in query strings. */

/** A query string value, encoded. */
export function q(value: string): string {
  return encodeURIComponent(value);
}
