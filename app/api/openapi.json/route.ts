import { route } from "@/lib/http/handle-route";
import { openApiDocument } from "@/lib/http/openapi/document";
import { serverUrl } from "@/lib/server/hosts/server-url";

export const dynamic = "force-dynamic";

/** Public: the OpenAPI 3.1 document of every route, built from the schemas the routes validate with. */
export const GET = route(async () => {
  const doc = openApiDocument({ serverUrl: await serverUrl().catch(() => undefined) });
  return Response.json(doc, { headers: { "cache-control": "public, max-age=60" } });
});
