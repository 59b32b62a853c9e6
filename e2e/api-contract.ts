// Holds a response the e2e suite received against /api/openapi.json: a declared status, a declared
// media type and, for JSON, a body valid under the declared schema. Ajv's draft 2020-12 build is
// the JSON Schema dialect OpenAPI 3.1 uses (see ARCHITECTURE.md, Decisions).
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";

type Json = Record<string, unknown>;

export interface SeenResponse {
  method: string;
  url: string;
  status: number;
  contentType: string | null;
  body: string;
}

interface Route {
  template: string;
  pattern: RegExp;
  operations: Record<string, { responses: Record<string, { content?: Record<string, { schema: Json }> }> }>;
}

export class ApiContract {
  private readonly routes: Route[];
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(private readonly doc: Json) {
    addFormats(this.ajv);
    const paths = doc.paths as Record<string, Route["operations"]>;
    // Literal paths first: /api/runs/import is not /api/runs/{id}.
    this.routes = Object.entries(paths)
      .map(([template, operations]) => ({
        template,
        operations,
        pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{\w+\}/g, "[^/]+")}$`),
      }))
      .sort((a, b) => (a.template.match(/\{/g)?.length ?? 0) - (b.template.match(/\{/g)?.length ?? 0));
  }

  /** What is wrong with the response, or null when the document describes it (or it is not an API operation). */
  check(r: SeenResponse): string | null {
    const url = new URL(r.url);
    if (!url.pathname.startsWith("/api/")) return null;
    const route = this.routes.find((x) => x.pattern.test(url.pathname));
    // Next answers unknown paths (404) and undeclared methods (405) itself: no operation to hold them to.
    const op = route?.operations[r.method.toLowerCase()];
    if (!route || !op) return null;
    const where = `${r.method} ${url.pathname}${url.search} → ${r.status}`;
    const spec = op.responses[String(r.status)];
    if (!spec) return `${where}: status not documented for ${r.method} ${route.template} (documented: ${Object.keys(op.responses).join(", ")})`;
    const media = r.contentType?.split(";")[0]!.trim().toLowerCase() ?? null;
    if (!spec.content) return r.body.length === 0 ? null : `${where}: the document says no body, got ${media ?? "no content-type"} (${r.body.slice(0, 80)})`;
    if (!media || !spec.content[media]) return `${where}: content type ${media} not documented (documented: ${Object.keys(spec.content).join(", ")})`;
    if (media !== "application/json") return null;
    let body: unknown;
    try {
      body = JSON.parse(r.body);
    } catch {
      return `${where}: the body is not JSON`;
    }
    const key = `${r.method} ${route.template} ${r.status}`;
    let validate = this.compiled.get(key);
    if (!validate) {
      // The schema's $refs point at #/components/schemas: compile it with the document's components beside it.
      validate = this.ajv.compile({ ...spec.content[media]!.schema, components: this.doc.components });
      this.compiled.set(key, validate);
    }
    if (validate(body)) return null;
    const errors = (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || "/"} ${e.message ?? ""}${e.params ? ` ${JSON.stringify(e.params)}` : ""}`);
    return `${where}: body does not match the schema: ${errors.join("; ")}`;
  }
}
