/**
 * Authentication with bearer tokens from the static token file (issue #4; doc 1 §5 leaves the
 * schemes open, clause doc1/5/credentials), as kube-apiserver's bearer-token authenticator and its
 * anonymous fallback do:
 *
 * - `Authorization: Bearer <token>` (the scheme word in any case; the header trimmed, the token is
 *   the text up to the next space) with a known token: that user, plus the group
 *   `system:authenticated`;
 * - a bearer token the file does not hold: 401 Unauthorized (transcript unauthorized). A bad token
 *   is never downgraded to anonymous;
 * - no Authorization header, another scheme (`Basic …`), or an empty bearer token: the anonymous
 *   user `system:anonymous` in group `system:unauthenticated`, whom authorization then judges.
 */
import { failure, type ApiError } from "../responses/api-error.ts";
import type { TokenTable } from "./token-file.ts";
import { anonymousUser, AUTHENTICATED_GROUP, type UserInfo } from "./user.ts";

/** Request headers: a Fetch `Headers`, or a plain record as node:http gives (names in any case). */
export type RequestHeaders = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

/** The outcome of authentication. */
export type AuthenticationResult =
  | { readonly outcome: "authenticated"; readonly user: UserInfo }
  | { readonly outcome: "anonymous"; readonly user: UserInfo }
  | { readonly outcome: "unauthorized"; readonly error: ApiError };

/** Who sent a request, by its bearer token. */
export function authenticate(headers: RequestHeaders, tokens: TokenTable): AuthenticationResult {
  const token = bearerToken(headerValue(headers, "authorization"));
  if (token === undefined) return { outcome: "anonymous", user: anonymousUser };
  const user = tokens.get(token);
  if (user === undefined) return { outcome: "unauthorized", error: unauthorizedError() };
  const groups = user.groups.includes(AUTHENTICATED_GROUP) ? user.groups : [...user.groups, AUTHENTICATED_GROUP];
  return { outcome: "authenticated", user: { ...user, groups } };
}

/** The 401 for credentials the server does not accept (transcript unauthorized). */
export function unauthorizedError(): ApiError {
  return failure("Unauthorized", "Unauthorized");
}

/** The token of an `Authorization: Bearer <token>` value, or undefined when the value carries none. */
export function bearerToken(authorization: string | undefined): string | undefined {
  const value = (authorization ?? "").trim();
  if (value === "") return undefined;
  const parts = value.split(" ");
  if (parts.length < 2 || parts[0]!.toLowerCase() !== "bearer") return undefined;
  const token = parts[1]!;
  // "Bearer  x" (two spaces) gives an empty token: Kubernetes treats it as no token at all.
  return token === "" ? undefined : token;
}

/** The first value of a header, its name matched without regard to case (Go's Header.Get). */
function headerValue(headers: RequestHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name || value === undefined) continue;
    return typeof value === "string" ? value : value[0];
  }
  return undefined;
}
