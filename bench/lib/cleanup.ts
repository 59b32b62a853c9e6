// Everything the bench starts registers its undo here, so that servers, agents and temp dirs go
// away on success, on an error, and on Ctrl-C alike — in reverse order of creation.

type Undo = { what: string; run: () => Promise<void> | void };

const stack: Undo[] = [];
let running: Promise<void> | null = null;

/** Registers an undo; returns a function that runs it early (and only once). */
export function onCleanup(what: string, run: () => Promise<void> | void): () => Promise<void> {
  const undo: Undo = { what, run };
  stack.push(undo);
  return async () => {
    const i = stack.indexOf(undo);
    if (i < 0) return;
    stack.splice(i, 1);
    await undo.run();
  };
}

/** Runs every registered undo, newest first; a failing one is reported and the rest still run. */
export function cleanupAll(): Promise<void> {
  running ??= (async () => {
    while (stack.length > 0) {
      const undo = stack.pop()!;
      try {
        await undo.run();
      } catch (err) {
        console.error(`[bench] cleanup "${undo.what}" failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  })();
  return running;
}

/** Ctrl-C or a SIGTERM still stops the server and the agents before the process exits. */
export function cleanupOnSignals(): void {
  for (const sig of ["SIGINT", "SIGTERM"] as const) {
    process.once(sig, () => {
      console.error(`[bench] ${sig}: cleaning up`);
      void cleanupAll().finally(() => process.exit(130));
    });
  }
}
