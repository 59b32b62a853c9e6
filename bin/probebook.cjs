#!/usr/bin/env node
// `npx probebook …`: runs the TypeScript CLI in cli/ through tsx's loader, in this process.
// CommonJS because the package is; tsx's ESM entry would load cli/main.ts in a require cycle.
/* global require */
/* eslint-disable @typescript-eslint/no-require-imports */
require("tsx/cjs/api").register();
require("../cli/main.ts");
