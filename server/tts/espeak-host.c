/*
 * espeak-host: eSpeak-NG kept running, serving speech requests over stdin/stdout, and encoding that
 * speech to MP3 itself with LAME (LECTIO_WITH_LAME, libmp3lame): the offline voice's native path.
 *
 * Lectio compiles this file against eSpeak-NG 1.52 (the portable path's version, linked statically)
 * and libmp3lame (espeak-host-build.ts: at first use, or in the image's build stage) and runs a few
 * of them (espeak-host.ts), so a request costs its synthesis only: eSpeak's data is loaded once per
 * host, not per request. Its one argument is the folder holding the `espeak-ng-data` to read: the
 * portable path's own voice data, so both paths say a text the same.
 * Encoding here too, a book's speech never leaves the process that made it: the server receives
 * MP3 (a seventh of the PCM's bytes), not every sample (docs/adr/0003-two-speech-paths.md).
 *
 * Protocol (all integers are unsigned 32-bit little-endian). A request is one command byte, then:
 *   'S' speak:  stream (0: none), voice length, voice name (e.g. "en-us+f3"), rate (words per
 *               minute), text length, text (UTF-8). With stream 0 the samples come back as 'A'
 *               frames; else they are encoded into that open stream and its MP3 bytes come back.
 *   'O' open a stream: stream (not 0), bitrate in kbps (constant; mono at eSpeak's rate)
 *   'F' finish a stream: its last MP3 bytes come back and the stream is gone
 *   'C' close a stream without finishing it (a conversion given up)
 * Responses (stdout) are frames of one type byte, a payload length, the payload:
 *   'R' once at start: the sample rate, then 1 when this build encodes MP3, else 0
 *   'A' samples, 16-bit signed little-endian mono, as eSpeak produces them
 *   'M' MP3 bytes of the request's stream, in order
 *   'W' a word: its position and length in characters (Unicode code points of the whole
 *       text; the position counts from 1), and its first sample in the request's audio
 *   'X' an error: a message (e.g. "voice does not exist"), then 'E' follows
 *   'E' the end of the request: the sample rate, then the samples the request spoke
 * The host serves requests one after another until stdin closes, then exits with status 0; a
 * request it cannot read (unknown command, lengths over the limits) ends it with status 2.
 */
#include <errno.h>
#include <espeak-ng/espeak_ng.h>
#include <espeak-ng/speak_lib.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef LECTIO_WITH_LAME
#include <lame/lame.h>
#endif

#define MAX_VOICE 256
#define MAX_TEXT (1 << 20)

static int sample_rate = 0;

#ifdef LECTIO_WITH_LAME
/* Open MP3 streams: a request names one by its id; a few per host (one per conversion run). */
#define MAX_STREAMS 64
static struct {
  uint32_t id;
  lame_global_flags *lame;
} streams[MAX_STREAMS];
/* LAME's worst case for n samples is 1.25 n + 7200 bytes; eSpeak hands over far fewer at once. */
#define MP3_BUFFER (1 << 18)
static unsigned char mp3_buffer[MP3_BUFFER];
#endif
/* The stream the current request encodes into (NULL: its samples go out as 'A' frames). */
static void *encoding = NULL;
static int encoding_failed = 0;

static void put_u32(unsigned char *p, uint32_t v) {
  p[0] = v & 0xff;
  p[1] = (v >> 8) & 0xff;
  p[2] = (v >> 16) & 0xff;
  p[3] = (v >> 24) & 0xff;
}

static void frame(char type, const void *payload, uint32_t length) {
  unsigned char head[5];
  head[0] = (unsigned char)type;
  put_u32(head + 1, length);
  fwrite(head, 1, sizeof head, stdout);
  if (length > 0) fwrite(payload, 1, length, stdout);
}

static void frame_text(char type, const char *message) { frame(type, message, (uint32_t)strlen(message)); }

/* Reads exactly n bytes; 0 at a clean end of input before the first byte, -1 on a short read. */
static int read_exact(void *buffer, size_t n) {
  size_t done = 0;
  while (done < n) {
    ssize_t got = read(0, (char *)buffer + done, n - done);
    if (got <= 0) return done == 0 && got == 0 ? 0 : -1;
    done += (size_t)got;
  }
  return 1;
}

