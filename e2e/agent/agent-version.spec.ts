import { expect, test } from "../fixtures";
import { apiTokenFor, bearer, signInAs } from "../helpers";
import { AGENT_VERSION } from "../../probes/agent/version";
import { AGENT_PROTOCOL_VERSION } from "../../probes/protocol/version";

const tool = { installed: true, version: "1", path: "/usr/bin/x" };
const capabilities = (agentVersion: string, protocolVersion?: number) => ({
  agentVersion,
  ...(protocolVersion === undefined ? {} : { protocolVersion }),
  tools: { dd: tool, fio: tool, sar: tool, iozone: tool },
  allowedDirs: ["/srv/pb"],
});

test("the server refuses an agent of a newer protocol with 426 and the versions; the host pages show each agent's version, older ones outdated", async ({ page, request }) => {
  const token = await apiTokenFor("operator");
  const host = async (name: string) => {
    const r = await request.post("/api/hosts", { headers: bearer(token), data: { name: `${name}-${Date.now()}` } });
    expect(r.status()).toBe(201);
    return (await r.json()) as { id: string; name: string; registrationToken: string };
  };
  const register = (registrationToken: string, caps: ReturnType<typeof capabilities>) => request.post("/api/agent/register", { data: { registrationToken, profile: {}, capabilities: caps } });

  const old = await host("agent-old");
  const refused = await register(old.registrationToken, capabilities("99.0.0", AGENT_PROTOCOL_VERSION + 1));
  expect(refused.status()).toBe(426);
  const { error } = (await refused.json()) as { error: string };
  expect(error).toContain(`probebook-agent 99.0.0, protocol ${AGENT_PROTOCOL_VERSION + 1}`);
  expect(error).toContain(`its agent is ${AGENT_VERSION}, protocol ${AGENT_PROTOCOL_VERSION}`);
  expect(error).toContain("/agent/install.sh | sudo sh -s -- --upgrade");
  // An agent from before the protocol version (0.1.0 sent none): accepted, and outdated.
  expect((await register(old.registrationToken, capabilities("0.1.0"))).status()).toBe(201);
  const current = await host("agent-current");
  expect((await register(current.registrationToken, capabilities(AGENT_VERSION, AGENT_PROTOCOL_VERSION))).status()).toBe(201);

  const hostJson = async (id: string) => (await (await request.get(`/api/hosts/${id}`, { headers: bearer(token) })).json()) as { agentVersion: string | null; agentOutdated: boolean };
  expect(await hostJson(old.id)).toMatchObject({ agentVersion: "0.1.0", agentOutdated: true });
  expect(await hostJson(current.id)).toMatchObject({ agentVersion: AGENT_VERSION, agentOutdated: false });

  await signInAs(page, "viewer");
  await page.goto(`/hosts/${old.id}`);
  await expect(page.getByTestId("agent-version")).toHaveText("agent 0.1.0 outdated");
  await expect(page.getByTestId("agent-outdated")).toHaveAttribute("title", new RegExp(`ships agent ${AGENT_VERSION.replace(/\./g, "\\.")}`));
  await expect(page.getByTestId("agent-upgrade")).toContainText("/agent/install.sh | sudo sh -s -- --upgrade");
  await page.goto(`/hosts/${current.id}`);
  await expect(page.getByTestId("agent-version")).toHaveText(`agent ${AGENT_VERSION}`);
  await expect(page.getByTestId("agent-outdated")).toHaveCount(0);
  await expect(page.getByTestId("agent-upgrade")).toHaveCount(0);
  await page.goto("/hosts");
  const row = (name: string) => page.getByTestId("hosts-table").getByRole("row").filter({ hasText: name });
  await expect(row(old.name).getByTestId("agent-outdated")).toBeVisible();
  await expect(row(current.name).getByTestId("agent-version")).toHaveText(`agent ${AGENT_VERSION}`);
  await expect(row(current.name).getByTestId("agent-outdated")).toHaveCount(0);
});
