"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { CopyButton } from "@/components/copy-button";
import { DeleteButton } from "@/components/delete-button";

export interface WebhookRow {
  id: string;
  name: string;
  url: string;
  format: "json" | "slack";
  includeImprovements: boolean;
  enabled: boolean;
  createdAt: string;
}

export interface DeliveryRow {
  id: string;
  alertId: string | null;
  test: boolean;
  status: "PENDING" | "DELIVERED" | "FAILED";
  attempts: number;
  nextAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: string;
  deliveredAt: string | null;
}

interface ErrorBody {
  error?: string;
  fieldErrors?: Record<string, string[]>;
}

/** The API's refusal in words: each field's message, or the error, or that the server was not reached. */
async function refusal(r: Response | null): Promise<string> {
  const b = (await r?.json().catch(() => null)) as ErrorBody | null;
  const fields = Object.entries(b?.fieldErrors ?? {}).map(([f, m]) => `${f}: ${m.join(" ")}`);
  return fields.length > 0 ? fields.join(" · ") : (b?.error ?? "The server could not be reached.");
}

const utc = (iso: string) => `${new Date(iso).toISOString().replace("T", " ").slice(0, 19)} UTC`;

/** The secret, shown once after create or rotate, with a copy button. */
function SecretOnce({ name, secret, onDone }: { name: string; secret: string; onDone: () => void }) {
  return (
    <div className="alert alert-ok" data-testid="webhook-secret">
      <p>
        Signing secret of <strong>{name}</strong>. It is shown only now: keep it where the receiver checks <code>X-Probebook-Signature</code>.
      </p>
      <p>
        <code data-testid="webhook-secret-value">{secret}</code> <CopyButton text={secret} />{" "}
        <button className="btn" type="button" onClick={onDone}>
          I have kept it
        </button>
      </p>
    </div>
  );
}

/** Adding a target; the answer's secret goes up to the page. */
function CreateWebhookForm({ onCreated }: { onCreated: (name: string, secret: string) => void }) {
  const router = useRouter();
  const [error, setError] = useState("");
  const [pending, setPending] = useState(false);
  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    setPending(true);
    const r = await fetch("/api/admin/webhooks", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: f.get("name"), url: f.get("url"), format: f.get("format"), includeImprovements: f.get("includeImprovements") === "on" }),
    }).catch(() => null);
    setPending(false);
    if (r?.status === 201) {
      const created = (await r.json()) as { name: string; secret: string };
      setError("");
      form.reset();
      onCreated(created.name, created.secret);
      router.refresh();
    } else setError(await refusal(r));
  }
  return (
    <form onSubmit={(e) => void submit(e)} className="card" style={{ display: "grid", gap: 8, maxWidth: 560 }} data-testid="webhook-create">
      <h2>Add a target</h2>
      <label>
        Name
        <input name="name" required maxLength={100} />
      </label>
      <label>
        URL
        <input name="url" required placeholder="https://hooks.example.com/probebook" />
      </label>
      <label>
        Format
        <select name="format" defaultValue="json">
          <option value="json">JSON (signed document)</option>
          <option value="slack">Slack-compatible message</option>
        </select>
      </label>
      <label>
        <input type="checkbox" name="includeImprovements" /> Also send improvements
      </label>
      <div>
        <button className="btn btn-primary" type="submit" disabled={pending}>
          {pending ? "Adding…" : "Add target"}
        </button>
      </div>
      {error ? (
        <p role="alert" className="field-error">
          {error}
        </p>
      ) : null}
    </form>
  );
}

