// Minimal typing for the Emscripten build in node_modules/espeak-ng (it ships no declarations).
declare module 'espeak-ng' {
  export interface ESpeakNgFS {
    readFile(path: string): Uint8Array;
    readFile(path: string, opts: { encoding: 'utf8' }): string;
    writeFile(path: string, data: string | Uint8Array): void;
    unlink(path: string): void;
    readdir(path: string): string[];
    stat(path: string): { mode: number };
    isDir(mode: number): boolean;
    analyzePath(path: string): { exists: boolean };
    close(stream: unknown): void;
    streams: ({ fd: number; stream_ops: ESpeakNgStreamOps } | null | undefined)[];
    makedev(major: number, minor: number): number;
    registerDevice(dev: number, ops: ESpeakNgStreamOps): void;
    mkdev(path: string, mode: number, dev: number): unknown;
  }
  /** A device's operations: `buffer` is the module's heap (an Int8Array), `offset` an index into it. */
  export interface ESpeakNgStreamOps {
    open?(stream: unknown): void;
    close?(stream: unknown): void;
    read(stream: unknown, buffer: Int8Array, offset: number, length: number): number;
    write?(stream: unknown, buffer: Int8Array, offset: number, length: number): number;
  }
  export interface ESpeakNgModule {
    FS: ESpeakNgFS;
    HEAPU8: Uint8Array;
    _main(argc: number, argv: number): number;
  }
  export interface ESpeakNgOptions {
    arguments?: string[];
    noInitialRun?: boolean;
    print?: (text: string) => void;
    printErr?: (text: string) => void;
    /** Makes /dev/stdin a device of its own; returning null is end of input. */
    stdin?: () => number | null;
    wasmBinary?: ArrayBuffer | Uint8Array;
    /** (imports, receiveInstance) => exports; types kept opaque (the server lib has no WebAssembly typings). */
    instantiateWasm?: (imports: object, receive: (instance: object, module: object) => void) => object;
  }
  const ESpeakNg: (options?: ESpeakNgOptions) => Promise<ESpeakNgModule>;
  export default ESpeakNg;
}
