/**
 * eSpeak-NG's word events out of its WebAssembly build. The npm build exposes the command line
 * only, whose synthesis callback (`SynthCallback` of espeak-ng.c, called with each block of
 * samples and the events inside it) writes the samples and drops the events. The callback is
 * called through the module's function table, so an entry of ours that reads the events and then
 * calls the original takes its place: the words come timed as they do from the native library
 * (espeak-host.c), and the two offline paths time words alike (espeak-words.ts).
 *
 * Which entry is the callback is found once per instance: each table entry taking three arguments
 * is tried in turn on a short text, and the one called with blocks whose samples add up to what
 * eSpeak wrote, with word events among its events, is kept. An entry of another signature traps
 * when called through ours (WebAssembly checks the signature), which rules it out too.
 */
import type { HostWord } from './espeak-host';

/** Minimal typings: the server's tsconfig has no DOM lib and @types/node lacks WebAssembly. */
export interface WasmTable {
  readonly length: number;
  get(index: number): ((...args: number[]) => number) | null;
  set(index: number, value: unknown): void;
}
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: { f: unknown } };
}
const Wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

/** `espeak_EVENT` on wasm32: type, unique id, text position, length, audio position, sample, user data, id (8). */
const EVENT_BYTES = 36;
const EVENT_WORD = 1;
/** More than one block ever holds (eSpeak allows 200 events a second, blocks are 60 ms). */
const MAX_EVENTS = 256;

/**
 * A module of one function of type (i32, i32, i32) -> i32 that is its import: how a JavaScript
 * function becomes a WebAssembly function a table may hold.
 */
const TRAMPOLINE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // magic, version
  0x01, 0x08, 0x01, 0x60, 0x03, 0x7f, 0x7f, 0x7f, 0x01, 0x7f, // type 0: (i32 i32 i32) -> i32
  0x02, 0x07, 0x01, 0x01, 0x65, 0x01, 0x66, 0x00, 0x00, // import "e" "f" as function 0
  0x07, 0x05, 0x01, 0x01, 0x66, 0x00, 0x00, // export "f" = function 0
]); // prettier-ignore

/** The words and samples of one synthesis callback block. */
export interface EventBlock {
  samples: number;
  words: HostWord[];
}

/** Reads the word events of the list at `events` (it ends with an event of type 0). */
function readWords(memory: ArrayBuffer, events: number): HostWord[] {
  const words: HostWord[] = [];
  const view = new DataView(memory);
  const end = Math.min(memory.byteLength, events + MAX_EVENTS * EVENT_BYTES);
  for (let at = events; at > 0 && at + EVENT_BYTES <= end; at += EVENT_BYTES) {
    const type = view.getInt32(at, true);
    if (type === 0) break;
    if (type !== EVENT_WORD) continue;
    words.push({
      position: view.getInt32(at + 8, true),
      length: view.getInt32(at + 12, true),
      sample: Math.max(0, view.getInt32(at + 20, true)),
    });
  }
  return words;
}

/** Puts `listener` in front of table entry `index`: it sees each call's blocks, then the original runs. */
function hook(
  table: WasmTable,
  index: number,
  memory: () => ArrayBuffer,
  listener: (block: EventBlock) => void,
): () => void {
  const original = table.get(index)!;
  const module = new Wasm.Module(TRAMPOLINE);
  const wrapper = new Wasm.Instance(module, {
    e: {
      f: (wav: number, samples: number, events: number) => {
        if (wav !== 0) listener({ samples, words: readWords(memory(), events) });
        return original(wav, samples, events);
      },
    },
  }).exports.f;
  table.set(index, wrapper);
  return () => table.set(index, original);
}

/**
 * Installs the word-event listener on eSpeak's synthesis callback. `trial(run)` speaks a short
 * text with the listener in place and returns the samples eSpeak wrote (or throws); the entry
 * whose blocks match them and carry words is kept hooked. Throws when no entry does.
 */
export function hookSynthCallback(
  table: WasmTable,
  memory: () => ArrayBuffer,
  listener: (block: EventBlock) => void,
  trial: () => number,
): void {
  const candidates: number[] = [];
  for (let i = table.length - 1; i > 0; i--) if (table.get(i)?.length === 3) candidates.push(i);
  for (const index of candidates) {
    let samples = 0;
    let words = 0;
    const unhook = hook(table, index, memory, (block) => {
      samples += block.samples;
      words += block.words.length;
    });
    let written = -1;
    try {
      written = trial();
    } catch {
      /* a signature other than the callback's: not it */
    }
    unhook();
    if (written > 0 && samples === written && words > 0) {
      hook(table, index, memory, listener);
      return;
    }
  }
  throw new Error("eSpeak-NG WebAssembly: its synthesis callback was not found (the package's build changed?)");
}
