/**
 * Password strength, as the server judges it: zxcvbn-ts with its common and English dictionaries,
 * and a score of at least MIN_STRENGTH_SCORE (out of 4) to be accepted. The estimator and its
 * dictionaries (several hundred KB) load on first use, with a dynamic import, so the sign-in and
 * sign-up pages do not carry them in their first load.
 */
export const MIN_STRENGTH_SCORE = 3;

/** Only the first characters are rated, as on the server. */
const RATED_LENGTH = 64;

export interface PasswordStrength {
  /** 0 (trivial to guess) to 4 (very hard). */
  score: 0 | 1 | 2 | 3 | 4;
  acceptable: boolean;
  /** What makes it weak, and what would help; empty for a good password. */
  advice: string[];
}

type Estimate = (password: string, userInputs: string[]) => PasswordStrength;

/** The estimator's load, shared by every caller once started (null: not started, or it failed). */
const estimator: { loading: Promise<Estimate> | null } = { loading: null };

/** Loads the estimator once; later calls share the same promise. */
export function loadStrengthEstimator(): Promise<Estimate> {
  estimator.loading ??= Promise.all([
    import('@zxcvbn-ts/core'),
    import('@zxcvbn-ts/language-common'),
    import('@zxcvbn-ts/language-en'),
  ]).then(([core, common, en]) => {
    const zxcvbn = new core.ZxcvbnFactory({
      dictionary: { ...common.dictionary, ...en.dictionary },
      graphs: common.adjacencyGraphs,
      translations: en.translations,
      maxLength: RATED_LENGTH,
    });
    return (password, userInputs) => {
      const result = zxcvbn.check(password.slice(0, RATED_LENGTH), [...userInputs, 'lectio']);
      const advice = [result.feedback.warning, ...result.feedback.suggestions].filter(
        (line): line is string => typeof line === 'string' && line !== '',
      );
      return { score: result.score, acceptable: result.score >= MIN_STRENGTH_SCORE, advice };
    };
  });
  // A failed load (offline) may be retried later; the server judges the password anyway.
  const loading = estimator.loading;
  loading.catch(() => {
    if (estimator.loading === loading) estimator.loading = null;
  });
  return loading;
}

/** The words the estimator should treat as personal: the email and its local part. */
export function personalInputs(email: string): string[] {
  const trimmed = email.trim();
  if (trimmed === '') return [];
  return [trimmed, trimmed.split('@')[0] ?? ''].filter((input) => input !== '');
}

/** The message shown when a password is refused for being easy to guess (the server's wording). */
export function weakPasswordMessage(strength: PasswordStrength): string {
  return ['This password is too easy to guess.', ...strength.advice].join(' ');
}
