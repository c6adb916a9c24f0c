import { loadStrengthEstimator, personalInputs, weakPasswordMessage } from './strength';

describe('the password strength estimator', () => {
  it('rates common and personal passwords as too weak and passphrases as acceptable, like the server', async () => {
    const estimate = await loadStrengthEstimator();
    const inputs = personalInputs(' new.reader@example.com ');
    expect(inputs).toEqual(['new.reader@example.com', 'new.reader']);

    const common = estimate('password1', inputs);
    expect(common).toMatchObject({ score: 0, acceptable: false });
    expect(weakPasswordMessage(common)).toBe(
      'This password is too easy to guess. This is a commonly used password. Add more words that are less common.',
    );
    expect(estimate('new.reader2024', inputs).acceptable).toBe(false);
    expect(estimate('correct-horse-battery', inputs)).toEqual({ score: 4, acceptable: true, advice: [] });
  });

  it('loads the dictionaries once', async () => {
    expect(loadStrengthEstimator()).toBe(loadStrengthEstimator());
  });
});
