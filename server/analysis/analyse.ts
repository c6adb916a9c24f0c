/**
 * The whole tutoring analysis in one call, in the calling thread: both halves, both NLP libraries.
 * The server never runs it like this (./run.ts runs each half in a thread of its own); it is the
 * reference the threads must agree with, and what the analysis's tests read.
 */
import { findPeopleAndPlaces } from './people-and-places';
import { analyseFound, type TutoringAnalysis } from './tutoring';

/** Analyses a text for the tutoring features. Never throws. */
export function analyseText(text: string, now = new Date()): TutoringAnalysis {
  return analyseFound(findPeopleAndPlaces(text), now);
}