/** One target: its settings, its buttons, the test's outcome and its delivery log. */
function WebhookCard({ hook, deliveries, onSecret }: { hook: WebhookRow; deliveries: DeliveryRow[]; onSecret: (name: string, secret: string) => void }) {
  const router = useRouter();
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [pending, setPending] = useState(false);
  async function patch(body: Record<string, unknown>) {
    setPending(true);
    const r = await fetch(`/api/admin/webhooks/${hook.id}`, { method: "PATCH", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }).catch(() => null);
    setPending(false);
    if (!r?.ok) return setMessage({ ok: false, text: await refusal(r) });
    const updated = (await r.json()) as { secret?: string };
    if (updated.secret) onSecret(hook.name, updated.secret);
    setMessage(null);
    router.refresh();
  }
  async function sendTest() {
    setPending(true);
    setMessage(null);
    const r = await fetch(`/api/admin/webhooks/${hook.id}/test`, { method: "POST" }).catch(() => null);
    setPending(false);
    if (!r?.ok) return setMessage({ ok: false, text: await refusal(r) });
    const o = (await r.json()) as { status: string; statusCode: number | null; error: string | null };
    setMessage(
      o.status === "DELIVERED"
        ? { ok: true, text: `Test delivered: the receiver answered HTTP ${o.statusCode}.` }
        : { ok: false, text: `Test not delivered: ${o.error ?? `HTTP ${o.statusCode}`}` },
    );
    router.refresh();
  }
  return (
    <section className="card" style={{ margin: "1rem 0" }} data-testid="webhook-target" data-name={hook.name}>
      <h3>
        {hook.name} <span className={`badge ${hook.enabled ? "badge-DELIVERED" : ""}`}>{hook.enabled ? "enabled" : "disabled"}</span>
      </h3>
      <p>
        <code>{hook.url}</code> · {hook.format === "slack" ? "Slack message" : "JSON"} · {hook.includeImprovements ? "regressions and improvements" : "regressions only"} · added{" "}
        {utc(hook.createdAt)}
      </p>
      <p style={{ display: "flex", flexWrap: "wrap", gap: 8, margin: "0.6rem 0" }}>
        <button className="btn" type="button" disabled={pending} onClick={() => void sendTest()}>
          Send test
        </button>
        <button className="btn" type="button" disabled={pending} onClick={() => void patch({ enabled: !hook.enabled })}>
          {hook.enabled ? "Disable" : "Enable"}
        </button>
        <button className="btn" type="button" disabled={pending} onClick={() => void patch({ includeImprovements: !hook.includeImprovements })}>
          {hook.includeImprovements ? "Regressions only" : "Also improvements"}
        </button>
        <button className="btn" type="button" disabled={pending} onClick={() => void patch({ rotateSecret: true })}>
          Rotate secret
        </button>
        <DeleteButton url={`/api/admin/webhooks/${hook.id}`} label="Delete" consequence="The target and its delivery log are deleted; pending deliveries are dropped." />
      </p>
      {message ? (
        <p role={message.ok ? "status" : "alert"} className={message.ok ? "alert alert-ok" : "alert alert-error"} data-testid="webhook-test-outcome">
          {message.text}
        </p>
      ) : null}
      <details open={deliveries.length > 0}>
        <summary>Deliveries ({deliveries.length === 100 ? "latest 100" : deliveries.length})</summary>
        {deliveries.length === 0 ? (
          <p className="muted small">Nothing sent yet.</p>
        ) : (
          <div className="table-wrap">
            <table className="data" data-testid="webhook-deliveries">
              <thead>
                <tr>
                  <th>Created</th>
                  <th>What</th>
                  <th>Status</th>
                  <th className="num">Attempts</th>
                  <th className="num">HTTP</th>
                  <th>Error / next attempt</th>
                </tr>
              </thead>
              <tbody>
                {deliveries.map((d) => (
                  <tr key={d.id}>
                    <td>{utc(d.createdAt)}</td>
                    <td>{d.test ? "test" : d.alertId ? <a href={`/alerts/${d.alertId}`}>alert</a> : "alert (deleted)"}</td>
                    <td>
                      <span className={`badge badge-${d.status}`}>{d.status.toLowerCase()}</span>
                    </td>
                    <td className="num">{d.attempts}</td>
                    <td className="num">{d.lastStatusCode ?? "—"}</td>
                    <td className="small">
                      {d.lastError ?? ""}
                      {d.status === "PENDING" && d.nextAttemptAt ? ` next attempt ${utc(d.nextAttemptAt)}` : ""}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </details>
    </section>
  );
}

/** /admin/webhooks: the targets, the form that adds one, and the secret once. */
export function WebhooksAdmin({ webhooks, deliveries }: { webhooks: WebhookRow[]; deliveries: Record<string, DeliveryRow[]> }) {
  const [secret, setSecret] = useState<{ name: string; secret: string } | null>(null);
  const show = (name: string, s: string) => setSecret({ name, secret: s });
  return (
    <>
      {secret ? <SecretOnce name={secret.name} secret={secret.secret} onDone={() => setSecret(null)} /> : null}
      {webhooks.length === 0 ? <p className="muted">No targets yet.</p> : null}
      {webhooks.map((h) => (
        <WebhookCard key={h.id} hook={h} deliveries={deliveries[h.id] ?? []} onSecret={show} />
      ))}
      <CreateWebhookForm onCreated={show} />
    </>
  );
}
