import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as zxcvbnCommon from '@zxcvbn-ts/language-common';
import * as zxcvbnEn from '@zxcvbn-ts/language-en';

/**
 * New passwords must be at least 8 characters (the contract's minLength, checked with the request
 * body) and not easy to guess: zxcvbn-ts, with its common and English dictionaries (frequent
 * passwords, names, words, keyboard patterns, dates, l33t substitutions), must rate them at least
 * MIN_SCORE out of 4. Score 3 means "safely unguessable": about 10^8 guesses or more, enough for a
 * stolen scrypt hash. The SPA's strength meter uses the same estimator and the same threshold.
 */
export const MIN_SCORE = 3;

/** Only the first characters are rated: the estimate grows costly with length, and past this a password is long enough. */
const RATED_LENGTH = 64;

let estimator: ZxcvbnFactory | null = null;

function getEstimator(): ZxcvbnFactory {
  // Built on first use: unpacking the dictionaries takes about half a second.
  estimator ??= new ZxcvbnFactory({
    dictionary: { ...zxcvbnCommon.dictionary, ...zxcvbnEn.dictionary },
    graphs: zxcvbnCommon.adjacencyGraphs,
    translations: zxcvbnEn.translations,
    maxLength: RATED_LENGTH,
  });
  return estimator;
}

/** Null when the password is strong enough; otherwise the reason, in words to show the user. */
export function weakPasswordReason(password: string, email: string): string | null {
  const localPart = email.split('@')[0] ?? '';
  const result = getEstimator().check(password.slice(0, RATED_LENGTH), [email, localPart, 'lectio']);
  if (result.score >= MIN_SCORE) return null;
  const advice = [result.feedback.warning, ...result.feedback.suggestions].filter(
    (line): line is string => typeof line === 'string' && line !== '',
  );
  return ['This password is too easy to guess.', ...advice].join(' ');
}
