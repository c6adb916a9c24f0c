// Provider states shared by the consumer tests (given) and the provider's state handlers, so the
// two can never drift apart. Parameters travel with the state, not in its name.
export const states = {
  signupEnabled: 'signup is enabled',
  signupDisabled: 'the server runs in production with signup disabled',
  noAccount: 'no account exists for an email',
  accountExists: 'an account exists',
  signedIn: 'a user is signed in',
  /** Injects {token, jobId}: a COMPLETED text_to_audio job with a real MP3, no progress. Params: {title}. */
  completedAudiobook: 'a completed audiobook exists',
  /** Injects {token, jobId, chapterId}: a COMPLETED book with three COMPLETED chapter jobs and a combined MP3. Params: {title}. */
  bookWithChapters: 'a book with three chapters exists',
  /** Injects {token, jobId}: a completed audiobook whose text and timing map give a transcript. Params: {title, paragraphs (string[][])}. */
  audiobookWithTranscript: 'a completed audiobook with its transcript exists',
  /** Injects {token, jobId, chapterId (the first chapter's)}: a PROCESSING book whose chapters listed in `ready` are converted. Params: {title, chapters, ready (numbers from 1)}. */
  bookConverting: 'a book is converting and some of its chapters are ready',
  /** Injects {token, jobId, chapterId (the first chapter's)}: a PROCESSING book with no chapter ready, whose first chapter (synthesising) has its opening of `seconds` written. Params: {title, chapters, seconds}. */
  bookOpening: "a book is converting and its first chapter's opening can be played",
  /** Injects {token, jobId}: a PROCESSING job (progress 40) with steps completed, running, pending, pending. Params: {title, steps (false: no step rows)}. */
  jobProcessing: 'a job is processing',
  /** Injects {token, jobId}: a completed audiobook with saved progress. Params: {title, position_seconds, current_chapter_id}. */
  progressSaved: 'progress was saved',
  /** Injects {token, fileKey}: a .txt file the user uploaded. Params: {filename}. */
  uploadedFile: 'an uploaded file exists',
  /** Injects {token, fileKey}: an EPUB 3 book (three chapters, a cover) the user uploaded through POST /files. Params: {title, author}. */
  uploadedBook: 'an uploaded EPUB book exists',
  /** Injects {token, jobId}: a book job created from an uploaded EPUB 3 whose cover is the 1x1 PNG of tests/pact/consumer/fixtures/cover.png. Params: {title}. */
  bookWithCover: 'a book made from an EPUB with a cover exists',
  /** Injects {token}: the user has PENDING jobs whose titles contain the query. Params: {title}. */
  pendingJobsExist: 'the user has pending jobs',
  /** Injects {token}: the user saved these pronunciations (and no others). Params: {entries: {text, say_as}[]}. */
  pronunciationsSaved: 'the user saved pronunciations',
  /** Injects {token, jobId}: a completed audiobook whose text has `word`, converted before the user gave it a pronunciation. Params: {title, word}. */
  audiobookWithChangedWord: 'a completed audiobook has a word whose pronunciation changed',
  /**
   * Injects {token, jobId}: a completed audiobook converted with a full cast (offline voice,
   * narrator en-us+f3) whose cast has `characters` (each with `voice_id`), each speaking one quote.
   * Params: {title, characters ({id, name, gender, voice_id}[])}.
   */
  castBook: 'a completed audiobook with a full cast exists',
  /** Injects {token, jobId}: the voice assistant runs for the reader with a book heard up to 13 s. Params: {mode}. */
  voiceSession: 'the voice assistant is running for a book the reader is listening to',
  /** The server emails reset links (SMTP_URL) and an account exists. Params: {email, password}. */
  passwordResetByEmail: 'the server emails password reset links',
  /** Injects {token}: an unused reset link was made for an account. Params: {email, password}. */
  passwordResetLink: 'a password reset link was made for an account',
  /**
   * Injects {token}: a signed-in user saved these preferences for new books (and no others).
   * Params: {email, password, provider?, voice_id?, default_speed?}; no provider: no default voice.
   */
  preferencesSaved: 'the user saved a voice and a speed for new books',
} as const;

export const reader = { email: 'reader@example.com', password: 'correct-horse-battery' } as const;
export const newcomer = { email: 'new.reader@example.com', password: 'a-long-passphrase' } as const;

/** The voice transport's RTVI message interactions, by description (docs/contracts.md, "Voice messages"). */
export const voiceMessages = {
  handshake: 'the client-ready handshake, answered by bot-ready',
  setPosition: 'a set-position client message, answered by server-response',
  answerText: 'the text of the bot answering a typed question (bot-llm-text)',
  interrupted: 'the bot stopping because the listener spoke over it (bot-interrupted)',
  frameError: 'a non-fatal error about a frame the server could not read',
} as const;
