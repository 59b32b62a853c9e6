import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { credentialPath, CredentialError, ensureCredential, loadCredential, normaliseServer } from "./credential-store";

const root = mkdtempSync(path.join(os.tmpdir(), "probebook-cred-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const stateDir = () => path.join(root, `state-${n++}`, "nested");
const registered = { hostId: "h1", hostName: "db-01", credential: "secret-credential" };

describe("ensureCredential", () => {
  it("registers on first start and stores the credential 0600 in a 0700 dir", async () => {
    const dir = stateDir();
    const tokens: string[] = [];
    const r = await ensureCredential({
      stateDir: dir,
      server: "http://Example.test:3000/",
      token: "reg-token-123",
      register: async (t) => (tokens.push(t), registered),
    });
    expect(tokens).toEqual(["reg-token-123"]);
    expect(r).toEqual({ registered: true, credential: { server: "http://example.test:3000", ...registered } });
    expect(statSync(credentialPath(dir)).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(credentialPath(dir), "utf8"))).toEqual(r.credential);
  });

  it("reuses the stored credential later; a token is then optional and unused", async () => {
    const dir = stateDir();
    await ensureCredential({ stateDir: dir, server: "http://s.test", token: "reg-token-123", register: async () => registered });
    const notes: string[] = [];
    const register = async () => {
      throw new Error("must not register twice");
    };
    expect((await ensureCredential({ stateDir: dir, server: "http://s.test/", token: null, register })).registered).toBe(false);
    const again = await ensureCredential({ stateDir: dir, server: "http://s.test", token: "another-token", register, log: (m) => notes.push(m) });
    expect(again.credential.credential).toBe("secret-credential");
    expect(notes[0]).toMatch(/already registered as host "db-01": --token is not needed/);
  });

  it("says so when the stored credential belongs to another server", async () => {
    const dir = stateDir();
    await ensureCredential({ stateDir: dir, server: "http://old.test", token: "reg-token-123", register: async () => registered });
    const attempt = ensureCredential({ stateDir: dir, server: "https://new.test", token: "reg-token-456", register: async () => registered });
    await expect(attempt).rejects.toThrow(CredentialError);
    await expect(attempt).rejects.toThrow(/belongs to http:\/\/old\.test \(host "db-01"\), not https:\/\/new\.test: use another --state-dir/);
  });

  it("asks for a token when there is no credential yet", async () => {
    const attempt = ensureCredential({ stateDir: stateDir(), server: "http://s.test", token: null, register: async () => registered });
    await expect(attempt).rejects.toThrow(/not registered yet .*pass --token/);
  });

  it("propagates a refused registration and stores nothing", async () => {
    const dir = stateDir();
    const attempt = ensureCredential({
      stateDir: dir,
      server: "http://s.test",
      token: "expired-token",
      register: async () => {
        throw new Error("registration token is unknown, used or expired");
      },
    });
    await expect(attempt).rejects.toThrow(/expired/);
    expect(loadCredential(dir)).toBeNull();
  });

  it("tightens a credential file others can read, and names a damaged one", async () => {
    const dir = stateDir();
    await ensureCredential({ stateDir: dir, server: "http://s.test", token: "reg-token-123", register: async () => registered });
    chmodSync(credentialPath(dir), 0o644);
    loadCredential(dir);
    expect(statSync(credentialPath(dir)).mode & 0o777).toBe(0o600);
    writeFileSync(credentialPath(dir), "{not json");
    expect(() => loadCredential(dir)).toThrow(/credential\.json is damaged: delete it and register again/);
  });
});

describe("normaliseServer", () => {
  it("ignores trailing slashes and host case, keeps paths and ports", () => {
    expect(normaliseServer("HTTPS://Probe.Example.com/")).toBe("https://probe.example.com");
    expect(normaliseServer("http://h:8080/probebook//")).toBe("http://h:8080/probebook");
  });
});
