import { describe, expect, it } from "vitest";
import { paramPairs, runId } from "./args";
import { connection } from "./client";
import { EXIT, exitCodeOfStatus } from "./exit-codes";

describe("the CLI's pieces", () => {
  it("maps run outcomes to distinct exit codes", () => {
    expect(exitCodeOfStatus("SUCCEEDED")).toBe(0);
    expect(new Set(["FAILED", "CANCELLED", "LOST"].map(exitCodeOfStatus)).size).toBe(3);
    expect(exitCodeOfStatus("FAILED")).toBe(EXIT.RUN_FAILED);
    expect(Object.values(EXIT).length).toBe(new Set(Object.values(EXIT)).size);
  });

  it("reads --param values as JSON where they look like it, else as text", () => {
    expect(paramPairs(["sizeMiB=64", "direct=true", "mode=write", "label=a=b", "list=[1,2]"])).toEqual({ sizeMiB: 64, direct: true, mode: "write", label: "a=b", list: [1, 2] });
    expect(() => paramPairs(["novalue"])).toThrow(expect.objectContaining({ exitCode: EXIT.USAGE }));
    expect(() => paramPairs(["x={bad"])).not.toThrow();
  });

  it("refuses bad arguments with exit 2 before sending anything", () => {
    expect(() => runId("12")).toThrow(expect.objectContaining({ exitCode: EXIT.USAGE }));
    expect(() => connection({ server: "ftp://x", token: "t" }, {})).toThrow(expect.objectContaining({ exitCode: EXIT.USAGE }));
    expect(() => connection({ server: "http://x" }, {})).toThrow(/PROBEBOOK_TOKEN/);
    expect(connection({}, { PROBEBOOK_SERVER: "http://h:3000/", PROBEBOOK_TOKEN: "pbt_x" })).toEqual({ server: "http://h:3000", token: "pbt_x" });
  });
});
