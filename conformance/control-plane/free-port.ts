/** A free TCP port on 127.0.0.1, found by binding port 0 and letting go (the OS does not hand it out again at once). */
import { createServer } from "node:net";

/** A port nothing listens on at the moment. */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
