// A transparent HTTP relay between the agent and the app that records what the agent sent:
// every chunk upload (seq and text), the server's answers (stored / duplicates) and the finish
// record with its lastSeq. The agent compacts its spool as the server acknowledges, so after a
// run the agent's own view is gone; the tap keeps it, which lets a test compare the stored log
// byte for byte with what the agent read from the probe's terminal.
//
// When the app does not answer (stopped, restarting) the tap drops the agent's connection
// without a response, so the agent sees a network failure as it would without the tap.
//
// The agent socket (GET /api/agent/socket) is relayed too (tap-socket.ts): its chunk and finish
// frames are recorded as the same uploads and finishes, marked with the transport they came by,
// so a test can tell that a run really went over the socket.
import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import { SocketRelay, type SocketSession, type SocketTapSink } from "./tap-socket";

export type TapTransport = "http" | "socket";

export interface ChunkUpload {
  at: number;
  /** An HTTP POST or a request frame on the agent socket. */
  transport: TapTransport;
  seqs: number[];
  /** HTTP status of the app's answer; null when the app could not be reached. */
  status: number | null;
  stored: number | null;
  duplicates: number | null;
}

export interface FinishAttempt {
  at: number;
  transport: TapTransport;
  body: { lastSeq: number; exitCode: number | null; interrupted?: boolean; cancelled?: boolean; error?: string | null };
  status: number | null;
  answer: unknown;
}

export interface RunView {
  /** The agent's chunks by seq (the text of the first delivery; a resend with other text is an error). */
  chunks: Map<number, string>;
  uploads: ChunkUpload[];
  finishes: FinishAttempt[];
  /** A resend whose text differed from the first delivery of the same seq: must stay empty. */
  conflicts: number[];
  /** t of every telemetry sample the agent sent in its chunks. */
  telemetry: Set<number>;
}

const RUN_PATH = /^\/api\/agent\/runs\/([0-9a-f-]{36})\/(chunks|finish)$/;
const HOP_BY_HOP = ["connection", "keep-alive", "transfer-encoding", "content-length", "upgrade", "proxy-connection"];

export class AgentTap {
  readonly runs = new Map<string, RunView>();
  /** Requests of any kind, and socket upgrades, that found no app behind the tap. */
  unreachable = 0;
  /** Every agent socket the tap relayed, in order of opening. */
  readonly socketSessions: SocketSession[] = [];
  private server: http.Server | null = null;
  private readonly sockets = new Set<import("node:net").Socket>();
  private readonly socketRelay: SocketRelay;