static int read_u32(uint32_t *value) {
  unsigned char b[4];
  int r = read_exact(b, 4);
  if (r <= 0) return r;
  *value = (uint32_t)b[0] | ((uint32_t)b[1] << 8) | ((uint32_t)b[2] << 16) | ((uint32_t)b[3] << 24);
  return 1;
}

/* A request is spoken line by line (see main): where the current line starts in the request. */
static uint32_t line_chars = 0;   /* code points of the request before the line */
static uint32_t line_sample = 0;  /* samples of the request before the line */
static uint32_t request_samples = 0;

/* A request's samples: out as 'A' frames, or encoded into its stream as 'M' frames. 0: the encoder failed. */
static int emit_samples(short *wav, int count) {
#ifdef LECTIO_WITH_LAME
  if (encoding != NULL) {
    for (int at = 0; at < count;) {
      int take = count - at < 65536 ? count - at : 65536;
      int bytes = lame_encode_buffer((lame_global_flags *)encoding, wav + at, NULL, take, mp3_buffer, MP3_BUFFER);
      if (bytes < 0) {
        encoding_failed = 1;
        return 0;
      }
      if (bytes > 0) frame('M', mp3_buffer, (uint32_t)bytes);
      at += take;
    }
  } else
#endif
    /* x86 and ARM are little-endian: the samples go out as they are. */
    frame('A', wav, (uint32_t)count * 2);
  request_samples += (uint32_t)count;
  return 1;
}

static int on_synth(short *wav, int count, espeak_EVENT *events) {
  for (espeak_EVENT *e = events; e != NULL && e->type != espeakEVENT_LIST_TERMINATED; e++) {
    if (e->type != espeakEVENT_WORD) continue;
    unsigned char payload[12];
    put_u32(payload, line_chars + (uint32_t)(e->text_position < 0 ? 0 : e->text_position));
    put_u32(payload + 4, (uint32_t)(e->length < 0 ? 0 : e->length));
    put_u32(payload + 8, line_sample + (uint32_t)(e->sample < 0 ? 0 : e->sample));
    frame('W', payload, sizeof payload);
  }
  if (wav != NULL && count > 0 && !emit_samples(wav, count)) return 1; /* eSpeak stops the request */
  return 0;
}

/* Reads exactly n bytes from fd; 0 at a clean end before the first byte, -1 on a short read. */
static int read_fd_exact(int fd, void *buffer, size_t n) {
  size_t done = 0;
  while (done < n) {
    ssize_t got = read(fd, (char *)buffer + done, n - done);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return done == 0 && got == 0 ? 0 : -1;
    done += (size_t)got;
  }
  return 1;
}

/*
 * The frames a speaking child sends (speak_fresh), until it closes the pipe: samples go on as the
 * request wants them (emit_samples), words and errors as they are. After an encoder failure the
 * rest is read and dropped, so the child never blocks on a full pipe.
 */
static void relay_child(int fd) {
  static short *samples = NULL;
  static uint32_t capacity = 0;
  unsigned char head[5];
  while (read_fd_exact(fd, head, sizeof head) > 0) {
    uint32_t length = (uint32_t)head[1] | ((uint32_t)head[2] << 8) | ((uint32_t)head[3] << 16) | ((uint32_t)head[4] << 24);
    if (length > capacity) {
      short *grown = realloc(samples, length);
      if (grown == NULL) {
        encoding_failed = 1;
        break;
      }
      samples = grown;
      capacity = length;
    }
    if (length > 0 && read_fd_exact(fd, samples, length) <= 0) break;
    if (head[0] == 'A') {
      if (!encoding_failed) emit_samples(samples, (int)(length / 2));
    } else {
      frame((char)head[0], samples, length);
    }
  }
  /* Whatever is left (after a failure): drained, so the child can finish and be waited for. */
  while (read(fd, head, sizeof head) > 0) {
  }
}

/* The end of a request: the sample rate and the samples it spoke. */
static void end_request(void) {
  unsigned char payload[8];
  put_u32(payload, (uint32_t)sample_rate);
  put_u32(payload + 4, request_samples);
  frame('E', payload, sizeof payload);
  fflush(stdout);
}

#ifdef LECTIO_WITH_LAME
static int find_stream(uint32_t id) {
  for (int i = 0; i < MAX_STREAMS; i++)
    if (streams[i].lame != NULL && streams[i].id == id) return i;
  return -1;
}

