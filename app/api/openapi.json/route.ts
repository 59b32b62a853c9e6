import { openApiDocument } from "@/lib/api/openapi";
import { serviceApi } from "@/lib/api/service";
import { serverUrl } from "@/lib/server/hosts/server-url";
import { handle } from "../handle";

export const dynamic = "force-dynamic";

/** Public: the OpenAPI 3.1 document of every declared operation. */
export const GET = handle(serviceApi.openapi, async () => ({
  status: 200,
  json: openApiDocument({ serverUrl: await serverUrl().catch(() => undefined) }),
  headers: { "cache-control": "public, max-age=60" },
}));
