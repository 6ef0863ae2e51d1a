/** Node flags every orb-harness process runs with (see node-flags.mjs). */
export declare const NODE_FLAGS: string[];
