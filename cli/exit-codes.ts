/** The CLI's exit codes, one per outcome a script may want to tell apart (README lists them). */
export const EXIT = {
  /** The run succeeded (or the command did what it was asked). */
  OK: 0,
  /** The run ended FAILED: the tool exited non-zero, or the agent refused the job. */
  RUN_FAILED: 1,
  /** Bad arguments: nothing was sent. */
  USAGE: 2,
  /** The run was CANCELLED. */
  RUN_CANCELLED: 3,
  /** The run was LOST: its agent went silent. */
  RUN_LOST: 4,
  /** The server refused a request (the message says why: 400 validation, 401/403 credentials, 404 …). */
  API_ERROR: 5,
  /** The server could not be reached, or the live stream broke and could not be resumed. */
  UNREACHABLE: 6,
  /** --timeout passed before the run ended (the run goes on). */
  TIMEOUT: 7,
} as const;

export function exitCodeOfStatus(status: string): number {
  switch (status) {
    case "SUCCEEDED":
      return EXIT.OK;
    case "CANCELLED":
      return EXIT.RUN_CANCELLED;
    case "LOST":
      return EXIT.RUN_LOST;
    default:
      return EXIT.RUN_FAILED;
  }
}

/** An error that ends the command with a message and one of the codes above. */
export class CliError extends Error {
  constructor(
    message: string,
    public readonly exitCode: number,
  ) {
    super(message);
    this.name = "CliError";
  }
}

export const usageError = (message: string) => new CliError(message, EXIT.USAGE);
