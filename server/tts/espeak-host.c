/*
 * espeak-host: eSpeak-NG kept running, serving speech requests over stdin/stdout.
 *
 * Lectio compiles this file at first use against Debian's libespeak-ng (espeak-host-build.ts) and
 * runs a few of them (espeak-host.ts), so a request costs its synthesis only: starting the
 * `espeak-ng` command per request spent about as much CPU loading eSpeak's data as speaking.
 *
 * Protocol (all integers are unsigned 32-bit little-endian):
 *   request  (stdin):  voice length, voice name (e.g. "en-us+f3"), rate (words per minute),
 *                      text length, text (UTF-8)
 *   response (stdout): frames of one type byte, a payload length, the payload:
 *     'R' once at start: the sample rate (eSpeak's data loaded; the host takes requests)
 *     'A' samples, 16-bit signed little-endian mono, as eSpeak produces them
 *     'W' a word: its position and length in characters (Unicode code points of the whole
 *         text; the position counts from 1), and its first sample in the request's audio
 *     'X' an error: a message (e.g. "voice does not exist"), then 'E' follows
 *     'E' the end of the request: the sample rate
 * The host serves requests one after another until stdin closes, then exits with status 0.
 */
#include <espeak-ng/speak_lib.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_VOICE 256
#define MAX_TEXT (1 << 20)

static int sample_rate = 0;

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

static void frame_u32(char type, uint32_t value) {
  unsigned char payload[4];
  put_u32(payload, value);
  frame(type, payload, sizeof payload);
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

static int on_synth(short *wav, int count, espeak_EVENT *events) {
  for (espeak_EVENT *e = events; e != NULL && e->type != espeakEVENT_LIST_TERMINATED; e++) {
    if (e->type != espeakEVENT_WORD) continue;
    unsigned char payload[12];
    put_u32(payload, line_chars + (uint32_t)(e->text_position < 0 ? 0 : e->text_position));
    put_u32(payload + 4, (uint32_t)(e->length < 0 ? 0 : e->length));
    put_u32(payload + 8, line_sample + (uint32_t)(e->sample < 0 ? 0 : e->sample));
    frame('W', payload, sizeof payload);
  }
  if (wav != NULL && count > 0) {
    /* x86 and ARM are little-endian: the samples go out as they are. */
    frame('A', wav, (uint32_t)count * 2);
    request_samples += (uint32_t)count;
  }
  return 0;
}

static uint32_t code_points(const char *s, size_t n) {
  uint32_t count = 0;
  for (size_t i = 0; i < n; i++) count += ((unsigned char)s[i] & 0xc0) != 0x80;
  return count;
}

int main(void) {
  static char stdout_buffer[1 << 16];
  setvbuf(stdout, stdout_buffer, _IOFBF, sizeof stdout_buffer);
  sample_rate = espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, NULL, espeakINITIALIZE_DONT_EXIT);
  if (sample_rate <= 0) {
    frame_text('X', "cannot load the eSpeak-NG data");
    fflush(stdout);
    return 1;
  }
  espeak_SetSynthCallback(on_synth);
  frame_u32('R', (uint32_t)sample_rate);
  fflush(stdout);

  char voice[MAX_VOICE + 1];
  char current_voice[MAX_VOICE + 1] = "";
  char *text = malloc(MAX_TEXT + 1);
  if (text == NULL) return 1;
  for (;;) {
    uint32_t voice_length, rate, text_length;
    int r = read_u32(&voice_length);
    if (r == 0) break; /* stdin closed: done */
    if (r < 0 || voice_length > MAX_VOICE || read_exact(voice, voice_length) <= 0) return 2;
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
        frame_u32('E', (uint32_t)sample_rate);
        fflush(stdout);
        continue;
      }
      strcpy(current_voice, voice);
    }
    espeak_SetParameter(espeakRATE, (int)rate, 0);
    /*
     * As `espeak-ng -b 1` reading stdin: one line at a time (so a line break is a pause), UTF-8,
     * [[phonemes]] allowed, a sentence pause at the end of each line.
     */
    request_samples = 0;
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
    if (status != EE_OK) frame_text('X', "synthesis failed");
    frame_u32('E', (uint32_t)sample_rate);
    fflush(stdout);
  }
  free(text);
  espeak_Terminate();
  return 0;
}
