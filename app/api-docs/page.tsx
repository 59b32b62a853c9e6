import type { Metadata } from "next";
import { TableScroll } from "@/components/table-scroll";
import { openApiDocument } from "@/lib/api/openapi";
import { authText, type Operation as ApiOperation } from "@/lib/api/operation";
import { API_OPERATIONS } from "@/lib/api/operations";
import styles from "./api-docs.module.css";

export const metadata: Metadata = { title: "HTTP API", description: "Every route of Probebook's HTTP API: methods, parameters, bodies, responses and access." };
export const dynamic = "force-dynamic";

type Json = Record<string, unknown>;

/** A schema pretty-printed; long lines wrap and the block scrolls inside itself, never the page. */
function SchemaText({ schema }: { schema: unknown }) {
  return <pre className={styles.json}>{JSON.stringify(schema, null, 2)}</pre>;
}

function Schema({ schema, label }: { schema: unknown; label: string }) {
  if (!schema) return null;
  const examples = (schema as { examples?: unknown[] }).examples;
  return (
    <details className={styles.schema}>
      <summary>{label}</summary>
      {examples?.length ? (
        <>
          <p className="small">Example:</p>
          <SchemaText schema={examples[0]} />
        </>
      ) : null}
      <SchemaText schema={schema} />
    </details>
  );
}

/** A parameter's description is shown as text above its schema, not again inside it. */
function withoutDescription(schema: Json): Json {
  const { description: _description, ...rest } = schema;
  return rest;
}

function Operation({ op, doc }: { op: ApiOperation; doc: Json }) {
  const o = ((doc.paths as Record<string, Json>)[op.path]![op.method] ?? {}) as Json;
  const params = (o.parameters ?? []) as { name: string; in: string; required: boolean; description?: string; schema: Json }[];
  // One media type per body: JSON, or a multipart form for file uploads.
  const [bodyMedia, bodyContent] = Object.entries(((o.requestBody as Json | undefined)?.content as Record<string, { schema: Json }> | undefined) ?? {})[0] ?? [];
  const body = bodyContent?.schema;
  const responses = o.responses as Record<string, { description: string; content?: Record<string, { schema: Json }> }>;
  const anchor = `${op.method}-${op.path.replace(/[^a-z0-9]+/gi, "-")}`;
  return (
    <section className={styles.op} id={anchor} data-testid="api-operation">
      <h3>
        <span className={`${styles.method} ${styles[op.method]}`}>{op.method.toUpperCase()}</span> <code>{op.path}</code>
      </h3>
      <p>{op.summary}</p>
      {op.description ? <p className="muted small">{op.description}</p> : null}
      <p className="small">
        <strong>Access:</strong> {authText(op)}
      </p>
      {params.length > 0 ? (
        <TableScroll label={`Parameters of ${op.method.toUpperCase()} ${op.path}`}>
          <table className="data small">
            <thead>
              <tr>
                <th>Parameter</th>
                <th>In</th>
                <th>Schema</th>
              </tr>
            </thead>
            <tbody>
              {params.map((p) => (
                <tr key={`${p.in}-${p.name}`}>
                  <td>
                    <code>{p.name}</code>
                    {p.required ? " *" : ""}
                  </td>
                  <td>{p.in}</td>
                  <td className={styles.schemaCell}>
                    {p.description ? <div className="muted">{p.description}</div> : null}
                    <SchemaText schema={withoutDescription(p.schema)} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : null}
      <Schema schema={body} label={bodyMedia === "application/json" ? "Request body (JSON Schema)" : `Request body (${bodyMedia}; its fields as JSON Schema)`} />
      <ul className={styles.responses}>
        {Object.entries(responses).map(([status, r]) => {
          const [media, content] = Object.entries(r.content ?? {})[0] ?? [];
          return (
            <li key={status}>
              <code>{status}</code> {r.description} {media && media !== "application/json" ? <span className="muted">({media})</span> : null}
              {content && media === "application/json" ? <Schema schema={content.schema} label="Body" /> : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** A readable, server-rendered view of /api/openapi.json. */
export default function ApiDocsPage() {
  const doc = openApiDocument();
  const groups = [...new Set(API_OPERATIONS.map((o) => o.group))];
  const components = (doc.components as Json).schemas as Json;
  return (
    <>
      <h1>HTTP API</h1>
      <p className="lead">
        Everything the dashboard and the agent do goes through these routes. The machine-readable document is{" "}
        <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI 3.1). Send an API token from{" "}
        <a href="/settings/tokens">Settings → API tokens</a> as <code>Authorization: Bearer pbt_…</code>; the <code>probebook</code> command
        line (<code>npx probebook --help</code>) wraps the common calls.
      </p>
      <p className="small">
        Errors answer <code>{"{ error, fieldErrors? }"}</code> with the status that fits (400 invalid input, 401 no credentials, 403 role or
        ownership, 404, 409 conflict, 429 rate limit, 503 database away).
      </p>
      <nav aria-label="API sections" className={`small ${styles.sections}`}>
        {groups.map((g) => (
          <a key={g} href={`#${g.replace(/\W+/g, "-")}`}>
            {g}
          </a>
        ))}
        <a href="#schemas">Schemas</a>
      </nav>
      {groups.map((g) => (
        <div key={g}>
          <h2 id={g.replace(/\W+/g, "-")}>{g}</h2>
          {API_OPERATIONS.filter((o) => o.group === g).map((op) => (
            <Operation key={`${op.method} ${op.path}`} op={op} doc={doc} />
          ))}
        </div>
      ))}
      <h2 id="schemas">Schemas</h2>
      {Object.entries(components).map(([name, schema]) => (
        <Schema key={name} schema={schema} label={name} />
      ))}
    </>
  );
}
