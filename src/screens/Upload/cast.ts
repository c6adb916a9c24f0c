import { useState } from 'react';
import type { JobCreateRequest } from '../../api/gen/model';

/**
 * The request read with a full cast when `on`: `voice_config.cast`, and the voices the reader
 * chose for characters (`cast_voices`, only when there are some). Off, the request as it was.
 */
export function withCast(
  request: JobCreateRequest,
  on: boolean,
  voices: Readonly<Record<string, string>> = {},
): JobCreateRequest {
  if (!on || request.voice_config === undefined) return request;
  const chosen = Object.keys(voices).length > 0 ? { cast_voices: { ...voices } } : {};
  return { ...request, voice_config: { ...request.voice_config, cast: true, ...chosen } };
}

/**
 * The "Full cast" switch (off by default) and the voices chosen for the preview's characters,
 * for one provider: another provider's voices start afresh.
 */
export function useCastChoice(provider: string) {
  const [on, setOn] = useState(false);
  const [chosen, setChosen] = useState<{ provider: string; voices: Record<string, string> }>({
    provider,
    voices: {},
  });
  const voices = chosen.provider === provider ? chosen.voices : {};
  return {
    on,
    setOn,
    voices,
    choose: (characterId: string, voiceId: string) =>
      setChosen({ provider, voices: { ...voices, [characterId]: voiceId } }),
  };
}

export type CastChoice = ReturnType<typeof useCastChoice>;