/* 'O': a constant-bitrate mono stream at eSpeak's rate, as `lame -r -m m --cbr -b kbps -t`. */
static void open_stream(uint32_t id, uint32_t kbps) {
  int slot = find_stream(id);
  if (slot < 0)
    for (int i = 0; i < MAX_STREAMS && slot < 0; i++)
      if (streams[i].lame == NULL) slot = i;
  if (slot < 0 || streams[slot].lame != NULL) {
    frame_text('X', slot < 0 ? "too many open streams" : "the stream is open already");
    return;
  }
  lame_global_flags *lame = lame_init();
  if (lame == NULL) {
    frame_text('X', "cannot start an MP3 encoder");
    return;
  }
  lame_set_num_channels(lame, 1);
  lame_set_in_samplerate(lame, sample_rate);
  lame_set_out_samplerate(lame, sample_rate);
  lame_set_mode(lame, MONO);
  lame_set_VBR(lame, vbr_off);
  lame_set_brate(lame, (int)kbps);
  lame_set_bWriteVbrTag(lame, 0); /* -t: no Xing/LAME frame, every frame is audio */
  if (lame_init_params(lame) < 0) {
    lame_close(lame);
    frame_text('X', "the MP3 encoder refused its settings");
    return;
  }
  streams[slot].id = id;
  streams[slot].lame = lame;
}

/* 'F' (finish: the last frames go out) or 'C' (close: dropped). */
static void end_stream(uint32_t id, int finish) {
  int slot = find_stream(id);
  if (slot < 0) {
    frame_text('X', "no such stream");
    return;
  }
  if (finish) {
    int bytes = lame_encode_flush(streams[slot].lame, mp3_buffer, MP3_BUFFER);
    if (bytes < 0) frame_text('X', "the MP3 encoder failed");
    else if (bytes > 0) frame('M', mp3_buffer, (uint32_t)bytes);
  }
  lame_close(streams[slot].lame);
  streams[slot].lame = NULL;
}
#endif

static uint32_t code_points(const char *s, size_t n) {
  uint32_t count = 0;
  for (size_t i = 0; i < n; i++) count += ((unsigned char)s[i] & 0xc0) != 0x80;
  return count;
}


/*
 * As `espeak-ng -b 1` reading stdin: one line at a time (so a line break is a pause), UTF-8,
 * [[phonemes]] allowed, a sentence pause at the end of each line. Frames go to stdout.
 */
static espeak_ERROR speak_lines(char *text, size_t text_length) {
  espeak_ERROR status = EE_OK;
  for (size_t start = 0; start < text_length && status == EE_OK;) {
    char *newline = memchr(text + start, '\n', text_length - start);
    size_t end = newline != NULL ? (size_t)(newline - text) + 1 : text_length;
    char kept = text[end];
    text[end] = '\0';
    line_chars = code_points(text, start);
    line_sample = request_samples;
    status = espeak_Synth(text + start, end - start + 1, 0, POS_CHARACTER, 0,
                          espeakCHARS_UTF8 | espeakPHONEMES | espeakENDPAUSE, NULL, NULL);
    text[end] = kept;
    start = end;
  }
  return status;
}

/*
 * Speaks a request from eSpeak's state as it was before any speech: eSpeak carries state from one
 * text to the next (the phase of its pitch flutter, which moves where waves end by a few
 * milliseconds), so the same text would come out a little longer or shorter depending on what
 * this host said before. A child forked from this host, which never speaks itself, speaks the
 * request and exits: every request sounds as from a fresh eSpeak, as on the portable path, which
 * starts each request from the same memory. The child sends its samples and words through a pipe
 * as 'A', 'W' and 'X' frames; here they go on as they are, or encoded into the request's stream.
 * Where no child can be had, the request is spoken here.
 */
