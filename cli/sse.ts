export interface SseEvent {
  event: string;
  data: string;
  id?: string;
}

/**
 * Reads a Server-Sent Events body into events (the subset the run stream uses: event, data, id;
 * comments and retry lines are skipped). Lines may end with \n or \r\n.
 */
export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  let buf = "";
  let current: { event?: string; data: string[]; id?: string } = { data: [] };
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buf += decoder.decode(value, { stream: true });
      let nl: number;
      while ((nl = buf.indexOf("\n")) >= 0) {
        const line = buf.slice(0, nl).replace(/\r$/, "");
        buf = buf.slice(nl + 1);
        if (line === "") {
          if (current.data.length > 0 || current.event) yield { event: current.event ?? "message", data: current.data.join("\n"), id: current.id };
          current = { data: [] };
          continue;
        }
        if (line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (field === "event") current.event = value;
        else if (field === "data") current.data.push(value);
        else if (field === "id") current.id = value;
      }
    }
  } finally {
    reader.releaseLock();
  }
}
