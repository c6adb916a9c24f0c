import { decodeResultData, MalformedJobRowError } from './rows';

const JOB = '6f1c2d3e-4a5b-4c6d-8e7f-001122334455';

describe('decodeResultData', () => {
  it('reads what finalize writes, from an object or from JSON text, keeping keys it does not know', () => {
    const written = {
      duration: 12.5,
      duration_seconds: 12.5,
      file_size_bytes: 200_000,
      format: 'mp3',
      tts_engine: 'espeak-ng',
      chapters: [{ title: 'One', order: 1, duration: 12.5, file_key: 'jobs/a/audio.mp3', job_id: 'a' }],
      child_job_ids: ['a'],
      added_later: true,
    };
    expect(decodeResultData(JOB, written)).toEqual(written);
    expect(decodeResultData(JOB, JSON.stringify(written))).toEqual(written);
    expect(decodeResultData(JOB, {})).toEqual({});
  });

  it('names the job and the bad field when the stored JSON is not what the pipeline writes', () => {
    expect(() => decodeResultData(JOB, { duration: 'long' })).toThrow(MalformedJobRowError);
    expect(() => decodeResultData(JOB, { duration: 'long' })).toThrow(
      `Job ${JOB} has a malformed result_data: duration:`,
    );
    expect(() => decodeResultData(JOB, { chapters: [{ title: 'One', order: 1 }] })).toThrow(/chapters\.0\.duration/);
    expect(() => decodeResultData(JOB, '[1, 2]')).toThrow(`Job ${JOB} has a malformed result_data: not a JSON object`);
    expect(() => decodeResultData(JOB, '{"duration":')).toThrow(`Job ${JOB} has a malformed result_data: not JSON`);
  });
});
