/**
 * The 500 kube-apiserver's filters answer with responsewriters.InternalError: plain text, not a
 * Status, e.g. for impersonation headers that name no user (recorded from kube-apiserver 1.26.4):
 *
 * ```
 * HTTP/1.1 500 Internal Server Error
 * Content-Type: text/plain; charset=utf-8
 * X-Content-Type-Options: nosniff
 *
 * Internal Server Error: "/version?a=&lt;b&gt;&amp;c": requested [{Group  devs    }] without impersonating a user
 * ```
 *
 * The text is `Internal Server Error: %q: %v` of the request URI and the error, with `&`, `<` and
 * `>` then escaped as HTML entities (Go's http.Error body, through apiserver's sanitizer); quotes
 * stay as %q wrote them.
 */
import { ApiError, failure } from "./api-error.ts";
import { goQuote } from "./go-text.ts";

/**
 * An error the server answers as Kubernetes' plain-text 500. It is an ApiError (an InternalError
 * Status with the same message) so that code which only knows Status errors still answers 500;
 * the handler writes it as text with `plainInternalErrorResponse`.
 */
export class PlainInternalError extends ApiError {
  constructor(readonly detail: string) {
    super(failure("InternalError", `Internal error occurred: ${detail}`).status);
  }
}

/**
 * The plain-text 500 for `request`. The request URI is the path and query of the parsed URL: the
 * raw request target is not kept by the Fetch Request, so characters the URL parser
 * percent-encodes (`<` in a query) appear encoded where Go would print them raw.
 */
export function plainInternalErrorResponse(request: Request, error: PlainInternalError): Response {
  const url = new URL(request.url);
  const text = `Internal Server Error: ${goQuote(`${url.pathname}${url.search}`)}: ${error.detail}`;
  return new Response(`${sanitize(text)}\n`, {
    status: 500,
    headers: { "content-type": "text/plain; charset=utf-8", "x-content-type-options": "nosniff" },
  });
}

/** apiserver's responsewriters sanitizer: only these three characters become entities. */
function sanitize(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}
