// GET /agent/install.sh: probes/agent/deploy/install.sh with this server's public URL filled in,
// so the one line on the Add-host page needs no --server. The URL goes into a shell script run as
// root, so only a plain one is filled in (the script checks --server the same way).
import { readFile } from "node:fs/promises";
import path from "node:path";

const PLACEHOLDER = "@@PROBEBOOK_SERVER_URL@@";
const PLAIN_URL = /^https?:\/\/[A-Za-z0-9.:_~[\]/-]+$/;

let template: Promise<string> | null = null;

function loadTemplate(): Promise<string> {
  // The copy next to the built agent first (an image may ship dist/ only), then the source.
  const candidates = [path.resolve(process.cwd(), "dist/agent/install.sh"), path.resolve(process.cwd(), "probes/agent/deploy/install.sh")];
  template ??= (async () => {
    for (const file of candidates) {
      try {
        return await readFile(file, "utf8");
      } catch {
        // next
      }
    }
    throw new Error(`install.sh not found in ${candidates.join(" or ")}`);
  })();
  template.catch(() => (template = null));
  return template;
}

export async function serveInstallScript(serverUrl: string): Promise<Response> {
  const url = serverUrl.replace(/\/+$/, "");
  if (!PLAIN_URL.test(url)) {
    return Response.json({ error: `This server's URL "${url.slice(0, 100)}" cannot go into a shell script; set PUBLIC_URL to a plain http(s) URL.` }, { status: 400 });
  }
  let script: string;
  try {
    script = await loadTemplate();
  } catch (err) {
    return Response.json({ error: `${err instanceof Error ? err.message : String(err)}: run \`npm run build:agent\` on the server.` }, { status: 404 });
  }
  return new Response(script.replace(PLACEHOLDER, url), {
    headers: { "content-type": "text/x-shellscript; charset=utf-8", "content-disposition": 'inline; filename="install.sh"', "cache-control": "no-cache" },
  });
}
