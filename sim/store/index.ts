/** The MVCC store's public surface. */
export { MvccStore } from "./mvcc-store.ts";
export type { ListOptions, ListResult, MvccStoreOptions, WatchOptions, WritePreconditions } from "./mvcc-store.ts";
export { startCompactor } from "./compactor.ts";
export { collectionPrefix, encodeKey, type ObjectKey } from "./object-key.ts";
export { decimalResourceVersions, type ResourceVersionCodec } from "./resource-version.ts";
export type { ObjectMeta, StoredObject } from "./stored-object.ts";
export { WATCH_BUFFER_CAPACITY, Watch } from "./watch.ts";
export type { BookmarkEvent, ObjectEvent, WatchEndReason, WatchEvent, WatchEventType } from "./watch.ts";
export * from "./errors.ts";
