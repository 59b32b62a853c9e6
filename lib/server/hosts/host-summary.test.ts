import { describe, expect, it } from "vitest";
import { missingToolMessage } from "./host-summary";

const caps = (fio: boolean) => ({
  agentVersion: "test",
  tools: { fio: { installed: fio, version: fio ? "3.33" : null, path: fio ? "/usr/bin/fio" : null }, iozone: { installed: false, version: null, path: null } },
  allowedDirs: ["/srv/pb"],
});

describe("missingToolMessage", () => {
  it("gives the install command of the host's distribution from the os-release ID the agent reported", () => {
    const debian = { os: { id: "debian", idLike: [], versionId: "12" }, distro: "Debian GNU/Linux 12 (bookworm)" };
    expect(missingToolMessage(caps(false), "fio", "db1", debian)).toBe(
      'fio is not installed on db1. Install it with: sudo apt-get update && sudo apt-get install -y fio — then press "Re-check tools" on the host page (or wait up to five minutes).',
    );
    // fsmeta runs fio too.
    expect(missingToolMessage(caps(false), "fsmeta", "db1", debian)).toContain("apt-get install -y fio");
    const rocky = { os: { id: "rocky", idLike: ["rhel", "centos", "fedora"], versionId: "9.4" } };
    expect(missingToolMessage(caps(false), "fio", "db2", rocky)).toContain("sudo dnf install -y fio");
    const ubuntu = { os: { id: "linuxmint", idLike: ["ubuntu", "debian"], versionId: "22" } };
    expect(missingToolMessage(caps(false), "iozone", "db3", ubuntu)).toContain("sudo add-apt-repository -y multiverse && sudo apt-get update && sudo apt-get install -y iozone3");
  });

  it("falls back on the pretty name older agents sent, then on the probe's own hint", () => {
    expect(missingToolMessage(caps(false), "fio", "db1", { distro: "Arch Linux" })).toContain("sudo pacman -S --needed --noconfirm fio");
    expect(missingToolMessage(caps(false), "fio", "db1", {})).toContain("is not installed on db1. apt-get install fio");
  });

  it("is null when the tool is installed or the host has not reported", () => {
    expect(missingToolMessage(caps(true), "fio", "db1", {})).toBeNull();
    expect(missingToolMessage(null, "fio", "db1", {})).toBeNull();
  });
});