static void speak_fresh(char *text, size_t text_length) {
  int chan[2];
  pid_t child = -1;
  fflush(stdout);
  if (pipe(chan) == 0) {
    child = fork();
    if (child < 0) {
      close(chan[0]);
      close(chan[1]);
    }
  }
  if (child == 0) {
    close(chan[0]);
    if (dup2(chan[1], 1) < 0) _exit(3);
    close(chan[1]);
    encoding = NULL; /* the samples go to the parent, which encodes */
    request_samples = 0;
    espeak_ERROR status = speak_lines(text, text_length);
    if (status != EE_OK) frame_text('X', "synthesis failed");
    fflush(stdout);
    _exit(0);
  }
  if (child < 0) {
    espeak_ERROR status = speak_lines(text, text_length);
    if (encoding_failed) frame_text('X', "the MP3 encoder failed");
    else if (status != EE_OK) frame_text('X', "synthesis failed");
    return;
  }
  close(chan[1]);
  relay_child(chan[0]);
  close(chan[0]);
  int child_status = 0;
  while (waitpid(child, &child_status, 0) < 0) {
    if (errno != EINTR) break;
  }
  if (!WIFEXITED(child_status) || WEXITSTATUS(child_status) != 0) frame_text('X', "synthesis failed");
  else if (encoding_failed) frame_text('X', "the MP3 encoder failed");
}

int main(int argc, char **argv) {
  static char stdout_buffer[1 << 16];
  setvbuf(stdout, stdout_buffer, _IOFBF, sizeof stdout_buffer);
  sample_rate = espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, argc > 1 ? argv[1] : NULL, espeakINITIALIZE_DONT_EXIT);
  if (sample_rate <= 0) {
    frame_text('X', "cannot load the eSpeak-NG data");
    fflush(stdout);
    return 1;
  }
  espeak_SetSynthCallback(on_synth);
  /* eSpeak seeds the noise of its breathy voices with the clock at start; a fixed seed, as the
     portable path's (whose clock reads 0), so a text sounds the same whenever it is spoken. */
  espeak_ng_SetRandSeed(0);
  unsigned char ready[8];
  put_u32(ready, (uint32_t)sample_rate);
#ifdef LECTIO_WITH_LAME
  put_u32(ready + 4, 1);
#else
  put_u32(ready + 4, 0);
#endif
  frame('R', ready, sizeof ready);
  fflush(stdout);

  char voice[MAX_VOICE + 1];
  char current_voice[MAX_VOICE + 1] = "";
  char *text = malloc(MAX_TEXT + 1);
  if (text == NULL) return 1;
  for (;;) {
    unsigned char command;
    uint32_t stream, voice_length, rate, text_length;
    int r = read_exact(&command, 1);
    if (r == 0) break; /* stdin closed: done */
    if (r < 0 || read_u32(&stream) <= 0) return 2;
    request_samples = 0;
    if (command == 'O' || command == 'F' || command == 'C') {
      uint32_t kbps = 0;
      if (command == 'O' && read_u32(&kbps) <= 0) return 2;
#ifdef LECTIO_WITH_LAME
      if (command == 'O') open_stream(stream, kbps);
      else end_stream(stream, command == 'F');
#else
      frame_text('X', "this host does not encode MP3");
#endif
      end_request();
      continue;
    }
    if (command != 'S') return 2;
    if (read_u32(&voice_length) <= 0 || voice_length > MAX_VOICE || read_exact(voice, voice_length) <= 0) return 2;
    voice[voice_length] = '\0';
    if (read_u32(&rate) <= 0 || read_u32(&text_length) <= 0 || text_length > MAX_TEXT) return 2;
    if (text_length > 0 && read_exact(text, text_length) <= 0) return 2;
    text[text_length] = '\0';

    if (strcmp(voice, current_voice) != 0) {
      current_voice[0] = '\0';
      /* As the espeak-ng command: a voice's name, else a language ("en-gb"), each with a variant. */
      espeak_VOICE by_language;
      memset(&by_language, 0, sizeof by_language);
      by_language.languages = voice;
      if (espeak_SetVoiceByName(voice) != EE_OK && espeak_SetVoiceByProperties(&by_language) != EE_OK) {
        frame_text('X', "voice does not exist");
        end_request();
        continue;
      }
      strcpy(current_voice, voice);
    }
    encoding = NULL;
    if (stream != 0) {
#ifdef LECTIO_WITH_LAME
      int slot = find_stream(stream);
      if (slot >= 0) encoding = streams[slot].lame;
#endif
      if (encoding == NULL) {
        frame_text('X', "no such stream");
        end_request();
        continue;
      }
    }
    espeak_SetParameter(espeakRATE, (int)rate, 0);
    speak_fresh(text, text_length);
    encoding_failed = 0;
    end_request();
  }
  free(text);
  espeak_Terminate();
  return 0;
}
