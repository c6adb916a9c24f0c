export { concatMp3, mp3DurationSeconds } from './concat';
export { EncoderPool, type EncoderSession } from './encoder-pool';
export { assertEncodable, defaultKbps, SUPPORTED_SAMPLE_RATES } from './encoder-session';
export {
  createMp3Writer,
  FRAME_ALIGN,
  type Mp3Sink,
  type Mp3Writer,
  type Mp3WriteResult,
  type Mp3WriterOptions,
} from './mp3';
export { Mp3FrameScanner, parseFrameHeader, parseMp3, parseMp3Stream, type Mp3FrameHeader, type Mp3Info } from './mp3-frames';
export { buildM3u, type PlaylistEntry } from './playlist';
export { parseRange, sendMedia, type RangeResult } from './range';
export { MEDIA_URL_PREFIX, signMediaUrl, verifyMediaSignature, type MediaSignatureCheck } from './signing';
