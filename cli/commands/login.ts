import { parse } from "../args";
import { normaliseServer, readConfig, saveLogin } from "../config";
import { CliError, EXIT, usageError } from "../exit-codes";
import { promptHidden, readStdinLine } from "../prompt";
import { terminalText } from "../terminal-text";

export const LOGIN_HELP = `probebook login --server URL [--token-stdin]

Saves the server and an API token (Settings → API tokens) in ${"$"}XDG_CONFIG_HOME/probebook/config.json
(default ~/.config/probebook/config.json, mode 0600), after checking the token with the server.
At a terminal it asks for the token without echoing it; --token-stdin reads it from stdin instead
(e.g. probebook login --server URL --token-stdin < token-file). The server becomes the default
for every command; a token is only ever sent to the server it was saved for. PROBEBOOK_SERVER and
PROBEBOOK_TOKEN (and --server) still take precedence over the file.`;

export async function loginCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parse("login", argv, { server: { type: "string" }, "token-stdin": { type: "boolean" } });
  if (values.help) {
    process.stdout.write(`${LOGIN_HELP}\n`);
    return EXIT.OK;
  }
  if (positionals.length > 0) throw usageError("login takes no arguments besides --server URL and --token-stdin.");
  const raw = values.server?.trim() || process.env.PROBEBOOK_SERVER?.trim() || readConfig().server;
  if (!raw) throw usageError("Give the server to log in to: probebook login --server URL.");
  const server = normaliseServer(raw, values.server ? "--server" : "The server");
  let token: string | null;
  if (values["token-stdin"]) token = await readStdinLine();
  else if (process.stdin.isTTY) token = await promptHidden(`API token for ${server} (Settings → API tokens; not shown): `);
  else throw usageError("stdin is not a terminal: pipe the token with --token-stdin (probebook login --server URL --token-stdin < file).");
  token = token?.trim() ?? "";
  if (!token) throw usageError("No token given: nothing was saved.");
  if (/\s/.test(token)) throw usageError("The API token must not contain spaces.");
  const me = await whoIs(server, token);
  const file = saveLogin(server, token);
  process.stderr.write(`${terminalText(`logged in to ${server} as ${me.email} (${me.role.toLowerCase()}); saved in ${file}`, { oneLine: true })}\n`);
  return EXIT.OK;
}

/** GET /api/me with the token: the server answers user null for a token it does not accept. */
async function whoIs(server: string, token: string): Promise<{ email: string; role: string }> {
  let res: Response;
  try {
    res = await fetch(`${server}/api/me`, { headers: { authorization: `Bearer ${token}` } });
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw new CliError(`Cannot reach ${server}: ${cause?.code ?? cause?.message ?? (err as Error).message}. Nothing was saved.`, EXIT.UNREACHABLE);
  }
  const body = (await res.json().catch(() => null)) as { user?: { email: string; role: string } | null } | null;
  if (!res.ok || !body || !("user" in body)) throw new CliError(`${server}/api/me answered ${res.status}: is this a Probebook server? Nothing was saved.`, EXIT.API_ERROR);
  if (!body.user) throw new CliError(`${server} does not accept this token (revoked, expired or mistyped): create one under Settings → API tokens. Nothing was saved.`, EXIT.API_ERROR);
  return body.user;
}
