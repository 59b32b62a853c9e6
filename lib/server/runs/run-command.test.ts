import { describe, expect, it } from "vitest";
import { runCommand } from "./run-command";

describe("runCommand", () => {
  it("shows a job-file run's argv and the file the agent writes", () => {
    const jobFile = "[a]\nsize=1m\nrw=read\n";
    const c = runCommand("fio", { target: "/srv/t", jobFile });
    expect(c?.line).toMatch(/^fio --output-format=normal,json --eta=always --percentile_list=[\d.:]+ probebook-job\.fio$/);
    expect(c?.inputFiles).toEqual([{ name: "probebook-job.fio", text: jobFile }]);
  });
  it("shows a preset run's argv with the run directory as a placeholder, and quotes what a shell would split", () => {
    const c = runCommand("fio", { target: "/srv/t", rw: "read", sizeMiB: 16 });
    expect(c?.line).toContain("--directory=<run dir>");
    expect(c?.inputFiles).toEqual([]);
    expect(runCommand("fio", { target: "/srv/t", jobFile: "[a]\nexec_prerun=x\n" })).toBeNull();
    expect(runCommand("nope", {})).toBeNull();
  });
});
