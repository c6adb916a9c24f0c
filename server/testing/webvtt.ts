/**
 * Reads a WebVTT file with webvtt-parser (the W3C WebVTT parsing algorithm, with its validator's
 * errors) for the tests of the transcripts the feeds serve: any error the parser reports fails,
 * naming its line. A cue's text comes back with its character references decoded.
 */
import { WebVTTParser, type Entity, type Tree, type TreeNode } from 'webvtt-parser';

/** The character references a cue's text may hold (the parser's default table lacks their ";"). */
const REFERENCES: Record<Entity, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&lrm;': '\u200e',
  '&rlm;': '\u200f',
  '&nbsp;': '\u00a0',
};

export interface VttCue {
  id: string | null;
  /** Seconds. */
  start: number;
  end: number;
  text: string;
}

/** A cue's text as read: its text nodes' (references decoded), without its tags. */
function textOf(node: Tree | TreeNode): string {
  if (!('type' in node)) return node.children.map(textOf).join('');
  if (node.type === 'text') return node.value;
  if (node.type === 'object') return (node.children as TreeNode[]).map(textOf).join('');
  return '';
}

export function readWebVtt(file: string): VttCue[] {
  const { cues, errors } = new WebVTTParser(REFERENCES).parse(file, 'metadata');
  if (errors.length > 0) throw new Error(errors.map((e) => `line ${e.line}: ${e.message}`).join('; '));
  return cues.map((cue) => ({ id: cue.id || null, start: cue.startTime, end: cue.endTime, text: textOf(cue.tree) }));
}
