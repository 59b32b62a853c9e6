import { serviceApi } from "@/lib/api/service";
import { getVersion } from "@/lib/server/health/get-version";
import { handle } from "../handle";

export const dynamic = "force-dynamic";

/** The server's release, its schema and the agents it accepts (the upgrade notes use it). */
export const GET = handle(serviceApi.version, async () => ({ status: 200, json: getVersion() }));
