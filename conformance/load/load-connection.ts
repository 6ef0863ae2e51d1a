/**
 * The HTTP plumbing of a load run: one keep-alive agent for the writers, a connection of its own
 * for every watcher (as informers in separate processes have), the token and TLS settings of the
 * target. node:http rather than fetch: a thousand streaming responses read through fetch's web
 * streams cost the client more than the server, and the client must not be what is measured.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";

/** Where the load goes and how to authenticate. */
export interface LoadTarget {
  readonly url: string;
  readonly token?: string;
  /** PEM of the certificate authority that signed the server's certificate. */
  readonly certificateAuthority?: string;
  /** Accept any certificate (`--insecure-skip-tls-verify`). */
  readonly insecureSkipTlsVerify?: boolean;
}

/** A small JSON exchange's answer. */
export interface JsonAnswer {
  readonly status: number;
  readonly body: any;
}

/** Requests against one target. */
export class LoadConnection {
  private readonly base: URL;
  private readonly writerAgent: HttpAgent;

  constructor(
    private readonly target: LoadTarget,
    writers: number,
  ) {
    this.base = new URL(target.url);
    const options = { keepAlive: true, maxSockets: writers, ...this.tls() };
    this.writerAgent = this.secure ? new HttpsAgent(options) : new HttpAgent(options);
  }

  /** Sends a JSON request on the writers' keep-alive connections and reads the whole answer. */
  json(method: string, path: string, body?: unknown): Promise<JsonAnswer> {
    return new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const request = this.send(method, path, this.writerAgent, payload === undefined ? {} : { "content-type": "application/json" }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            // not JSON: the caller sees the text
          }
          resolve({ status: response.statusCode ?? 0, body: parsed });
        });
        response.on("error", reject);
      });
      request.on("error", reject);
      request.end(payload);
    });
  }

  /** Opens a streaming GET on a connection of its own, accepting `accept`; resolves with the response once its head arrives. */
  stream(path: string, accept: string): Promise<IncomingMessage> {
    return new Promise((resolve, reject) => {
      const request = this.send("GET", path, false, { accept }, resolve);
      request.on("error", reject);
      request.end();
    });
  }

  /** Closes the writers' idle connections. */
  close(): void {
    this.writerAgent.destroy();
  }

  private get secure(): boolean {
    return this.base.protocol === "https:";
  }

  private tls(): object {
    if (!this.secure) return {};
    return {
      rejectUnauthorized: this.target.insecureSkipTlsVerify !== true,
      ...(this.target.certificateAuthority !== undefined && { ca: this.target.certificateAuthority }),
    };
  }

  private send(method: string, path: string, agent: HttpAgent | false, headers: Record<string, string>, onResponse: (response: IncomingMessage) => void) {
    const options = {
      method,
      host: this.base.hostname,
      port: this.base.port,
      path,
      agent,
      headers: { accept: "application/json", ...headers, ...(this.target.token !== undefined && { authorization: `Bearer ${this.target.token}` }) },
      ...this.tls(),
    };
    return this.secure ? httpsRequest(options, onResponse) : httpRequest(options, onResponse);
  }
}
