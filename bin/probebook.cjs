#!/usr/bin/env node
// `npx probebook …`: runs the TypeScript CLI in cli/ through tsx's loader, in this process.
require("tsx/cjs/api").register();
require("../cli/main.ts");
