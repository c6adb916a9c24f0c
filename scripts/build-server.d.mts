export const SERVER_OUT: string;
export const SERVER_ENTRY: string;
export const SERVER_NODE_FLAGS: string[];
export const SERVER_ENV: Record<string, string>;
export function newestMtime(target: string): number;
export function serverIsStale(): boolean;
export function buildServer(): Promise<void>;
export function buildServerIfStale(): Promise<boolean>;
