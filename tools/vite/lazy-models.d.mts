import type { Plugin } from 'vite';

export const lazyModelChunks: { name: string; test: RegExp }[];
export function lazyZodModels(options: { lazySchemaModule: string }): Plugin;
