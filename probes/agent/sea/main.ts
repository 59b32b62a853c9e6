// Entry of the single-executable agent (dist/agent/probebook-agent-linux-<arch>): the same agent as
// probes/agent/main.ts, told first where node-pty's embedded addon is to be written. The command
// line is read here only for its state dir; main.ts reads it again and reports any error.
import os from "node:os";
import path from "node:path";
import { parseCli } from "../cli";
import { setNativeDir } from "./native-addon";

const cli = parseCli(process.argv.slice(2), process.env, os.homedir());
if (cli.kind === "run") setNativeDir(path.join(cli.options.stateDir, "native"));
// Loaded after the line above: main.ts starts the agent as it is evaluated.
void import("../main");
