import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JobRecord } from '../jobs/types';
import { LocalFileStorage } from '../storage/local';
import { createCastService, type CastDeps } from './service';
import type { Attribution } from './types';

const TEXT = 'Ann waved. "Hello," said Ann. "Hi," said Bo.';
const ATTRIBUTION: Attribution = {
  characters: [
    { id: 'bo', name: 'Bo', aliases: [], gender: 'male' },
    { id: 'ann', name: 'Ann', aliases: [], gender: 'female' },
  ],
  chapters: [
    [
      { charStart: 11, charEnd: 19, speaker: 'ann', confidence: 0.9 },
      { charStart: 30, charEnd: 35, speaker: 'bo', confidence: 0.9 },
    ],
  ],
};

function job(over: Partial<JobRecord> = {}): JobRecord {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    userId: 'u1',
    parentJobId: null,
    chapterOrder: null,
    jobType: 'text_to_audio',
    title: 'T',
    description: null,
    status: 'PROCESSING',
    progress: 0,
    errorMessage: null,
    config: { voice_config: { provider: 'offline', voice_id: 'en-us+f3', cast: true } },
    resultData: {},
    inputFileKey: null,
    outputFileKey: null,
    duration: null,
    createdAt: new Date(),
    updatedAt: new Date(),
    startedAt: null,
    completedAt: null,
    ...over,
  };
}

describe('the cast service', () => {
  let dir: string;
  let jobs: JobRecord[];
  let attributed: number;
  let deps: CastDeps;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'cast-'));
    jobs = [job()];
    attributed = 0;
    deps = {
      storage: new LocalFileStorage(dir),
      catalog: {
        list: async () => ({
          voices: [
            { provider: 'offline', id: 'en-us+f3', name: 'US English, female', language: 'en-US', default: true },
            { provider: 'offline', id: 'en-gb+f4', name: 'UK English, female', language: 'en-GB', default: false },
            { provider: 'offline', id: 'en-us+m3', name: 'US English, male', language: 'en-US', default: false },
          ],
          sources: [],
        }),
      },
      repo: {
        jobs: {
          getForUser: async (id: string, userId: string) =>
            jobs.find((j) => j.id === id && j.userId === userId) ?? null,
        },
        steps: { ofJobs: async () => [] },
      } as unknown as CastDeps['repo'],
      reconverter: { restart: async () => [] },
      attribute: () => {
        attributed += 1;
        return ATTRIBUTION;
      },
    };
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  it('answers 409 until the chapters are planned, then the cast with its voices', async () => {
    const cast = createCastService(deps);
    await expect(cast.view('u1', jobs[0]!.id)).rejects.toMatchObject({ kind: 'conflict' });
    await cast.plan(jobs[0]!, [TEXT]);
    expect(await cast.view('u1', jobs[0]!.id)).toEqual({
      narrator: { voice_id: 'en-us+f3' },
      characters: [
        { id: 'bo', name: 'Bo', aliases: [], gender: 'male', voice_id: 'en-us+m3', lines: 1 },
        { id: 'ann', name: 'Ann', aliases: [], gender: 'female', voice_id: 'en-gb+f4', lines: 1 },
      ],
    });
    // Planned again (a step run again): the cast kept stays.
    await cast.plan(jobs[0]!, [TEXT]);
    expect(attributed).toBe(1);
  });

  it("gives the synthesize step each quote's voice, and a chapter its book's cast", async () => {
    const cast = createCastService(deps);
    await cast.plan(jobs[0]!, [TEXT]);
    const chapter = await cast.chapterCast(job({ id: 'c1', parentJobId: jobs[0]!.id, chapterOrder: 1 }));
    expect(chapter).toMatchObject({
      narrator: 'en-us+f3',
      spans: [
        { charStart: 11, charEnd: 19, voice: 'en-gb+f4' },
        { charStart: 30, charEnd: 35, voice: 'en-us+m3' },
      ],
    });
    expect(await cast.chapterCast(job({ config: { voice_config: { provider: 'offline' } } }))).toBeNull();
  });

  it('keeps how sure each quote is, and a correction makes it sure', async () => {
    deps.attribute = () => ({
      ...ATTRIBUTION,
      chapters: [[ATTRIBUTION.chapters[0]![0]!, { ...ATTRIBUTION.chapters[0]![1]!, confidence: 0.3 }]],
    });
    const cast = createCastService(deps);
    await cast.plan(jobs[0]!, [TEXT]);
    expect((await cast.spansOf(jobs[0]!.id, 0))?.map((s) => s.confidence)).toEqual([0.9, 0.3]);
    await cast.update('u1', jobs[0]!.id, { overrides: [{ chapter: 1, char_start: 30, speaker: 'ann' }] });
    expect(await cast.spansOf(jobs[0]!.id, 0)).toEqual([
      { char_start: 11, char_end: 19, speaker: 'ann', confidence: 0.9 },
      { char_start: 30, char_end: 35, speaker: 'ann', confidence: 1 },
    ]);
  });

  it('gives a character the voice the job chose for it, when the provider lists it', async () => {
    jobs[0] = job({
      config: {
        voice_config: {
          provider: 'offline',
          voice_id: 'en-us+f3',
          cast: true,
          cast_voices: { ann: 'en-us+m3', bo: 'nope' },
        },
      },
    });
    const cast = createCastService(deps);
    await cast.plan(jobs[0], [TEXT]);
    const view = await cast.view('u1', jobs[0].id);
    expect(view.characters.map((c) => [c.id, c.voice_id])).toEqual([
      ['bo', 'en-us+m3'],
      ['ann', 'en-us+m3'],
    ]);
  });

  it("answers 404 for another reader's job, a chapter, and a job without a cast; never attributes one", async () => {
    jobs.push(job({ id: 'plain', config: { voice_config: { provider: 'offline' } } }));
    jobs.push(job({ id: 'chapter', parentJobId: jobs[0]!.id, chapterOrder: 1 }));
    const cast = createCastService(deps);
    await cast.plan(jobs[1]!, [TEXT]);
    expect(attributed).toBe(0);
    for (const [user, id] of [
      ['u2', jobs[0]!.id],
      ['u1', 'plain'],
      ['u1', 'chapter'],
    ] as const) {
      await expect(cast.view(user, id)).rejects.toMatchObject({ kind: 'not_found' });
      await expect(cast.update(user, id, {})).rejects.toMatchObject({ kind: 'not_found' });
    }
  });
});
