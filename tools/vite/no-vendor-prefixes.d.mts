import type { Plugin } from 'vite';

export function noVendorPrefixes(): Plugin;
