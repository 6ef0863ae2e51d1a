// The entry of a digesting watchers' thread (digest-watcher-pool.ts): a worker thread does not
// inherit the TypeScript loader of its process, so it registers tsx itself before loading its code.
import { register } from "tsx/esm/api";

register();
await import("./digest-watchers-thread.ts");
