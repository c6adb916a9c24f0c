import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import { loadEnvironment, state } from './store';

/** The environment info (null until known); loads it on first use. */
export function useEnvironment() {
  const snap = useSnapshot(state);
  useEffect(() => {
    if (!state.info) void loadEnvironment();
  }, []);
  return snap.info;
}
