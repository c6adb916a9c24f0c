import type { Server } from 'node:http';

/** Serves a built site from `dir` under `prefix` (default '/') on 127.0.0.1, a free port. */
export function serveStatic(dir: string, options?: { prefix?: string; port?: number; host?: string }): Promise<Server>;
/** The address a server from serveStatic answers at, with its prefix. */
export function urlOf(server: Server, prefix?: string): string;