  constructor(
    readonly port: number,
    readonly upstreamPort: number,
  ) {
    const sink: SocketTapSink = {
      upstreamPort,
      holding: () => this.holding,
      held: (close) => this.heldSockets.add(close),
      unreachable: () => void this.unreachable++,
      record: (path, sent, status, answer) => this.record(RUN_PATH.exec(path), sent, status, answer, "socket"),
      session: (s) => this.socketSessions.push(s),
    };
    this.socketRelay = new SocketRelay(sink);
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  run(runId: string): RunView {
    let v = this.runs.get(runId);
    if (!v) {
      v = { chunks: new Map(), uploads: [], finishes: [], conflicts: [], telemetry: new Set() };
      this.runs.set(runId, v);
    }
    return v;
  }

  /** Chunks of a run the server acknowledged (2xx), counted by distinct seq. */
  acknowledgedSeqs(runId: string): number {
    const acked = new Set<number>();
    for (const u of this.runs.get(runId)?.uploads ?? []) if (u.status !== null && u.status < 300) for (const s of u.seqs) acked.add(s);
    return acked.size;
  }

  /** The run's log as the agent sent it: its chunks concatenated in seq order. */
  agentLog(runId: string): string {
    const v = this.runs.get(runId);
    if (!v) return "";
    return [...v.chunks.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([, d]) => d)
      .join("");
  }

  async start(): Promise<void> {
    const server = http.createServer((req, res) => void this.relay(req, res));
    server.on("upgrade", (req: http.IncomingMessage, socket: import("node:stream").Duplex, head: Buffer) => this.socketRelay.upgrade(req, socket, head));
    server.keepAliveTimeout = 60_000;
    server.on("connection", (s) => {
      this.sockets.add(s);
      s.on("close", () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(this.port, "127.0.0.1", () => resolve());
    });
    this.server = server;
    if ((server.address() as AddressInfo).port !== this.port) throw new Error("tap bound to an unexpected port");
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    this.socketRelay.stop();
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /**
   * While held, chunk uploads reach the tap but not the app and get no answer (as over a link
   * that went dead): the agent's output piles up unacknowledged in its spool. release() drops
   * the held connections (over the socket: the agent's socket); the agent then retries.
   */
  hold(): void {
    this.holding = true;
  }

  release(): void {
    this.holding = false;
    for (const s of this.held) s.destroy();
    this.held.clear();
    for (const close of this.heldSockets) close();
    this.heldSockets.clear();
  }

  private holding = false;
  private readonly held = new Set<import("node:net").Socket>();
  private readonly heldSockets = new Set<() => void>();

  private async relay(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const body = await readAll(req).catch(() => null);
    if (body === null) return void req.socket.destroy();
    const m = RUN_PATH.exec(req.url ?? "");
    let sent: unknown = null;
    if (m && req.method === "POST") {
      try {
        sent = JSON.parse(body.toString("utf8"));
      } catch {
        sent = null;
      }
    }
    if (this.holding && m?.[2] === "chunks") {
      this.record(m, sent, null, null, "http");
      this.held.add(req.socket);
      return;
    }
    const headers = { ...req.headers };
    for (const h of HOP_BY_HOP) delete headers[h];
    headers["content-length"] = String(body.length);
    // agent: false — a fresh connection per request, so a pooled socket the app closed never
    // turns into a failure the agent would not have seen without the tap.
    const upstream = http.request({ host: "127.0.0.1", port: this.upstreamPort, method: req.method, path: req.url, headers, agent: false }, (up) => {
      readAll(up).then(
        (answer) => {
          this.record(m, sent, up.statusCode ?? 0, jsonOf(answer, up.headers["content-encoding"]), "http");
          const out = { ...up.headers };
          for (const h of HOP_BY_HOP) delete out[h];
          out["content-length"] = String(answer.length);
          res.writeHead(up.statusCode ?? 502, out);
          res.end(answer);
        },
        () => {
          this.record(m, sent, null, null, "http");
          req.socket.destroy();
        },
      );
    });
    upstream.on("error", () => {
      this.unreachable++;
      this.record(m, sent, null, null, "http");
      // No answer at all, like a server that is not there (the agent treats it as a network error).
      req.socket.destroy();
    });
    // The agent gave up (timeout, stop): do not leave a long poll open on the app.
    res.on("close", () => {
      if (!res.writableFinished) upstream.destroy();
    });
    upstream.end(body);
  }

  private record(m: RegExpExecArray | null, sent: unknown, status: number | null, answer: unknown, transport: TapTransport): void {
    if (!m || sent === null || typeof sent !== "object") return;
    const [, runId, kind] = m;
    const view = this.run(runId!);
    const json = answer && typeof answer === "object" ? (answer as Record<string, unknown>) : null;
    const at = Date.now();
    if (kind === "chunks") {
      const chunks = ((sent as { chunks?: { seq: number; data: string; telemetry?: { t: number }[] }[] }).chunks ?? []).filter((c) => typeof c?.seq === "number");
      for (const c of chunks) {
        for (const sample of c.telemetry ?? []) view.telemetry.add(sample.t);
        const before = view.chunks.get(c.seq);
        if (before === undefined) view.chunks.set(c.seq, c.data);
        else if (before !== c.data) view.conflicts.push(c.seq);
      }
      const ok = status !== null && status < 300;
      view.uploads.push({
        at,
        transport,
        seqs: chunks.map((c) => c.seq),
        status,
        stored: ok && typeof json?.stored === "number" ? json.stored : null,
        duplicates: ok && typeof json?.duplicates === "number" ? json.duplicates : null,
      });
    } else {
      view.finishes.push({ at, transport, body: sent as FinishAttempt["body"], status, answer: json });
    }
  }
}

/** An HTTP answer's JSON body, or null. */
function jsonOf(answer: Buffer, encoding: string | string[] | undefined): unknown {
  if (answer.length === 0) return null;
  try {
    return JSON.parse(decode(answer, encoding).toString("utf8")) as unknown;
  } catch {
    return null;
  }
}

/** The answer as the app meant it (Next compresses JSON when the agent's fetch accepts it). */
function decode(body: Buffer, encoding: string | string[] | undefined): Buffer {
  switch (String(encoding ?? "").toLowerCase()) {
    case "gzip":
      return zlib.gunzipSync(body);
    case "br":
      return zlib.brotliDecompressSync(body);
    case "deflate":
      return zlib.inflateSync(body);
    default:
      return body;
  }
}

function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    stream.on("data", (d: Buffer) => parts.push(d));
    stream.on("end", () => resolve(Buffer.concat(parts)));
    stream.on("error", reject);
    stream.on("aborted", () => reject(new Error("aborted")));
  });
}
