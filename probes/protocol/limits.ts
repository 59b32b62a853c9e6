// Sizes and times both sides of the agent protocol agree on.

/** Upper bound of one chunk's text; the chunker splits larger output. */
export const MAX_CHUNK_CHARS = 64 * 1024;
/** Upper bound of chunks per upload request. */
export const MAX_CHUNKS_PER_REQUEST = 64;
/** How long the server holds a claim request open when there is no job. */
export const CLAIM_WAIT_SEC = 25;
/** A run whose agent has said nothing for this long becomes LOST. */
export const RUN_SILENCE_LOST_SEC = 60;
