/**
 * Reading the `Impersonate-*` request headers into what they ask to impersonate, as
 * kube-apiserver's buildImpersonationRequests (k8s.io/apiserver pkg/endpoints/filters/
 * impersonation.go) does, and removing them once honoured:
 *
 * - `Impersonate-User`: its first value; empty means absent. A service account's user name
 *   (`system:serviceaccount:<ns>:<name>`) is a ServiceAccount, anything else a User;
 * - `Impersonate-Group`: every value, in order, each a Group (an empty value is a group "");
 * - `Impersonate-Extra-<key>`: every value a UserExtra of `<key>`, the header-name suffix
 *   lowercased then percent-decoded (`Impersonate-Extra-Example.COM%2FKey` → `example.com/key`;
 *   a malformed escape leaves the key as written, as Go's url.PathUnescape failing does);
 * - `Impersonate-Uid`: its first value; empty means absent.
 *
 * Groups, extras or a uid without a user are refused with Kubernetes' plain-text 500 (recorded
 * from kube-apiserver 1.26.4: `requested [{Group  devs    }] without impersonating a user`).
 *
 * Repeated headers: a Fetch `Headers` (and node:http before it) joins the values of a repeated
 * header with ", ", so the values are split there again; kubectl sends one header per
 * `--as-group`. A single header holding ", " (Go: one group named "devs, ops") therefore reads as
 * two values here. Go walks the extra headers in map order (random); here they come in the order
 * the headers iterate (a `Headers` sorts them by name).
 */
import { PlainInternalError } from "../responses/plain-internal-error.ts";
import type { RequestHeaders } from "./authenticate.ts";
import { splitServiceAccountUsername } from "./service-account-user.ts";

/** The header naming the user to act as. */
export const IMPERSONATE_USER_HEADER = "Impersonate-User";
/** The header naming a group of the impersonated user; repeatable. */
export const IMPERSONATE_GROUP_HEADER = "Impersonate-Group";
/** The header naming the uid of the impersonated user. */
export const IMPERSONATE_UID_HEADER = "Impersonate-Uid";
/** The prefix of the headers giving the impersonated user's extra values. */
export const IMPERSONATE_EXTRA_HEADER_PREFIX = "Impersonate-Extra-";

/** The API version Kubernetes records on UserExtra and UID requests (it shows in the 500 text). */
const AUTHENTICATION_V1 = "authentication.k8s.io/v1";

/** One thing a request asks to impersonate; each needs its own `impersonate` permission. */
export type ImpersonationRequest =
  | { readonly kind: "User"; readonly name: string }
  | { readonly kind: "ServiceAccount"; readonly namespace: string; readonly name: string }
  | { readonly kind: "Group"; readonly name: string }
  | { readonly kind: "UserExtra"; readonly key: string; readonly value: string }
  | { readonly kind: "UID"; readonly uid: string };

/** What the impersonation headers of a request ask for. */
export interface ImpersonationHeaders {
  /** In Kubernetes' order: the user, the groups, the extras, the uid. Empty: no impersonation. */
  readonly requests: readonly ImpersonationRequest[];
  /** Whether an Impersonate-Group header is present (then a service account gets no automatic groups). */
  readonly groupsSpecified: boolean;
}

/** Reads the impersonation headers; throws the plain-text 500 when they name groups, extras or a uid but no user. */
export function readImpersonationHeaders(headers: RequestHeaders): ImpersonationHeaders {
  const entries = headerEntries(headers);
  const values = (name: string) => entries.filter(([key]) => key === name.toLowerCase()).flatMap(([, list]) => list);
  const requests: ImpersonationRequest[] = [];

  const user = values(IMPERSONATE_USER_HEADER)[0] ?? "";
  if (user !== "") {
    const serviceAccount = splitServiceAccountUsername(user);
    requests.push(serviceAccount === undefined ? { kind: "User", name: user } : { kind: "ServiceAccount", ...serviceAccount });
  }
  const groups = values(IMPERSONATE_GROUP_HEADER);
  for (const group of groups) requests.push({ kind: "Group", name: group });
  const extraPrefix = IMPERSONATE_EXTRA_HEADER_PREFIX.toLowerCase();
  for (const [name, list] of entries) {
    if (!name.startsWith(extraPrefix)) continue;
    const key = pathUnescape(name.slice(extraPrefix.length));
    for (const value of list) requests.push({ kind: "UserExtra", key, value });
  }
  const uid = values(IMPERSONATE_UID_HEADER)[0] ?? "";
  if (uid !== "") requests.push({ kind: "UID", uid });

  if (user === "" && requests.length > 0) {
    throw new PlainInternalError(`requested [${requests.map(goObjectReference).join(" ")}] without impersonating a user`);
  }
  return { requests, groupsSpecified: groups.length > 0 };
}

/** Removes every impersonation header, as Kubernetes does before the request goes on. */
export function removeImpersonationHeaders(headers: Headers): void {
  const extraPrefix = IMPERSONATE_EXTRA_HEADER_PREFIX.toLowerCase();
  const names = [...headers.keys()].filter((name) => name.startsWith(extraPrefix));
  for (const name of [IMPERSONATE_USER_HEADER, IMPERSONATE_GROUP_HEADER, IMPERSONATE_UID_HEADER, ...names]) headers.delete(name);
}

/** Every header as [lowercase name, values], repeated headers split again (see the file comment). */
function headerEntries(headers: RequestHeaders): [string, string[]][] {
  if (headers instanceof Headers) return [...headers.entries()].map(([name, value]) => [name, value.split(", ")]);
  return Object.entries(headers).flatMap(([name, value]): [string, string[]][] => {
    if (value === undefined) return [];
    return [[name.toLowerCase(), typeof value === "string" ? value.split(", ") : [...value]]];
  });
}

/** Go's url.PathUnescape, keeping the text as it is when an escape is malformed. */
function pathUnescape(text: string): string {
  if (!/^(?:[^%]|%[0-9a-fA-F]{2})*$/.test(text)) return text;
  const bytes: number[] = [];
  for (let index = 0; index < text.length; index++) {
    if (text[index] === "%") {
      bytes.push(Number.parseInt(text.slice(index + 1, index + 3), 16));
      index += 2;
    } else {
      bytes.push(...new TextEncoder().encode(text[index]!));
    }
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

/**
 * A request as Go's `%v` prints the core/v1 ObjectReference Kubernetes builds for it: the fields
 * Kind, Namespace, Name, UID, APIVersion, ResourceVersion, FieldPath joined by spaces in braces.
 * A UserExtra keeps its key in FieldPath; UserExtra and UID carry authentication.k8s.io/v1.
 */
function goObjectReference(request: ImpersonationRequest): string {
  const fields = (kind: string, namespace: string, name: string, apiVersion = "", fieldPath = "") =>
    `{${[kind, namespace, name, "", apiVersion, "", fieldPath].join(" ")}}`;
  switch (request.kind) {
    case "User":
    case "Group":
      return fields(request.kind, "", request.name);
    case "ServiceAccount":
      return fields(request.kind, request.namespace, request.name);
    case "UserExtra":
      return fields(request.kind, "", request.value, AUTHENTICATION_V1, request.key);
    case "UID":
      return fields(request.kind, "", request.uid, AUTHENTICATION_V1);
  }
}
