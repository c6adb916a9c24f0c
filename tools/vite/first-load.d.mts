import type { Plugin } from 'vite';

export const FIRST_LOAD_ROUTES: { name: string; path: string; modules: string[] }[];
export const firstLoadChunks: { name: string; test: (id: string) => boolean }[];
export function firstLoadGroups(options: { root: string }): Plugin;
