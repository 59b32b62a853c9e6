import { serviceApi } from "@/lib/api/service";
import { getCliBundle } from "@/lib/server/cli-download/get-cli-bundle";
import { handle } from "../../handle";

export const dynamic = "force-dynamic";

// Public like the agent's download: the file holds no secret, and it is what a new user needs
// before having a token (`probebook login` then asks for one).
export const GET = handle(serviceApi.cli, async () => {
  const { text, sha256 } = await getCliBundle();
  return {
    status: 200,
    type: "text/javascript",
    text,
    headers: { "content-disposition": 'attachment; filename="probebook.cjs"', "x-checksum-sha256": sha256, "cache-control": "no-cache, no-transform" },
  };
});
