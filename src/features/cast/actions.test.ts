import { beforeEach, describe, expect, it } from 'vitest';
import { correctionKept, reconversionDone, resetCast } from './actions';
import { state } from './state';

describe('cast actions', () => {
  beforeEach(resetCast);

  it('gathers the chapters read again, in order, until the book is done', () => {
    correctionKept('book', [3], 1);
    correctionKept('book', [1, 3], 2);
    expect(state.reconverting.book).toEqual({ chapters: [1, 3], since: 2 });
    reconversionDone('book');
    expect(state.reconverting.book).toBeUndefined();
  });

  it('sets nothing going when no chapter is read again', () => {
    correctionKept('book', []);
    expect(state.reconverting).toEqual({});
  });
});
