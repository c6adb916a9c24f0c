import { act, renderHook } from '@testing-library/react';
import { connectivity, useOnline } from '.';

afterEach(() => {
  connectivity.online = true;
});

describe('connectivity', () => {
  it("follows the browser's offline and online events", async () => {
    const { result } = renderHook(() => useOnline());
    expect(result.current).toBe(true);
    // Valtio tells its subscribers after the current task: awaited inside act.
    await act(async () => {
      window.dispatchEvent(new Event('offline'));
    });
    expect(result.current).toBe(false);
    expect(connectivity.online).toBe(false);
    await act(async () => {
      window.dispatchEvent(new Event('online'));
    });
    expect(result.current).toBe(true);
  });
});
