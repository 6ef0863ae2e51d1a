/** Building responses: JSON bodies, Status errors, and the plain-text 404 of unknown groups. */
import { maxRequestBodyBytes, maxRequestHeaderBytes } from "../../../spec/doc1/limits.ts";
import { ApiError, badRequest, methodNotAllowed } from "./api-error.ts";
import { requestEntityTooLarge } from "../request/request-body.ts";
import { completeResponse } from "../../transport/complete-body.ts";

/** A JSON response. */
export function jsonResponse(status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): Response {
  // Kubernetes ends every JSON body with a newline.
  return completeResponse(`${JSON.stringify(body)}\n`, { status, headers: { "content-type": "application/json", ...headers } });
}

/** The Status response of an ApiError. */
export function errorResponse(error: ApiError): Response {
  return jsonResponse(error.code, error.status, error.headers);
}

/** Kubernetes' answer to a path no API group serves: plain text, not a Status (transcript unknown-group). */
export function pageNotFound(): Response {
  return new Response("404 page not found\n", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
}

/**
 * The Status a socket adapter answers a request with when it cannot hand it to the handler: 405
 * MethodNotAllowed for a method a fetch Request cannot carry (TRACE), 400 BadRequest for a target
 * or Host header that makes no URL (sim/transport/http-server.ts `refused`).
 */
export function refusedResponse(status: 400 | 405, message: string): Response {
  return errorResponse(status === 405 ? methodNotAllowed() : badRequest(message));
}

/**
 * What the socket adapter (sim/transport/http-server.ts) answers for the API server before a
 * request reaches the handler, as Status objects: 413 past the body limit, and the refusals above;
 * heads over Kubernetes' header limit get Go's plain-text 431 (sim/transport/parser-refusals.ts).
 * `serve` and the conformance suite's embedded target both serve with these.
 */
export const socketAnswers = {
  maxBodyBytes: maxRequestBodyBytes,
  maxHeaderBytes: maxRequestHeaderBytes,
  tooLarge: (): Response => errorResponse(requestEntityTooLarge()),
  refused: refusedResponse,
} as const;
